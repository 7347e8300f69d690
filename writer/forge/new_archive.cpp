#include "writer/forge/new_archive.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <limits>

#include "writer/byte_writer.hpp"
#include "writer/encode.hpp"

namespace anvil::forge {
namespace {

u64 align_up(u64 at, u64 alignment) { return (at + alignment - 1) / alignment * alignment; }

}  // namespace

DataFileHeader default_data_file_header(std::span<const u8> name) {
  DataFileHeader header;
  std::copy_n(name.begin(), std::min(name.size(), header.name.bytes.size()), header.name.bytes.begin());
  return header;
}

NewArchiveWriter::NewArchiveWriter(NewArchiveHead head, std::size_t files, ByteSink& out)
    : head_(std::move(head)), files_(files), out_(&out) {}

absl::StatusOr<NewArchiveWriter> NewArchiveWriter::open(NewArchiveHead head, std::size_t files, ByteSink& out) {
  if (!ForgeVariant::known(head.header.version))
    return absl::InvalidArgumentError(
        absl::StrFormat("archive version %d: only %s are written", head.header.version, all_known_versions()));
  if (head.alignment == 0 || (head.alignment & (head.alignment - 1)) != 0 || head.alignment > (u64{1} << 30))
    return absl::InvalidArgumentError(
        absl::StrFormat("the alignment %d is not a power of two up to 2^30", head.alignment));
  if (files > static_cast<u64>(std::numeric_limits<i32>::max()))
    return absl::InvalidArgumentError(absl::StrFormat("%d data files do not fit a table section's count", files));
  if (head.sections.empty()) {
    TableSection all;
    all.count = static_cast<i32>(files);
    head.sections.push_back(all);
  }
  u64 listed = 0;
  for (const TableSection& s : head.sections) {
    if (s.count < 0)
      return absl::InvalidArgumentError(absl::StrFormat("a table section counts %d data files", s.count));
    listed += static_cast<u64>(s.count);
  }
  if (listed != files)
    return absl::InvalidArgumentError(absl::StrFormat("the table sections list %d data files, not %d", listed, files));
  NewArchiveWriter w(std::move(head), files, out);
  // The header's H follows from its kept bytes (ArchiveHeader::serialize derives it when saving).
  w.layout_.first_header = ArchiveHeader::min_wire_size + w.head_.header.unknown_1.bytes.size();
  const TableLayout& tables = TableLayout::of({w.head_.header.version});
  u64 at = w.layout_.first_header + tables.data_header;
  for (const TableSection& s : w.head_.sections) {
    w.layout_.sections.push_back(at);
    at += tables.section + static_cast<u64>(s.count) * (tables.index_entry + tables.name_entry);
  }
  w.end_ = at;
  w.index_.reserve(files);
  w.names_.reserve(files);
  return w;
}

absl::Status NewArchiveWriter::add(const NewDataFile& file, std::span<const u8> stored) {
  const std::size_t i = index_.size();
  if (i >= files_) return absl::InvalidArgumentError(absl::StrFormat("more data files than the %d announced", files_));
  if (stored.size() > std::numeric_limits<u32>::max())
    return absl::InvalidArgumentError(
        absl::StrFormat("data file %d: %d stored bytes do not fit a u32 size", i, stored.size()));
  const u64 header_at = align_up(end_ + file.gap, head_.alignment);
  if (header_at > end_) {
    std::vector<u8> fill(header_at - end_, file.padding);
    if (auto s = out_->write_at(end_, fill); !s.ok()) return s;
  }
  const TableLayout& tables = TableLayout::of({head_.header.version});
  if (!tables.variant.wide_ids() && file.file_id > std::numeric_limits<u32>::max())
    return absl::InvalidArgumentError(
        absl::StrFormat("data file %d: the id 0x%x does not fit the 32 bits of archive version %d", i, file.file_id,
                        head_.header.version));
  const unsigned version = tables.variant.code();
  if (tables.file_header != 0)
    if (auto s = out_->write_at(header_at, encoded(file.header, version)); !s.ok()) return s;
  if (auto s = out_->write_at(header_at + tables.file_header, stored); !s.ok()) return s;
  end_ = header_at + tables.file_header + stored.size();
  IndexEntry index;
  index.offset = header_at;
  index.file_id.value = file.file_id;
  index.size = static_cast<u32>(stored.size());
  NameEntry name = file.name;
  name.raw_size = file.raw_size.value_or(index.size);
  index_.push_back(index);
  names_.push_back(name);
  layout_.header_offsets.push_back(header_at);
  layout_.stored_sizes.push_back(stored.size());
  return absl::OkStatus();
}

absl::StatusOr<NewArchiveLayout> NewArchiveWriter::finish(u64 trailing, u8 padding) {
  if (index_.size() != files_)
    return absl::InvalidArgumentError(
        absl::StrFormat("%d data files given, not the %d announced", index_.size(), files_));
  if (trailing > 0) {
    std::vector<u8> fill(trailing, padding);
    if (auto s = out_->write_at(end_, fill); !s.ok()) return s;
    end_ += trailing;
  }
  const TableLayout& tables = TableLayout::of({head_.header.version});
  const unsigned version = tables.variant.code();
  if (auto s = out_->write_at(0, encoded(head_.header, version)); !s.ok()) return s;
  DataHeader data_header = head_.data_header;
  data_header.first_section = static_cast<i64>(layout_.sections.front());
  if (auto s = out_->write_at(layout_.first_header, encoded(data_header, version)); !s.ok()) return s;
  std::size_t next_file = 0;
  for (std::size_t k = 0; k < head_.sections.size(); ++k) {
    const u64 at = layout_.sections[k], count = static_cast<u64>(head_.sections[k].count);
    TableSection table = head_.sections[k];  // its count and kept runs; the offsets laid out here
    table.index_table = static_cast<i64>(at + tables.section);
    table.name_table = static_cast<i64>(at + tables.section + count * tables.index_entry);
    table.next = k + 1 < head_.sections.size() ? static_cast<i64>(layout_.sections[k + 1]) : TableSection::kLast;
    if (auto st = out_->write_at(at, encoded(table, version)); !st.ok()) return st;
    for (std::size_t j = 0; j < count; ++j, ++next_file) {
      const u64 index_at = static_cast<u64>(table.index_table) + j * tables.index_entry;
      const u64 name_at = static_cast<u64>(table.name_table) + j * tables.name_entry;
      if (auto st = out_->write_at(index_at, encoded(index_[next_file], version)); !st.ok()) return st;
      if (auto st = out_->write_at(name_at, encoded(names_[next_file], version)); !st.ok()) return st;
    }
  }
  layout_.size = end_;
  return layout_;
}

NewArchiveHead head_of(const Archive& archive, u64 alignment) {
  NewArchiveHead head;
  head.header = archive.header;
  head.data_header = archive.data_header;
  for (const SectionAt& s : archive.sections) head.sections.push_back(s.table);
  head.alignment = alignment;
  return head;
}

}  // namespace anvil::forge
