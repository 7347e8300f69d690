// Which data-file layout an archive's data files are in (FORGE.md 7): not in the file, found by content.
#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

#include "reader/forge/data_files.hpp"

namespace anvil::forge {

bool data_sizes_agree(const DataFileView& view) {
  // Each resource from its resource_type, the u32 before its file_size, to its body's end. Not from the
  // table's end: in a view the tails after the table (layout 1's m bytes, version 26's x bytes) are runs,
  // which a walk of the declaration does not count.
  for (const SizeFieldsAt& at : size_fields(view))
    if (view.file.entries[at.body.entry].data_size != at.body.offset + at.body.size - at.resource_at()) return false;
  return true;
}

absl::StatusOr<DataFileView> view_data_file_by_content(std::span<const u8> decoded, std::optional<u8> named) {
  // A decompressed data file's form depends on the layout and on the version's tail alone: one version of each
  // tail is tried (the first, then the next that differs), in its layouts' order.
  std::vector<ForgeVariant> forms;
  for (const VersionRow& row : kVersionRows) {
    if (std::any_of(forms.begin(), forms.end(),
                    [&](ForgeVariant f) { return f.version_row().version_tail == row.version_tail; }))
      continue;
    for (u8 layout : plausible_layouts(row.version))
      if (!named || layout == *named) forms.push_back({row.version, layout});
  }
  absl::StatusOr<DataFileView> first = absl::InvalidArgumentError("no form");
  std::optional<DataFileView> parsed;  // the first form that parses, when no form's sizes agree
  for (const ForgeVariant& variant : forms) {
    auto view = view_data_file(decoded, variant);
    if (view.ok() && data_sizes_agree(*view)) return view;
    if (view.ok() && !parsed) parsed = std::move(*view);
    if (!view.ok() && &variant == &forms.front()) first = view.status();
  }
  if (parsed) return std::move(*parsed);
  return first;
}

std::vector<std::size_t> smallest_first(const Archive& archive) {
  std::vector<std::size_t> order(archive.files.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return archive.files[a].index.size < archive.files[b].index.size;
  });
  return order;
}

u8 detect_layout(std::span<const u8> bytes, const Archive& archive, std::optional<LayoutEvidence>* evidence) {
  const u32 version = archive.header.version;
  // The first data file that reads in a layout decides, the smallest first (deciding costs decompressing
  // it, up to once per layout): the first layout whose stored form and entries' table parse exactly. A data
  // file that reads in none (damaged, or put back as raw bytes) is passed over. Among the layouts that parse
  // it, the first in which every entry's data_size is its resource's size (the entry header and body,
  // FORGE.md 5): layouts 1 and 2 can both parse a data file of one entry.
  for (std::size_t i : smallest_first(archive)) {
    if (archive.files[i].index.size == 0) continue;
    auto found = read_in_found_layout(
        version,
        [&](ForgeVariant as) -> absl::StatusOr<LayoutEvidence> {
          auto read = read_data_file(bytes, archive, as, i, ChecksumVerdict{});
          if (!read.ok()) return read.status();
          auto view = view_data_file(read->decoded.bytes, as);
          if (!view.ok()) return view.status();
          const bool agree = data_sizes_agree(*view);
          return LayoutEvidence{i, std::move(*read), agree};
        },
        [](const LayoutEvidence& e) { return e.sizes_agree; });
    if (!found.read.ok()) continue;
    if (evidence) *evidence = std::move(*found.read);
    return found.layout;
  }
  // Data files put back as raw bytes have no entries' table to parse: then the first layout in which every
  // data file's stored form (prefix, block sets or plain bytes) reads exactly, one at least compressed. Skimmed:
  // nothing decompressed.
  for (u8 layout : plausible_layouts(version)) {
    const ForgeVariant as{version, layout};
    bool all = true, compressed = false;  // plain bytes read in any layout without a prefix: block sets tell
    for (std::size_t i = 0; i < archive.files.size() && all; ++i) {
      if (archive.files[i].index.size == 0) continue;
      std::vector<std::span<const u8>> runs;
      auto stored = read_stored(bytes, archive, as, i, &runs);
      compressed |= stored.ok() && stored->compressed;
      all = stored.ok() && (stored->compressed ||
                            check_plain(bytes, archive, as, i, runs.empty() ? std::span<const u8>{} : runs[0]).ok());
    }
    if (all && compressed) return layout;
  }
  return plausible_layouts(version).front();  // none reads: the reads name the data file, the offset and the rule
}

}  // namespace anvil::forge
