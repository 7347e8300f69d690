#include "pipeline/mods/shipped_data_file.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <utility>

#include "model/counted.hpp"
#include "model/parallel.hpp"
#include "patch/archive_diff.hpp"
#include "patch/archive_patch.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level_source.hpp"

namespace anvil::mods {
namespace {

// A decompressed data file: an entry table that reads to its end with data sizes that agree.
bool reads_decompressed(std::span<const u8> bytes, forge::ForgeVariant variant) {
  auto view = forge::view_data_file(bytes, variant);
  return view.ok() && forge::data_sizes_agree(*view);
}

// The stored form decoded, or why not (the stored form's own offsets).
absl::StatusOr<std::vector<u8>> decode_stored(std::span<const u8> bytes, forge::ForgeVariant variant,
                                              const forge::ChecksumVerdict& checksums) {
  auto stored = forge::read_stored_alone(bytes, variant);
  if (!stored.ok()) return stored.status();
  auto decoded = forge::decode(*stored, 0, checksums);
  if (!decoded.ok()) return decoded.status();
  return std::vector<u8>(decoded->bytes.begin(), decoded->bytes.end());
}

// A shipped data file decompressed: a view of the shipped bytes where they are (or of `owned`).
struct ShippedBytes {
  std::vector<u8> owned;
  std::span<const u8> bytes;
};

ShippedBytes owning(std::vector<u8> decoded) {
  ShippedBytes out{std::move(decoded), {}};
  out.bytes = out.owned;
  return out;
}

// decompress_shipped(), the decompressed form not copied, and the archive's checksum rule asked for (voted)
// only for a stored form.
absl::StatusOr<ShippedBytes> shipped_bytes(std::span<const u8> bytes, forge::ForgeVariant variant,
                                           const std::function<const forge::ChecksumVerdict&()>& checksums) {
  if (forge::starts_compressed(bytes, variant)) {
    auto decoded = decode_stored(bytes, variant, checksums());
    if (!decoded.ok())
      return absl::InvalidArgumentError(absl::StrFormat("stored form: %s", decoded.status().message()));
    return owning(std::move(*decoded));
  }
  if (reads_decompressed(bytes, variant)) return ShippedBytes{{}, bytes};
  // A plain stored form: the layout's prefix, then the data file as it decompresses.
  if (auto plain = decode_stored(bytes, variant, checksums()); plain.ok() && reads_decompressed(*plain, variant))
    return owning(std::move(*plain));
  // Neither: the decompressed form's own error says where it stops reading.
  auto view = forge::view_data_file(bytes, variant);
  const std::string why =
      view.ok() ? "its entries' data sizes do not agree with their resources" : std::string(view.status().message());
  return absl::InvalidArgumentError(
      absl::StrFormat("neither a decompressed nor a stored data file of this archive (%s)", why));
}

}  // namespace

absl::StatusOr<std::vector<u8>> decompress_shipped(std::span<const u8> bytes, forge::ForgeVariant variant,
                                                   const forge::ChecksumVerdict& checksums) {
  auto got = shipped_bytes(bytes, variant, [&]() -> const forge::ChecksumVerdict& { return checksums; });
  if (!got.ok()) return got.status();
  if (got->bytes.data() == got->owned.data()) return std::move(got->owned);
  return std::vector<u8>(got->bytes.begin(), got->bytes.end());
}

namespace {

// The data files the shipped one names: by name, narrowed (or, when the name names none, found) by its id.
std::vector<std::size_t> matching_data_files(const forge::ArchiveLevels& levels, const ShippedDataFile& shipped) {
  std::vector<std::size_t> by_name = levels.select(shipped.name);
  if (by_name.size() == 1 || !shipped.id) return by_name;
  std::vector<std::size_t> by_id;
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels.archive().files[levels.archive_index(i)].index.file_id.value == *shipped.id) by_id.push_back(i);
  if (by_name.empty()) return by_id;
  std::vector<std::size_t> both;
  std::ranges::set_intersection(by_name, by_id, std::back_inserter(both));
  return both.empty() ? by_name : both;
}

}  // namespace

std::optional<std::vector<u8>> with_objects_of(const Level& like, std::span<const u8> outside) {
  if (outside.size() != like.bytes.size()) return std::nullopt;
  const Level carved = carve_as(like, outside);
  if (carved.pieces.size() != like.pieces.size()) return std::nullopt;
  std::vector<u8> out(outside.begin(), outside.end());
  for (std::size_t k = 0; k < like.pieces.size(); ++k) {
    const Piece& x = like.pieces[k];
    const Piece& y = carved.pieces[k];
    if (x.offset != y.offset || x.length != y.length || x.is_object() != y.is_object()) return std::nullopt;
    if (x.is_object())
      std::copy_n(like.bytes.begin() + static_cast<std::ptrdiff_t>(x.offset), x.length,
                  out.begin() + static_cast<std::ptrdiff_t>(x.offset));
  }
  return out;
}

absl::StatusOr<ShippedArchive> shipped_archive(folder::FolderLevels& originals, const ShippedDataFile& shipped) {
  const std::optional<std::size_t> a = originals.folder().find(shipped.archive);
  if (!a)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: the game folder has no archive %s", shipped.label, shipped.archive));
  auto set = originals.levels(*a);
  if (!set.ok()) return set.status();
  return ShippedArchive{*a, *set};
}

absl::StatusOr<ShippedEffect> shipped_data_file_effect(folder::FolderLevels& originals,
                                                       const ShippedDataFile& shipped) {
  auto fail = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", shipped.label, what));
  };
  auto found = shipped_archive(originals, shipped);
  if (!found.ok()) return found.status();
  const std::size_t a = found->index;
  forge::ArchiveLevels& levels = *found->levels;
  const std::vector<std::size_t> matches = matching_data_files(levels, shipped);
  if (matches.empty())
    return absl::NotFoundError(absl::StrFormat("%s: %s has no data file '%s' (see anvilrt ls %s; --allow-new adds it)",
                                               shipped.label, shipped.archive, shipped.name,
                                               originals.folder().path(a)));
  if (matches.size() > 1)
    return fail(absl::StrFormat("'%s' names %s of %s; name one by its unique name (anvilrt ls)", shipped.name,
                                counted(matches.size(), "data file"), shipped.archive));
  const std::size_t i = matches.front();
  const forge::ForgeVariant variant = levels.archive().variant();
  absl::StatusOr<ShippedBytes> mine =
      shipped.decompressed ? ShippedBytes{{}, shipped.bytes}
                           : shipped_bytes(shipped.bytes, variant, [&]() -> const forge::ChecksumVerdict& {
                               return levels.checksums().verdict;
                             });
  if (!mine.ok()) return fail(std::string(mine.status().message()));
  auto view = forge::view_data_file(mine->bytes, variant);
  if (!view.ok()) return fail(std::string(view.status().message()));
  const Source mine_source = data_file_source(*view);
  // The original decompressed and carved (once: the set holds it for the next package and the analysis)
  // while the shipped one is carved.
  absl::StatusOr<const Level*> original = nullptr;
  std::optional<Level> carved;
  on_two_threads([&] { carved = carve_source(mine->bytes, mine_source, levels.game()); },
                 [&] { original = levels.level(i); });
  if (!original.ok()) return original.status();
  auto decompressed = levels.decompressed(i);
  if (!decompressed.ok()) return decompressed.status();
  const Source original_source{.kind = SourceKind::data_file,
                               .entries = (*decompressed)->entries,
                               .regions = (*decompressed)->regions,
                               .variant = variant};
  const Level& from = **original;
  ShippedEffect effect;
  effect.datafile = levels.name(i);
  patch::DataFileDiff diff = patch::diff_data_files(from, original_source, *carved);
  if (diff.state == patch::DataFileState::changed_outside) {
    // The shipped bytes outside the objects, the original's objects in them: what the operations then change.
    effect.replacement = with_objects_of(from, mine->bytes);
    if (effect.replacement)
      diff = patch::diff_data_files(*effect.replacement, mine_source, mine->bytes, mine_source, levels.game());
    if (!effect.replacement || diff.state == patch::DataFileState::changed_outside) {
      effect.replacement = std::vector<u8>(mine->bytes.begin(), mine->bytes.end());
      diff.ops.clear();
    }
  }
  // Nothing reads it again unless an operation or a replacement is made of it.
  if (diff.ops.empty() && !effect.replacement) levels.release(i);
  const std::string prefix = folder::archive_pointer(shipped.archive) + patch::datafile_pointer(effect.datafile);
  for (patch::DiffOp& op : diff.ops) op.path = prefix + op.path;
  effect.ops = std::move(diff.ops);
  return effect;
}

}  // namespace anvil::mods
