#include "writer/forge/archive_writer.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "model/forge/forge_error.hpp"
#include "platform/file_stream.hpp"
#include "writer/byte_writer.hpp"
#include "writer/encode.hpp"
#include "writer/forge/repack.hpp"

namespace anvil::forge {
namespace {

// A structure the writer re-encodes over the original bytes, by its archive range.
struct Written {
  u64 begin = 0;
  u64 end = 0;
  std::string what;
  std::optional<std::size_t> file = std::nullopt;  // the data file whose header or stored bytes these are
};

bool overlaps(u64 begin, u64 end, const Written& w) { return begin < w.end && w.begin < end; }

// Every data file's stored bytes, by its range: a rewrite must change none but those it replaces.
std::vector<Written> stored_ranges(const Archive& archive) {
  std::vector<Written> out;
  for (std::size_t i = 0; i < archive.files.size(); ++i)
    out.push_back({archive.files[i].stored_offset(), archive.files[i].end(),
                   absl::StrFormat("data file %d's stored bytes", i), i});
  return out;
}

// Every table and data file header of the archive, by its range: the writer re-encodes each one.
std::vector<Written> table_ranges(const Archive& archive) {
  const TableLayout& layout = archive.layout();
  std::vector<Written> out{
      {0, archive.header.first_header, "the archive header"},
      {archive.header.first_header, archive.header.first_header + layout.data_header, "the file-data header"}};
  for (const SectionAt& s : archive.sections)
    out.push_back({s.offset, s.offset + layout.section, absl::StrFormat("table section 0x%x", s.offset)});
  for (std::size_t i = 0; i < archive.files.size(); ++i) {
    const DataFileAt& f = archive.files[i];
    out.push_back({f.index_entry_offset, f.index_entry_offset + archive.layout().index_entry,
                   absl::StrFormat("data file %d's index entry", i)});
    out.push_back({f.name_entry_offset, f.name_entry_offset + archive.layout().name_entry,
                   absl::StrFormat("data file %d's name entry", i)});
    out.push_back({f.index.offset, f.stored_offset(), absl::StrFormat("data file %d's header", i), i});
  }
  return out;
}

// A hostile archive may lay a table over a data file's bytes, or two entries over each other: reading
// is then still exact (the same bytes serve both), but a change to one would be undone by the writing
// of the other, or would change a data file no edit touched. Such a change is refused: the bytes a
// replaced data file occupies, and its index and name entries (which change with its size), must not
// overlap any other structure the writer writes, nor another data file's stored bytes.
// A replacement whose stored bytes are the original's (a round trip) changes nothing and is not checked.
absl::Status check_no_overlap(std::span<const u8> original, const Archive& archive, std::span<const Written> tables,
                              std::span<const Replacement> replacements, std::span<const std::vector<u8>> stored) {
  std::vector<Written> others(tables.begin(), tables.end());
  for (const Written& w : stored_ranges(archive)) others.push_back(w);
  for (std::size_t k = 0; k < replacements.size(); ++k) {
    const Replacement& r = replacements[k];
    const DataFileAt& f = archive.files[r.index];
    if (std::ranges::equal(stored[k], original.subspan(f.stored_offset(), f.index.size))) continue;
    const Written changing[] = {
        {f.stored_offset(), f.end(), "its stored bytes"},
        {f.index_entry_offset, f.index_entry_offset + archive.layout().index_entry, "its index entry"},
        {f.name_entry_offset, f.name_entry_offset + archive.layout().name_entry, "its name entry"}};
    for (const Written& c : changing)
      for (const Written& t : others) {
        if (t.begin == c.begin && t.end == c.end) continue;  // the entry itself, or its own stored bytes
        if (overlaps(c.begin, c.end, t))
          return ForgeError{.code = absl::StatusCode::kFailedPrecondition,
                            .offset = std::max(c.begin, t.begin),
                            .data_file = data_file_ref(archive, r.index),
                            .reason = absl::StrFormat("%s (0x%x..0x%x) and %s (0x%x..0x%x) overlap, so a change to "
                                                      "one would undo the other; anvilrt does not rewrite such an "
                                                      "archive",
                                                      c.what, c.begin, c.end, t.what, t.begin, t.end),
                            .read_as = read_as_version(archive.variant())}
              .status();
      }
  }
  return absl::OkStatus();
}

// Where the old place of data file `index` ends: at the first structure or other data file that starts at or
// after its end (its own header aside; a table with no extent inside it does not count); at its own start
// when a structure or another data file's stored bytes lie across that start (an empty data file inside
// them has no room of its own). Nothing when nothing follows it.
std::optional<u64> room_end(const DataFileAt& old, std::size_t index, std::span<const Written> tables,
                            std::span<const Written> stored) {
  const u64 at = old.stored_offset();
  std::optional<u64> end;
  for (std::span<const Written> list : {tables, stored})
    for (const Written& w : list) {
      if (w.file == index) continue;
      if (w.begin <= at && at < w.end) return at;
      if (w.begin >= old.end()) end = std::min(end.value_or(w.begin), w.begin);
    }
  return end;
}

}  // namespace

absl::Status VectorSink::write_at(u64 offset, std::span<const u8> bytes) {
  if (bytes_.size() < offset + bytes.size()) bytes_.resize(offset + bytes.size());
  std::copy(bytes.begin(), bytes.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(offset));
  return absl::OkStatus();
}

absl::Status FileSink::write_at(u64 offset, std::span<const u8> bytes) {
  if (!platform::seek(file_, offset) || std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    failure_ = absl::InternalError(absl::StrFormat("cannot write at offset 0x%x: %s", offset, std::strerror(errno)));
    return failure_;
  }
  return absl::OkStatus();
}

absl::Status FileSink::prepare(std::span<const u8> original) {
  if (source_ == nullptr) return absl::OkStatus();
  if (auto s = write_original(original); !s.ok()) return s;
  // On a thread of its own: starting the write-back blocks while the disk's queue is full. A failure
  // here is met again by the final fsync.
  writeback_ = std::jthread([file = file_] { platform::sync_data(file); });
  prepared_ = true;
  return absl::OkStatus();
}

absl::Status FileSink::write_original(std::span<const u8> original) {
  if (prepared_) return absl::OkStatus();
  // Where the kernel cannot copy (another file system, no such call), the bytes in memory are written.
  if (source_ != nullptr && source_->copy_to(file_, original.size())) {
    copied_by_kernel_ = true;
    return absl::OkStatus();
  }
  return write_at(0, original);
}

u64 data_file_alignment(const Archive& archive) {
  u64 alignment = u64{1} << 16;
  for (const DataFileAt& f : archive.files)
    while (alignment > 1 && f.index.offset % alignment != 0) alignment /= 2;
  return archive.files.empty() ? 1 : alignment;
}

namespace {
// A table section whose list would change but whose bytes another structure shares.
absl::Status section_shares_bytes(u64 offset, std::size_t section, ForgeVariant variant) {
  return ForgeError{.code = absl::StatusCode::kFailedPrecondition,
                    .offset = offset,
                    .reason = absl::StrFormat("table section %d, or its index or name table, shares bytes with "
                                              "another structure, so changing its list would change that one; "
                                              "anvilrt does not rewrite such an archive",
                                              section),
                    .read_as = read_as_version(variant)}
      .status();
}

// One write of an archive, in its steps: the changes checked, the replaced data files placed, the added ones
// appended, every table re-encoded at its place, then the headers.
class ArchiveWrite {
 public:
  ArchiveWrite(std::span<const u8> original, const Archive& archive, ByteSink& out)
      : original_(original),
        archive_(archive),
        layout_(archive.layout()),
        version_(layout_.variant.code()),
        out_(out),
        updated_(archive),
        tables_(table_ranges(archive)),
        stored_bytes_(stored_ranges(archive)),
        alignment_(data_file_alignment(archive)),
        end_(original.size()),
        removed_(archive.files.size(), false),
        header_written_(archive.files.size(), false) {}

  absl::Status check(std::span<const Replacement> replacements, const TableChanges& changes);
  absl::Status place(std::span<const Replacement> replacements);
  absl::Status append(const TableChanges& changes);
  absl::Status rewrite_tables();
  absl::Status write_headers();
  std::vector<Placement> placements() && { return std::move(placements_); }
  TableReport report() && { return std::move(report_); }

 private:
  absl::Status place_one(const Replacement& r, const std::vector<u8>& stored);
  absl::Status fill(u64 to, u8 padding);
  bool free_room(u64 begin, u64 stop) const;
  bool shares_bytes(u64 begin, u64 stop, u64 entry_size) const;
  absl::Status place_table(i64& table, u64 was, u64 now, u64 entry_size, bool& moved);

  std::span<const u8> original_;
  const Archive& archive_;
  const TableLayout& layout_;
  const unsigned version_;
  ByteSink& out_;
  Archive updated_;
  const std::vector<Written> tables_, stored_bytes_;
  const u64 alignment_;
  u64 end_;
  std::vector<bool> removed_, header_written_;
  std::vector<std::vector<u8>> stored_forms_;
  // The new extents of data files rewritten where they were: a table that grows must not grow into them
  // (an empty section's tables have no extent of their own, and may lie in a data file's room).
  std::vector<Written> written_in_place_;
  std::vector<Placement> placements_;
  // The data files each section lists: the kept ones in their order, then the added ones in the last.
  std::vector<std::vector<DataFileAt>> listed_;
  // Where a table that grows may not grow into: what the archive holds, and each table placed.
  std::vector<Written> occupied_;
  TableReport report_;
};

absl::Status ArchiveWrite::check(std::span<const Replacement> replacements, const TableChanges& changes) {
  for (std::size_t i : changes.removed) {
    if (i >= archive_.files.size()) return absl::InvalidArgumentError(absl::StrFormat("no data file %d", i));
    removed_[i] = true;
  }
  for (const Replacement& r : replacements) {
    if (r.index >= archive_.files.size())
      return absl::InvalidArgumentError(absl::StrFormat("no data file %d", r.index));
    if (removed_[r.index])
      return absl::InvalidArgumentError(absl::StrFormat("data file %d is both replaced and removed", r.index));
    stored_forms_.push_back(encode_stored(r.stored));
  }
  if (!changes.added.empty() && archive_.sections.empty())
    return absl::FailedPreconditionError("the archive has no table section to list a new data file in");
  for (const AppendedDataFile& f : changes.added)
    if (!layout_.variant.wide_ids() && f.file_id > std::numeric_limits<u32>::max())
      return absl::InvalidArgumentError(
          absl::StrFormat("the new data file '%s': the id 0x%x does not fit the 32 bits of archive version %d",
                          printable_name(f.name), f.file_id, layout_.variant.archive));
  for (const AppendedDataFile& f : changes.added)
    if (f.name.size() > kDataFileNameSize)
      return absl::InvalidArgumentError(
          absl::StrFormat("the name '%s' has %d bytes; a data file's name holds at most %d", printable_name(f.name),
                          f.name.size(), kDataFileNameSize));
  if (auto s = check_no_overlap(original_, archive_, tables_, replacements, stored_forms_); !s.ok()) return s;
  return out_.write_original(original_);
}

// Padding from the end written so far up to `to`.
absl::Status ArchiveWrite::fill(u64 to, u8 padding) {
  if (to <= end_) return absl::OkStatus();
  std::vector<u8> bytes(to - end_, padding);
  return out_.write_at(end_, bytes);
}

absl::Status ArchiveWrite::place(std::span<const Replacement> replacements) {
  for (std::size_t k = 0; k < replacements.size(); ++k)
    if (auto s = place_one(replacements[k], stored_forms_[k]); !s.ok()) return s;
  return absl::OkStatus();
}

absl::Status ArchiveWrite::place_one(const Replacement& r, const std::vector<u8>& stored) {
  const DataFileAt& old = archive_.files[r.index];
  DataFileAt& now = updated_.files[r.index];
  if (stored.size() > std::numeric_limits<u32>::max())
    return absl::InvalidArgumentError(
        absl::StrFormat("data file %d: %d stored bytes do not fit a u32 size", r.index, stored.size()));
  // The old place: up to the next structure (or the end of the file), padded with the byte after it.
  const std::optional<u64> next = room_end(old, r.index, tables_, stored_bytes_);
  const u64 room = next.value_or(original_.size());
  const u8 padding = old.end() < room ? original_[old.end()] : 0;
  Placement placement{r.index, false, old.index.offset, stored.size()};
  // The archive's last structure grows in place, and the file with it (unless something was appended
  // already): nothing lies after it to move out of the way.
  const bool last = !next && end_ == original_.size() && old.end() <= original_.size();
  // Its own old bytes always take it back (a round trip writes each data file where it was).
  if (last || stored.size() <= old.index.size || stored.size() <= room - old.stored_offset()) {
    written_in_place_.push_back({old.stored_offset(), old.stored_offset() + stored.size(), "a data file rewritten"});
    if (auto s = out_.write_at(old.stored_offset(), stored); !s.ok()) return s;
    end_ = std::max<u64>(end_, old.stored_offset() + stored.size());
    if (stored.size() < old.index.size) {
      std::vector<u8> padding_bytes(old.index.size - stored.size(), padding);
      if (auto s = out_.write_at(old.stored_offset() + stored.size(), padding_bytes); !s.ok()) return s;
    }
  } else {
    const u64 at = (end_ + alignment_ - 1) / alignment_ * alignment_;
    if (auto s = fill(at, padding); !s.ok()) return s;
    placement.moved = true;
    placement.header_offset = at;
    header_written_[r.index] = true;
    if (old.header_size != 0)
      if (auto s = out_.write_at(at, encoded(old.header, version_)); !s.ok()) return s;
    if (auto s = out_.write_at(at + old.header_size, stored); !s.ok()) return s;
    end_ = at + old.header_size + stored.size();
  }
  if (now.name.raw_size == old.index.size) now.name.raw_size = static_cast<u32>(stored.size());
  now.index.offset = placement.header_offset;
  now.index.size = static_cast<u32>(stored.size());
  placements_.push_back(placement);
  return absl::OkStatus();
}

absl::Status ArchiveWrite::append(const TableChanges& changes) {
  listed_.assign(updated_.sections.size(), {});
  for (std::size_t i = 0; i < updated_.files.size(); ++i)
    if (!removed_[i]) listed_[updated_.files[i].section].push_back(updated_.files[i]);
  std::size_t new_index = 0;
  for (const auto& l : listed_) new_index += l.size();
  for (const AppendedDataFile& add : changes.added) {
    std::vector<u8> stored = encode_stored(add.stored);
    if (stored.size() > std::numeric_limits<u32>::max())
      return absl::InvalidArgumentError(absl::StrFormat("the new data file '%s': %d stored bytes do not fit a u32 size",
                                                        printable_name(add.name), stored.size()));
    DataFileAt f;
    f.section = updated_.sections.size() - 1;
    const u64 at = (end_ + alignment_ - 1) / alignment_ * alignment_;
    if (auto s = fill(at, 0); !s.ok()) return s;
    std::copy(add.name.begin(), add.name.end(), f.header.name.bytes.begin());
    f.name.name = f.header.name;
    f.name.file_type.value = add.file_type;
    f.name.raw_size = static_cast<u32>(stored.size());
    f.index = {at, {add.file_id}, static_cast<u32>(stored.size())};
    f.header_size = layout_.file_header;
    if (f.header_size != 0)
      if (auto s = out_.write_at(at, encoded(f.header, version_)); !s.ok()) return s;
    if (auto s = out_.write_at(at + f.header_size, stored); !s.ok()) return s;
    end_ = at + f.header_size + stored.size();
    report_.added.push_back({new_index++, true, at, stored.size()});
    listed_.back().push_back(std::move(f));
  }
  return absl::OkStatus();
}

bool ArchiveWrite::free_room(u64 begin, u64 stop) const {
  if (stop > original_.size()) return false;
  return std::none_of(occupied_.begin(), occupied_.end(), [&](const Written& w) { return overlaps(begin, stop, w); });
}

// A section whose list changes rewrites its tables whole: they must not share a byte with another structure
// (a hostile archive may lay two sections' tables over each other, or a table over a data file's stored
// bytes), which would change with them.
bool ArchiveWrite::shares_bytes(u64 begin, u64 stop, u64 entry_size) const {
  if (std::any_of(stored_bytes_.begin(), stored_bytes_.end(),
                  [&](const Written& w) { return overlaps(begin, stop, w); }))
    return true;
  for (const Written& w : tables_) {
    if (!overlaps(begin, stop, w)) continue;
    const bool own_slot = w.end - w.begin == entry_size && w.begin >= begin && (w.begin - begin) % entry_size == 0;
    const auto same = std::count_if(tables_.begin(), tables_.end(),
                                    [&](const Written& o) { return o.begin == w.begin && o.end == w.end; });
    if (!own_slot || same != 1) return true;
  }
  return false;
}

// A table that grows keeps its place when the room after it is free; otherwise it moves to the end. Each
// table placed is occupied for the ones placed after it: a section's index and name tables may start at the
// same offset when it lists nothing, and must not grow into each other.
absl::Status ArchiveWrite::place_table(i64& table, u64 was, u64 now, u64 entry_size, bool& moved) {
  const u64 begin = static_cast<u64>(table);
  if (now <= was || free_room(begin + was * entry_size, begin + now * entry_size)) {
    occupied_.push_back({begin, begin + now * entry_size, "a table written"});
    if (now < was) {
      std::vector<u8> zeros((was - now) * entry_size, 0);
      return out_.write_at(begin + now * entry_size, zeros);
    }
    return absl::OkStatus();
  }
  const u64 at = (end_ + 15) / 16 * 16;
  if (auto s = fill(at, 0); !s.ok()) return s;
  table = static_cast<i64>(at);
  end_ = at + now * entry_size;
  moved = true;
  return absl::OkStatus();
}

// Every table re-encoded from its fields, at its place.
absl::Status ArchiveWrite::rewrite_tables() {
  occupied_ = tables_;
  occupied_.insert(occupied_.end(), stored_bytes_.begin(), stored_bytes_.end());
  occupied_.insert(occupied_.end(), written_in_place_.begin(), written_in_place_.end());
  for (std::size_t s_i = 0; s_i < updated_.sections.size(); ++s_i) {
    TableSection& t = updated_.sections[s_i].table;
    const u64 was = static_cast<u64>(t.count), now = listed_[s_i].size();
    const bool relisted =
        now != was || std::any_of(archive_.files.begin(), archive_.files.end(), [&](const DataFileAt& f) {
          return f.section == s_i && removed_[&f - archive_.files.data()];
        });
    // The section itself changes with its list (its count, its tables' offsets).
    const u64 section_at = updated_.sections[s_i].offset;
    if (relisted && (shares_bytes(section_at, section_at + layout_.section, layout_.section) ||
                     shares_bytes(static_cast<u64>(t.index_table),
                                  static_cast<u64>(t.index_table) + was * layout_.index_entry, layout_.index_entry) ||
                     shares_bytes(static_cast<u64>(t.name_table),
                                  static_cast<u64>(t.name_table) + was * layout_.name_entry, layout_.name_entry)))
      return section_shares_bytes(section_at, s_i, archive_.variant());
    if (now > static_cast<u64>(std::numeric_limits<i32>::max()))
      return absl::InvalidArgumentError("a table section cannot count that many data files");
    if (auto s = place_table(t.index_table, was, now, layout_.index_entry, report_.index_table_moved); !s.ok())
      return s;
    if (auto s = place_table(t.name_table, was, now, layout_.name_entry, report_.name_table_moved); !s.ok()) return s;
    t.count = static_cast<i32>(now);
    std::vector<u8> index_table, name_table;
    for (const DataFileAt& f : listed_[s_i]) {
      std::vector<u8> i_bytes = encoded(f.index, version_), n_bytes = encoded(f.name, version_);
      index_table.insert(index_table.end(), i_bytes.begin(), i_bytes.end());
      name_table.insert(name_table.end(), n_bytes.begin(), n_bytes.end());
    }
    if (auto s = out_.write_at(static_cast<u64>(t.index_table), index_table); !s.ok()) return s;
    if (auto s = out_.write_at(static_cast<u64>(t.name_table), name_table); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ArchiveWrite::write_headers() {
  if (auto s = out_.write_at(0, encoded(updated_.header, version_)); !s.ok()) return s;
  if (auto s = out_.write_at(updated_.header.first_header, encoded(updated_.data_header, version_)); !s.ok()) return s;
  for (const SectionAt& section : updated_.sections)
    if (auto s = out_.write_at(section.offset, encoded(section.table, version_)); !s.ok()) return s;
  for (std::size_t i = 0; i < updated_.files.size(); ++i) {
    // a moved data file's header was written at its new place; its old one stays as it was, and so does a
    // removed one's
    if (!header_written_[i] && !removed_[i] && updated_.files[i].header_size != 0)
      if (auto s = out_.write_at(updated_.files[i].index.offset, encoded(updated_.files[i].header, version_)); !s.ok())
        return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<Placement>> write_archive(std::span<const u8> original, const Archive& archive,
                                                     std::span<const Replacement> replacements, ByteSink& out,
                                                     const TableChanges& changes, TableReport* report) {
  ArchiveWrite write(original, archive, out);
  if (auto s = write.check(replacements, changes); !s.ok()) return s;
  if (auto s = write.place(replacements); !s.ok()) return s;
  if (auto s = write.append(changes); !s.ok()) return s;
  if (auto s = write.rewrite_tables(); !s.ok()) return s;
  if (auto s = write.write_headers(); !s.ok()) return s;
  if (report) *report = std::move(write).report();
  return std::move(write).placements();
}

}  // namespace anvil::forge
