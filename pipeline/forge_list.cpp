#include "pipeline/forge_list.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>

#include "reader/forge/data_files.hpp"
#include "writer/forge/archive_writer.hpp"

namespace anvil::forge {
namespace {

std::string text_of(std::span<const u8> fixed) {
  auto end = std::find(fixed.begin(), fixed.end(), u8{0});
  return {fixed.begin(), end};
}

}  // namespace

std::string data_header_member(std::string_view name) {
  constexpr std::string_view kUnknown = "unknown";
  if (name.substr(0, kUnknown.size()) == kUnknown) name.remove_prefix(kUnknown.size());
  return absl::StrCat("data_header_kept", std::string(name));
}

std::optional<std::string> name_bytes(std::string_view printable) {
  std::string out;
  for (std::size_t i = 0; i < printable.size(); ++i) {
    const auto c = static_cast<unsigned char>(printable[i]);
    if (c < 0x20 || c >= 0x7f) return std::nullopt;
    if (c != '\\') {
      out += printable[i];
      continue;
    }
    int value = 0;
    if (i + 3 >= printable.size()) return std::nullopt;
    if (printable.substr(i + 1, 1) != "x" || !absl::SimpleHexAtoi(std::string(printable.substr(i + 2, 2)), &value) ||
        printable.substr(i + 2, 2) != absl::StrFormat("%02x", value))
      return std::nullopt;
    const char byte = static_cast<char>(value);
    if (value >= 0x20 && value < 0x7f && byte != '\\') return std::nullopt;  // printable_name writes it as is
    out += byte;
    i += 3;
  }
  return out;
}

ListedDataFile listed_data_file(const Archive& archive, std::size_t index, const std::string& name,
                                const StoredDataFile& stored, std::span<const std::span<const u8>> runs,
                                u64 decoded_size) {
  const DataFileAt& f = archive.files[index];
  ListedDataFile d;
  d.name = name;
  d.file = file_name_of(name, index) + ".data";
  d.file_id = f.index.file_id.value;
  d.name_entry = text_of(f.name.name.bytes);
  d.file_type = f.name.file_type.value;
  d.stored.form = stored_form_of(stored);
  d.stored.variant = archive.variant();
  d.stored.prefix = stored.prefix;
  d.stored.prefix_bytes = stored.prefix_bytes;
  d.compression =
      stored.first ? compression_of(stored.first->compression).value_or(Compression::lzo1x) : Compression::plain;
  // The block size is the largest block's or chunk's decompressed size (FORGE.md 5 cuts by it too).
  u64 cut = 0;
  for (const BlockAt& b : block_layout(stored, 0, runs)) {
    cut = std::max(cut, b.decoded_size);
    if (b.set == 0 && stored.second) d.stored.first_set_size += b.decoded_size;
  }
  std::size_t k = 0;
  for (const std::optional<BlockSet>* set : {&stored.first, &stored.second})
    if (set->has_value()) d.stored.sets[k++] = {(*set)->compression, (*set)->block_size, (*set)->max_size};
  d.stored.cut = cut != 0 ? cut : 0x8000;
  if (f.name.raw_size == f.index.size)
    d.raw_size.kind = RawSize::stored;
  else if (f.name.raw_size == decoded_size)
    d.raw_size.kind = RawSize::decompressed;
  else
    d.raw_size = {RawSize::kept, f.name.raw_size};
  d.name_kept = f.name;
  d.header_name = text_of(f.header.name.bytes);
  d.header_kept = f.header;
  return d;
}

ForgeList list_head(const Archive& archive, const ChecksumVerdict& checksums) {
  ForgeList list;
  list.archive_datafiles = archive.files.size();
  list.layout = archive.variant().layout;
  list.head = head_of(archive, data_file_alignment(archive));
  list.checksum_rule = checksums.name();
  return list;
}

}  // namespace anvil::forge
