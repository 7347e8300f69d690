#include "pipeline/forge_rewrite.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "model/forge/forge_error.hpp"
#include "platform/replace_file.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/variant_resolver.hpp"
#include "reader/input_file.hpp"

namespace anvil::forge {
namespace {

bool same(std::span<const u8> a, std::span<const u8> b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

std::span<const u8> stored_bytes(std::span<const u8> bytes, const DataFileAt& f) {
  return bytes.subspan(f.stored_offset(), f.index.size);
}

}  // namespace

absl::StatusOr<std::vector<u8>> round_trip(std::span<const u8> bytes) {
  auto archive = read_archive(bytes);
  if (!archive.ok()) return archive.status();
  std::vector<Replacement> all;
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    auto stored = read_stored(bytes, *archive, i);
    if (!stored.ok()) return stored.status();
    all.push_back({i, std::move(*stored)});
    // Written in place, the same size: one data file's model at a time is enough, but the writer takes
    // them together; a round trip holds the archive's stored forms, as the archive itself is in memory.
  }
  VectorSink out;
  auto placed = write_archive(bytes, *archive, all, out);
  if (!placed.ok()) return placed.status();
  return std::move(out.bytes());
}

absl::StatusOr<std::vector<ChangeReport>> rewrite(std::span<const u8> bytes, std::span<const DataFileChange> changes,
                                                  ByteSink& out, const InputFile* input,
                                                  const ChecksumVerdict* checksums) {
  ArchiveEdit edit;
  edit.changes.assign(changes.begin(), changes.end());
  auto report = rewrite(bytes, edit, out, input, checksums);
  if (!report.ok()) return report.status();
  return std::move(report->changes);
}

namespace {

// What rewrite()'s steps share: the archive read, and its checksum rule once a step needs it.
struct RewriteContext {
  std::span<const u8> bytes;
  const Archive& archive;
  const InputFile* input;
  bool mapped;  // `bytes` are input's mapping, whose pages may be released once read
  const ChecksumVerdict* given;
  std::optional<ChecksumVerdict> found{};

  void release(u64 offset, u64 size) const {
    if (mapped) input->release(offset, size);
  }
  // The rule blocks are checked and given checksums by: the one given, else voted when first `needed`.
  const ChecksumVerdict& verdict(bool needed) {
    static const ChecksumVerdict kNone{};
    if (given) return *given;
    if (needed && !found)
      found = checksum_rule(bytes, archive, [this](u64 offset, u64 size) { release(offset, size); }).verdict;
    return found ? *found : kNone;
  }
};

// A changed data file re-packed: its unchanged blocks kept, its changed ones re-compressed by the rule.
absl::StatusOr<Replacement> repacked(RewriteContext& c, const DataFileChange& change, ChangeReport& report) {
  const Archive& archive = c.archive;
  if (change.index >= archive.files.size())
    return absl::InvalidArgumentError(
        absl::StrFormat("no data file %d (the archive has %d)", change.index, archive.files.size()));
  // Copied, not skimmed: repack() keeps the unchanged blocks' bytes.
  auto stored = read_stored(c.bytes, archive, change.index);
  if (!stored.ok()) return stored.status();
  // Copied: the mapped pages it was read from leave this process's memory (a large data file is then
  // held once, not twice).
  c.release(archive.files[change.index].stored_offset(), archive.files[change.index].index.size);
  const ChecksumVerdict& verdict = c.verdict(stored->compressed);
  // FORGE.md 2: without a rule, the blocks' checksums are not understood, and no block is changed.
  if (stored->compressed && verdict.blocks > 0 && !verdict.rule)
    return ForgeError{.code = absl::StatusCode::kFailedPrecondition,
                      .data_file = data_file_ref(archive, change.index),
                      .reason = "the archive's checksum rule is " + verdict.describe() +
                                ", so a compressed data file cannot be changed",
                      .read_as = read_as(stored->variant)}
        .status();
  auto decoded = decode(*stored, archive.files[change.index].stored_offset(), verdict);
  if (!decoded.ok()) return with_data_file(decoded.status(), data_file_ref(archive, change.index));
  report.index = change.index;
  auto packed = repack(std::move(*stored), decoded->bytes, change.decoded, verdict, &report.blocks);
  if (!packed.ok()) return with_data_file(packed.status(), data_file_ref(archive, change.index));
  return Replacement{change.index, std::move(*packed)};
}

// The new data files, each stored as the archive's first compressed data file is (its checksum rule voted),
// or plain.
absl::Status add_new(RewriteContext& c, const ArchiveEdit& edit, TableChanges& tables,
                     std::vector<RepackReport>& added_blocks) {
  const Archive& archive = c.archive;
  std::optional<StoredDataFile> like;
  for (std::size_t i = 0; i < archive.files.size() && !like; ++i) {
    if (std::find(edit.removed.begin(), edit.removed.end(), i) != edit.removed.end()) continue;
    auto stored = read_stored(c.bytes, archive, i);
    if (stored.ok() && stored->compressed) like = std::move(*stored);
  }
  const ChecksumVerdict& verdict = c.verdict(like.has_value());
  StoredDataFile plain;  // in the archive's layout (FORGE.md 7)
  plain.variant = archive.variant();
  for (const DataFileAddition& add : edit.added) {
    RepackReport blocks;
    auto stored = pack_like(like && !add.plain ? *like : plain, add.decoded, verdict, &blocks);
    if (!stored.ok())
      return absl::Status(stored.status().code(), absl::StrCat("the new data file '", printable_name(add.name),
                                                               "': ", stored.status().message()));
    tables.added.push_back({add.name, add.file_id, add.file_type, std::move(*stored)});
    added_blocks.push_back(blocks);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<EditReport> rewrite(std::span<const u8> bytes, const ArchiveEdit& edit, ByteSink& out,
                                   const InputFile* input, const ChecksumVerdict* checksums, std::optional<u8> layout) {
  auto archive = read_archive(bytes, input, layout);
  if (!archive.ok()) return archive.status();
  RewriteContext context{bytes, *archive, input, input && input->bytes().data() == bytes.data(), checksums};
  std::vector<Replacement> replacements;
  std::vector<ChangeReport> reports;
  for (const DataFileChange& change : edit.changes) {
    ChangeReport report;
    auto replacement = repacked(context, change, report);
    if (!replacement.ok()) return replacement.status();
    replacements.push_back(std::move(*replacement));
    reports.push_back(report);
  }
  for (std::size_t i : edit.removed)
    if (i >= archive->files.size())
      return absl::InvalidArgumentError(
          absl::StrFormat("no data file %d (the archive has %d)", i, archive->files.size()));
  TableChanges tables;
  tables.removed = edit.removed;
  std::vector<RepackReport> added_blocks;
  if (!edit.added.empty())
    if (auto s = add_new(context, edit, tables, added_blocks); !s.ok()) return s;
  TableReport table_report;
  auto placed = write_archive(bytes, *archive, replacements, out, tables, &table_report);
  if (!placed.ok()) return placed.status();
  for (std::size_t i = 0; i < reports.size(); ++i) reports[i].placement = (*placed)[i];
  EditReport report;
  report.changes = std::move(reports);
  for (std::size_t i = 0; i < table_report.added.size(); ++i)
    report.added.push_back({table_report.added[i].index, added_blocks[i], table_report.added[i]});
  report.index_table_moved = table_report.index_table_moved;
  report.name_table_moved = table_report.name_table_moved;
  return report;
}

absl::Status check_rewrite(std::span<const u8> original, std::span<const u8> written,
                           std::span<const DataFileChange> changes, bool untouched_copied,
                           const InputFile* original_file, const InputFile* written_file,
                           const ChecksumVerdict& checksums) {
  ArchiveEdit edit;
  edit.changes.assign(changes.begin(), changes.end());
  return check_rewrite(original, written, edit, untouched_copied, original_file, written_file, checksums);
}

namespace {
// How a data file read back differs from the bytes written: its size, or the first byte that differs.
std::string differs_from(std::span<const u8> read, std::span<const u8> wanted) {
  if (read.size() != wanted.size())
    return absl::StrFormat("decompresses to %d bytes, not the %d written", read.size(), wanted.size());
  const auto at = std::ranges::mismatch(read, wanted).in1 - read.begin();
  return absl::StrFormat("does not decompress to the new bytes (decompressed offset 0x%x differs)", at);
}
}  // namespace

absl::Status check_rewrite(std::span<const u8> original, std::span<const u8> written, const ArchiveEdit& edit,
                           bool untouched_copied, const InputFile* original_file, const InputFile* written_file,
                           const ChecksumVerdict& checksums, std::optional<u8> layout) {
  std::span<const DataFileChange> changes = edit.changes;
  auto before = read_archive(original, original_file, layout);
  if (!before.ok()) return before.status();
  // Written in the original's data-file layout: read back in it, whatever the content would suggest (FORGE.md 7:
  // an archive of raw data files may read in more than one).
  auto after = read_archive(written, written_file, before->variant().layout);
  if (!after.ok())
    return absl::InternalError("the written archive does not read back: " +
                               after.status().ToString(absl::StatusToStringMode::kWithNoExtraData));
  std::vector<bool> removed(before->files.size(), false);
  for (std::size_t i : edit.removed)
    if (i < removed.size()) removed[i] = true;
  const std::size_t kept = static_cast<std::size_t>(std::count(removed.begin(), removed.end(), false));
  if (after->files.size() != kept + edit.added.size())
    return absl::InternalError(absl::StrFormat("the written archive lists %d data files, not %d", after->files.size(),
                                               kept + edit.added.size()));
  std::size_t j = 0;  // the data file in the written archive
  for (std::size_t i = 0; i < before->files.size(); ++i) {
    if (removed[i]) continue;
    const DataFileAt& a = before->files[i];
    const DataFileAt& b = after->files[j];
    auto change = std::find_if(changes.begin(), changes.end(), [&](const DataFileChange& c) { return c.index == i; });
    if (a.index.file_id.value != b.index.file_id.value || a.name.name.bytes != b.name.name.bytes ||
        a.name.file_type.value != b.name.file_type.value)
      return absl::InternalError(data_file_label(*after, j) + ": its entries are not those of " +
                                 data_file_label(*before, i));
    if (change == changes.end()) {
      // Its header as read with the tables (no page of the mappings is touched for it).
      bool same_place = a.index.offset == b.index.offset && a.index.size == b.index.size &&
                        a.header.name.bytes == b.header.name.bytes &&
                        a.header.unknown.bytes == b.header.unknown.bytes &&
                        (untouched_copied || same(stored_bytes(original, a), stored_bytes(written, b)));
      if (!same_place) return absl::InternalError(data_file_label(*after, j) + ": changed although no edit touched it");
    } else {
      auto read = read_data_file(written, *after, j, checksums);
      if (!read.ok())
        return absl::InternalError("the written archive: " +
                                   read.status().ToString(absl::StatusToStringMode::kWithNoExtraData));
      if (!std::ranges::equal(read->decoded.bytes, change->decoded))
        return absl::InternalError(data_file_label(*after, j) + ": " +
                                   differs_from(read->decoded.bytes, change->decoded));
    }
    ++j;
  }
  for (const DataFileAddition& add : edit.added) {
    const DataFileAt& b = after->files[j];
    if (data_file_name(b) != add.name || b.index.file_id.value != add.file_id ||
        b.name.file_type.value != add.file_type)
      return absl::InternalError(data_file_label(*after, j) + ": is not listed as the new data file '" +
                                 printable_name(add.name) + "'");
    auto read = read_data_file(written, *after, j, checksums);
    if (!read.ok())
      return absl::InternalError("the written archive: " +
                                 read.status().ToString(absl::StatusToStringMode::kWithNoExtraData));
    if (!std::ranges::equal(read->decoded.bytes, add.decoded))
      return absl::InternalError(data_file_label(*after, j) + ": " + differs_from(read->decoded.bytes, add.decoded));
    ++j;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ChangeReport>> rewrite_file(std::span<const u8> bytes,
                                                       std::span<const DataFileChange> changes,
                                                       const std::string& target,
                                                       const platform::OutputOptions& options, const InputFile* input,
                                                       const ChecksumVerdict* checksums, std::optional<u8> layout) {
  ArchiveEdit edit;
  edit.changes.assign(changes.begin(), changes.end());
  auto report = rewrite_file(bytes, edit, target, options, input, checksums, layout);
  if (!report.ok()) return report.status();
  return std::move(report->changes);
}

absl::StatusOr<EditReport> rewrite_file(std::span<const u8> bytes, const ArchiveEdit& edit, const std::string& target,
                                        const platform::OutputOptions& options, const InputFile* input,
                                        const ChecksumVerdict* checksums, std::optional<u8> layout) {
  // What the archive's content refuses names the archive; a failed write names the output, with the
  // system's reason.
  auto in_archive = [&](const absl::Status& s) { return input ? with_archive(s, input->path()) : s; };
  // The written archive failing its check is the output's fault (the input read before).
  auto in_output = [&](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat(target, ": ", s.message()));
  };
  auto cannot_write = [&] {
    return absl::InternalError(absl::StrCat(target, ": cannot write: ", std::strerror(errno)));
  };
  // The rule the changed blocks are given checksums by is the one their read-back is checked against.
  std::optional<ChecksumVerdict> found;
  if (!checksums) {
    auto archive = read_archive(bytes, input, layout);
    if (!archive.ok()) return in_archive(archive.status());
    layout = archive->variant().layout;
    const bool mapped = input && input->bytes().data() == bytes.data();
    found = checksum_rule(bytes, *archive, [&](u64 offset, u64 size) {
              if (mapped) input->release(offset, size);
            }).verdict;
    checksums = &*found;
  }
  platform::AtomicFile file;
  if (auto s = file.open(target, options); !s.ok()) return s;
  if (!file.to_temporary()) {
    // A device, FIFO or standard output: nothing to read back, so the archive is made and checked in
    // memory first, then written as it is.
    VectorSink memory;
    auto reports = rewrite(bytes, edit, memory, nullptr, checksums, layout);
    if (!reports.ok()) return in_archive(reports.status());
    if (auto s = check_rewrite(bytes, memory.bytes(), edit, false, nullptr, nullptr, *checksums, layout); !s.ok())
      return in_output(s);
    if (!memory.bytes().empty() &&
        std::fwrite(memory.bytes().data(), 1, memory.bytes().size(), file.stream()) != memory.bytes().size())
      return cannot_write();
    if (auto s = file.commit(); !s.ok()) return s;
    return reports;
  }
  auto reports = rewrite_into(bytes, edit, file.stream(), file.temp_path(), target, input, *checksums, layout);
  if (!reports.ok()) return reports.status();
  if (auto s = file.commit(); !s.ok()) return s;
  return reports;
}

absl::StatusOr<EditReport> rewrite_into(std::span<const u8> bytes, const ArchiveEdit& edit, std::FILE* file,
                                        const std::string& path, const std::string& target, const InputFile* input,
                                        const ChecksumVerdict& checksums, std::optional<u8> layout,
                                        const WrittenRead& then) {
  auto in_archive = [&](const absl::Status& s) { return input ? with_archive(s, input->path()) : s; };
  auto in_output = [&](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat(target, ": ", s.message()));
  };
  const bool mapped_input = input && input->source() != nullptr && input->bytes().data() == bytes.data();
  FileSink sink(file, mapped_input ? input->source() : nullptr);
  if (auto s = sink.prepare(bytes); !s.ok()) return in_output(s);
  auto reports = rewrite(bytes, edit, sink, input, &checksums, layout);
  if (!sink.failure().ok()) return in_output(sink.failure());
  if (!reports.ok()) return in_archive(reports.status());
  if (std::fflush(file) != 0)
    return absl::InternalError(absl::StrCat(target, ": cannot write: ", std::strerror(errno)));
  auto written = InputFile::open(path);
  if (!written.ok()) return written.status();
  if (auto s = check_rewrite(bytes, written->bytes(), edit, sink.copied_by_kernel(), mapped_input ? input : nullptr,
                             &*written, checksums, layout);
      !s.ok())
    return in_output(s);
  if (then)
    if (auto s = then(*written); !s.ok()) return s;
  return reports;  // the sink's write-back thread is joined here
}

}  // namespace anvil::forge
