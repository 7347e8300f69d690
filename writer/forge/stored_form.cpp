#include "writer/forge/stored_form.hpp"

#include <absl/strings/str_format.h>

#include <limits>

#include "codec/forge_compression.hpp"
#include "writer/forge/new_blocks.hpp"

namespace anvil::forge {
namespace {

constexpr std::pair<StoredForm, std::string_view> kFormNames[] = {
    {StoredForm::plain, "plain"},
    {StoredForm::chunks, "chunks"},
    {StoredForm::two_block_sets, "two block sets"},
    {StoredForm::block_set_then_chunks, "block set, then chunks"},
    {StoredForm::empty, "empty"},
};

// A block table, or a chunk stream (max_size 0), of `data` cut every `cut` bytes.
void fill(BlockSet& set, std::span<const u8> data, u64 cut, ChecksumRule rule) {
  append_new_blocks(set, rule, cut_into(data, cut));  // a rule is given: it cannot refuse
}

BlockSet new_set(const SetFields& fields) {
  BlockSet set;
  set.compression = fields.compression;
  set.block_size = fields.block_size;
  return set;
}

}  // namespace

std::string_view stored_form_name(StoredForm form) {
  for (const auto& [f, name] : kFormNames)
    if (f == form) return name;
  return "?";
}

std::optional<StoredForm> stored_form_named(std::string_view name) {
  for (const auto& [f, n] : kFormNames)
    if (n == name) return f;
  return std::nullopt;
}

StoredForm stored_form_of(const StoredDataFile& stored) {
  if (stored.empty) return StoredForm::empty;
  if (!stored.first) return StoredForm::plain;
  if (!stored.second) return StoredForm::chunks;
  return stored.second->max_size != 0 ? StoredForm::two_block_sets : StoredForm::block_set_then_chunks;
}

absl::StatusOr<StoredDataFile> compress_stored(std::span<const u8> decoded, const StoredSpec& spec, ChecksumRule rule) {
  StoredDataFile out;
  out.variant = spec.variant;
  out.prefix = spec.prefix;
  out.prefix_bytes = spec.prefix_bytes;
  const bool table = spec.form == StoredForm::two_block_sets || spec.form == StoredForm::block_set_then_chunks;
  if (spec.form != StoredForm::plain && spec.form != StoredForm::empty) {
    if (spec.cut == 0) return absl::InvalidArgumentError("the block size must not be 0");
    if (table && spec.cut > std::numeric_limits<u16>::max())
      return absl::InvalidArgumentError(
          absl::StrFormat("the block size %d does not fit a block table's u16 sizes (at most 65535)", spec.cut));
    if (spec.cut > std::numeric_limits<u32>::max())
      return absl::InvalidArgumentError(absl::StrFormat("the block size %d does not fit a u32", spec.cut));
  }
  switch (spec.form) {
    case StoredForm::empty:
      if (!decoded.empty() || !spec.prefix.empty())
        return absl::InvalidArgumentError("an empty stored data file holds no bytes and no prefix");
      out.empty = true;
      break;
    case StoredForm::plain:
      out.plain.bytes.assign(decoded.begin(), decoded.end());
      break;
    case StoredForm::chunks:
      out.first = new_set(spec.sets[0]);
      out.first->max_size = 0;
      fill(*out.first, decoded, spec.cut, rule);
      break;
    case StoredForm::two_block_sets:
    case StoredForm::block_set_then_chunks: {
      const u64 first = std::min<u64>(spec.first_set_size, decoded.size());
      out.first = new_set(spec.sets[0]);
      out.first->max_size = spec.sets[0].max_size != 0 ? spec.sets[0].max_size : static_cast<u16>(spec.cut);
      fill(*out.first, decoded.first(first), spec.cut, rule);
      out.second = new_set(spec.sets[1]);
      if (spec.form == StoredForm::two_block_sets) {
        out.second->max_size = spec.sets[1].max_size != 0 ? spec.sets[1].max_size : static_cast<u16>(spec.cut);
        fill(*out.second, decoded.subspan(first), spec.cut, rule);
      } else {
        out.second->max_size = 0;
        fill(*out.second, decoded.subspan(first), spec.cut, rule);
      }
      break;
    }
  }
  return out;
}

}  // namespace anvil::forge
