#include "reader/forge/archive_reader.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "model/counted.hpp"
#include "model/forge/forge_error.hpp"
#include "reader/byte_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {
namespace {

// Where the tables are read from: views of the archive's bytes, or, given its file, copies read with
// pread (InputFile::read_at), so that reading one header per data file maps nothing.
class TableSource {
 public:
  TableSource(std::span<const u8> bytes, const InputFile* file)
      : bytes_(bytes), file_(file && file->bytes().data() == bytes.data() ? file : nullptr) {}

  // The archive version the structures after the header are read with (the header itself is read before
  // its version is known).
  void set_variant(ForgeVariant variant) {
    variant_ = variant;
    read_as_ = read_as_version(variant);
  }

  // Reads one structure at `offset` of the archive, from a window of at most `window` bytes there.
  template <class T>
  absl::Status read_at(u64 offset, T& value, u64 window) {
    if (offset > bytes_.size()) return error(offset, "lies past the end of the file");
    std::span<const u8> piece = file_ ? file_->read_at(offset, window, buffer_)
                                      : bytes_.subspan(offset, std::min<u64>(window, bytes_.size() - offset));
    ByteReader reader(piece);
    serialize_root(reader, value, variant_.code());
    if (!reader.ok()) return error(offset + reader.failure()->offset, reader.failure()->message());
    return absl::OkStatus();
  }
  template <class T>
  absl::Status read_at(u64 offset, T& value) {
    return read_at(offset, value, wire_size<T>(variant_));
  }

 private:
  absl::Status error(u64 offset, std::string reason) const {
    return ForgeError{.offset = offset, .reason = std::move(reason), .read_as = read_as_}.status();
  }

  ForgeVariant variant_;
  std::optional<ForgeError::ReadAs> read_as_;
  std::span<const u8> bytes_;
  const InputFile* file_;
  std::vector<u8> buffer_;
};

// Whether `count` records of `size` bytes at `offset` (an i64 from the file) lie inside the file.
bool table_fits(std::span<const u8> bytes, i64 offset, u64 count, std::size_t size) {
  return offset >= 0 && static_cast<u64>(offset) <= bytes.size() &&
         count <= (bytes.size() - static_cast<u64>(offset)) / size;
}

// An error of the tables at archive offset `offset`, read as `variant`'s version.
absl::Status table_error(u64 offset, std::string reason, ForgeVariant variant) {
  return ForgeError{.offset = offset, .reason = std::move(reason), .read_as = read_as_version(variant)}.status();
}

// The index and name entries of section `t` (and each data file's header, when the version has one), each
// data file checked to lie inside the file, appended to `archive.files`.
absl::Status read_section_entries(std::span<const u8> bytes, TableSource& tables, const TableLayout& layout,
                                  const TableSection& t, Archive& archive) {
  for (u64 i = 0; i < static_cast<u64>(t.count); ++i) {
    DataFileAt file;
    file.section = archive.sections.size();
    file.index_entry_offset = static_cast<u64>(t.index_table) + i * layout.index_entry;
    file.name_entry_offset = static_cast<u64>(t.name_table) + i * layout.name_entry;
    file.header_size = layout.file_header;
    if (auto s = tables.read_at(file.index_entry_offset, file.index); !s.ok()) return s;
    if (auto s = tables.read_at(file.name_entry_offset, file.name); !s.ok()) return s;
    const IndexEntry& e = file.index;
    if (e.offset > bytes.size() || bytes.size() - e.offset < file.header_size ||
        e.size > bytes.size() - e.offset - file.header_size)
      return table_error(
          file.index_entry_offset,
          absl::StrFormat("data file %s at 0x%x (%s%d bytes) must lie inside the file (%d bytes)",
                          format_id(e.file_id.value, layout.variant), e.offset,
                          layout.file_header != 0 ? absl::StrFormat("%d-byte header + ", layout.file_header) : "",
                          e.size, bytes.size()),
          layout.variant);
    if (file.header_size != 0)
      if (auto s = tables.read_at(e.offset, file.header); !s.ok()) return s;
    archive.files.push_back(std::move(file));
  }
  return absl::OkStatus();
}

// No two data files overlap (headers included).
absl::Status check_no_overlap(const Archive& archive, const TableLayout& layout) {
  std::vector<std::size_t> order(archive.files.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return archive.files[a].index.offset < archive.files[b].index.offset;
  });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const DataFileAt& before = archive.files[order[k - 1]];
    const DataFileAt& after = archive.files[order[k]];
    if (after.index.offset < before.end())
      return table_error(
          after.index_entry_offset,
          absl::StrFormat("data file %s at 0x%x overlaps data file %s at 0x%x..0x%x",
                          format_id(after.index.file_id.value, layout.variant), after.index.offset,
                          format_id(before.index.file_id.value, layout.variant), before.index.offset, before.end()),
          layout.variant);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Archive> read_archive_tables(std::span<const u8> bytes, const InputFile* file) {
  // A file of another kind is said to be one, not reported as a wrong magic at offset 0 (whose hex tells a
  // user nothing).
  u64 magic = 0;
  if (bytes.size() >= sizeof magic) std::memcpy(&magic, bytes.data(), sizeof magic);
  if (magic != ArchiveHeader::kMagic)
    return ForgeError{.reason = "not a .forge archive (it does not begin with \"scimitar\")"}.status();
  Archive archive;
  archive.size = bytes.size();
  TableSource tables(bytes, file);
  // The header runs up to H, which its fixed part states (the declaration checks it against the bytes).
  (void)tables.read_at(0, archive.header, ArchiveHeader::min_wire_size);  // fails on the kept bytes past it
  const u64 stated_h = std::max<u64>(archive.header.first_header, ArchiveHeader::min_wire_size);
  if (auto s = tables.read_at(0, archive.header, stated_h); !s.ok()) return s;
  const u64 h = archive.header.first_header;
  const TableLayout& layout = archive.layout();
  tables.set_variant(layout.variant);
  if (auto s = tables.read_at(h, archive.data_header); !s.ok()) return s;

  // The chain of sections: each inside the file, none reached twice, and no more data files in all than
  // could lie in the file without overlapping (each takes its 440-byte header at least, or in version
  // 27 its index entry), checked before anything is allocated for them.
  const u64 max_files = bytes.size() / std::max(layout.file_header, layout.index_entry);
  absl::flat_hash_set<u64> seen;
  i64 next = archive.data_header.first_section;
  u64 pointer_at = h + layout.first_section_at;  // where the offset of the next section was read
  while (next != TableSection::kLast) {
    if (!table_fits(bytes, next, 1, layout.section))
      return table_error(
          pointer_at,
          absl::StrFormat("table section offset %d must lie inside the file (%d bytes)", next, bytes.size()),
          layout.variant);
    const u64 at = static_cast<u64>(next);
    if (!seen.insert(at).second)
      return table_error(pointer_at, absl::StrFormat("table section 0x%x is reached twice (a cycle of sections)", at),
                         layout.variant);
    SectionAt section{at, {}};
    if (auto s = tables.read_at(at, section.table); !s.ok()) return s;
    const TableSection& t = section.table;
    const u64 count = static_cast<u64>(t.count);
    if (archive.files.size() + count > max_files)
      return table_error(at,
                         absl::StrFormat("count %d: more data files than fit in the file (%d at most)", count,
                                         max_files - archive.files.size()),
                         layout.variant);
    if (!table_fits(bytes, t.index_table, count, layout.index_entry))
      return table_error(
          at + layout.index_table_at,
          absl::StrFormat("index table of %s at %d must lie inside the file", counted(count, "entry"), t.index_table),
          layout.variant);
    if (!table_fits(bytes, t.name_table, count, layout.name_entry))
      return table_error(
          at + layout.name_table_at,
          absl::StrFormat("name table of %s at %d must lie inside the file", counted(count, "entry"), t.name_table),
          layout.variant);
    if (auto s = read_section_entries(bytes, tables, layout, t, archive); !s.ok()) return s;
    archive.sections.push_back(std::move(section));
    pointer_at = at + layout.next_at;
    next = t.next;
  }

  if (auto s = check_no_overlap(archive, layout); !s.ok()) return s;
  return archive;
}

absl::StatusOr<Archive> read_archive(std::span<const u8> bytes, const InputFile* file, std::optional<u8> known_layout) {
  auto archive = read_archive_tables(bytes, file);
  if (archive.ok()) resolve_layout(*archive, known_layout ? *known_layout : detect_layout(bytes, *archive));
  return archive;
}

}  // namespace anvil::forge
