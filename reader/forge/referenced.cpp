#include "reader/forge/referenced.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_format.h>

#include <algorithm>

#include "model/forge/forge_error.hpp"

namespace anvil::forge {

std::vector<ByteRange> referenced_ranges(const Archive& archive) {
  const TableLayout& layout = archive.layout();
  std::vector<ByteRange> all{{0, archive.header.first_header},
                             {archive.header.first_header, archive.header.first_header + layout.data_header}};
  for (const SectionAt& s : archive.sections) {
    const u64 count = static_cast<u64>(s.table.count);
    all.push_back({s.offset, s.offset + layout.section});
    const u64 index = static_cast<u64>(s.table.index_table), names = static_cast<u64>(s.table.name_table);
    all.push_back({index, index + count * layout.index_entry});
    all.push_back({names, names + count * layout.name_entry});
  }
  for (const DataFileAt& f : archive.files) all.push_back({f.index.offset, f.end()});
  std::sort(all.begin(), all.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  std::vector<ByteRange> merged;
  for (const ByteRange& r : all) {
    if (r.begin == r.end) continue;
    if (!merged.empty() && r.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, r.end);
    else
      merged.push_back(r);
  }
  return merged;
}

std::vector<ByteRange> unreferenced_ranges(const Archive& archive) {
  std::vector<ByteRange> out;
  u64 at = 0;
  for (const ByteRange& r : referenced_ranges(archive)) {
    if (r.begin > at) out.push_back({at, r.begin});
    at = std::max(at, r.end);
  }
  if (archive.size > at) out.push_back({at, archive.size});
  return out;
}

absl::Status check_no_unreferenced(const Archive& archive, u64 alignment) {
  absl::flat_hash_set<u64> headers;
  for (const DataFileAt& f : archive.files) headers.insert(f.index.offset);
  for (const ByteRange& r : unreferenced_ranges(archive)) {
    const bool padding =
        alignment > 1 && r.end - r.begin < alignment && r.end % alignment == 0 && headers.contains(r.end);
    if (!padding)
      return ForgeError{.code = absl::StatusCode::kFailedPrecondition,
                        .offset = r.begin,
                        .reason = absl::StrFormat("%d unreferenced bytes (0x%x..0x%x) that no alignment to %d requires",
                                                  r.end - r.begin, r.begin, r.end, alignment),
                        .read_as = read_as_version(archive.variant())}
          .status();
  }
  return absl::OkStatus();
}

}  // namespace anvil::forge
