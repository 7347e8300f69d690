#include "patch/archive_side_read.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "model/forge/forge_error.hpp"
#include "model/parallel.hpp"

namespace anvil::patch {
namespace {

absl::Status named(const ArchiveSide& side, const absl::Status& s) { return forge::with_archive(s, side.file.path()); }

// The checksum rule data file `index`'s own blocks vote, read as `as` (the rest of the archive is not read).
forge::ChecksumVerdict own_rule(const ArchiveSide& side, std::size_t index, forge::ForgeVariant as) {
  return forge::own_checksum_rule(side.file.bytes(), side.archive, as, index);
}

// A read data file, its entries' table viewed as `as` and its bodies found: its decompressed bytes moved out of
// `read`, its stored form left there.
absl::StatusOr<Opened> view_read(const ArchiveSide& side, std::size_t index, absl::StatusOr<forge::DataFileRead>& read,
                                 forge::ForgeVariant as) {
  if (!read.ok()) return named(side, read.status());
  Opened out;
  out.decoded = std::move(read->decoded);
  auto view = forge::view_data_file(out.decoded.bytes, as);
  if (!view.ok()) return named(side, forge::with_data_file(view.status(), forge::data_file_ref(side.archive, index)));
  out.source = data_file_source(*view);
  out.sizes_agree = forge::data_sizes_agree(*view);
  return out;
}

// The first plausible layout of the archives' version in which the stored forms of both data files read,
// when in none before it does either's: there read_in_found_layout's rule gives both the same layout if both
// read through with their sizes agreeing. Nothing when the sides part.
std::optional<u8> first_stored_layout(const ArchiveSide& a, std::size_t i, const ArchiveSide& b, std::size_t j) {
  const u32 version = a.archive.header.version;
  if (version != b.archive.header.version) return std::nullopt;
  for (u8 layout : forge::plausible_layouts(version)) {
    const forge::ForgeVariant as{version, layout};
    std::vector<std::span<const u8>> runs;
    const bool read_a = forge::read_stored(a.file.bytes(), a.archive, as, i, &runs).ok();
    runs.clear();
    const bool read_b = forge::read_stored(b.file.bytes(), b.archive, as, j, &runs).ok();
    if (read_a && read_b) return layout;
    if (read_a || read_b) return std::nullopt;
  }
  return std::nullopt;
}

// read_in_found_layout's rule for a data file read in `first`, the first layout in which its stored form
// reads: the first later layout whose read agrees (its sizes), or failing that `first`. A later layout in which
// the stored form reads alike (the same blocks: the same decompressed bytes, `kept` being its reading in
// `first`, its decompressed bytes already in `opened`) is only viewed. Nothing when a later layout reads it
// otherwise and may decide: then it needs reads of its own (open_data_file).
std::optional<u8> settle_layout(const ArchiveSide& side, std::size_t index, u8 first, const forge::DataFileRead& kept,
                                Opened& opened) {
  if (opened.sizes_agree) return first;
  const u32 version = side.archive.header.version;
  const std::span<const u8> layouts = forge::plausible_layouts(version);
  for (auto l = std::find(layouts.begin(), layouts.end(), first) + 1; l < layouts.end(); ++l) {
    const forge::ForgeVariant as{version, *l};
    std::vector<std::span<const u8>> runs;
    auto stored = forge::read_stored(side.file.bytes(), side.archive, as, index, &runs);
    if (!stored.ok()) continue;
    if (!forge::decodes_alike(kept.stored, kept.runs, *stored, runs)) {
      // Read as plain in this layout (no block set where it looks for one): its read fails when the bytes
      // hold the compression magic (check_plain), and decides only when its table reads with sizes agreeing.
      if (stored->compressed || runs.empty()) return std::nullopt;
      if (!forge::check_plain(side.file.bytes(), side.archive, as, index, runs.back()).ok()) continue;
      auto plain = forge::view_data_file(runs.back(), as);
      if (plain.ok() && forge::data_sizes_agree(*plain)) return std::nullopt;
      continue;
    }
    auto view = forge::view_data_file(opened.decoded.bytes, as);
    if (view.ok() && forge::data_sizes_agree(*view)) {
      opened.source = data_file_source(*view);
      opened.sizes_agree = true;
      return *l;
    }
  }
  return first;
}

}  // namespace

absl::StatusOr<Opened> open_data_file(ArchiveSide& side, std::size_t index) {
  auto open = [&](forge::ForgeVariant as) -> absl::StatusOr<Opened> {
    auto read = forge::read_data_file(side.file.bytes(), side.archive, as, index, own_rule(side, index, as));
    return view_read(side, index, read, as);
  };
  if (side.archive.resolved()) return open(side.archive.variant());
  auto found =
      forge::read_in_found_layout(side.archive.header.version, open, [](const Opened& o) { return o.sizes_agree; });
  if (found.read.ok()) forge::resolve_layout(side.archive, found.layout);
  return std::move(found.read);
}

std::array<absl::StatusOr<Opened>, 2> open_pair(ArchiveSide& a, std::size_t i, ArchiveSide& b, std::size_t j) {
  std::array<absl::StatusOr<Opened>, 2> out = {absl::UnknownError("not read"), absl::UnknownError("not read")};
  auto each = [&] {
    on_two_threads([&] { out[0] = open_data_file(a, i); }, [&] { out[1] = open_data_file(b, j); });
    return std::move(out);
  };
  const bool finding = !a.archive.resolved() && !b.archive.resolved();
  std::optional<u8> found;
  if (a.archive.resolved() != b.archive.resolved() || (finding && !(found = first_stored_layout(a, i, b, j))))
    return each();
  const std::array<forge::ForgeVariant, 2> as = {
      finding ? forge::ForgeVariant{a.archive.header.version, *found} : a.archive.variant(),
      finding ? forge::ForgeVariant{b.archive.header.version, *found} : b.archive.variant()};
  forge::ChecksumVerdict rule_a, rule_b;
  on_two_threads([&] { rule_a = own_rule(a, i, as[0]); }, [&] { rule_b = own_rule(b, j, as[1]); });
  auto reads = forge::read_data_files_together({a.file.bytes(), a.archive, i, rule_a, as[0]},
                                               {b.file.bytes(), b.archive, j, rule_b, as[1]});
  ArchiveSide* sides[] = {&a, &b};
  const std::size_t index[] = {i, j};
  std::array<u8, 2> settled{};
  for (int s = 0; s < 2; ++s) {
    out[s] = view_read(*sides[s], index[s], reads[s], as[s]);
    if (!finding) continue;
    if (!out[s].ok()) return each();
    auto layout = settle_layout(*sides[s], index[s], as[s].layout, *reads[s], *out[s]);
    if (!layout) return each();
    settled[s] = *layout;
  }
  if (finding) {
    forge::resolve_layout(a.archive, settled[0]);
    forge::resolve_layout(b.archive, settled[1]);
  }
  return out;
}

}  // namespace anvil::patch
