#include "pipeline/mods/archive_stage.hpp"

#include <absl/strings/str_cat.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "pipeline/archive_patch_output.hpp"
#include "pipeline/forge_rewrite.hpp"

namespace anvil::mods {

absl::Status stage_archive(folder::FolderTransaction& txn, folder::FolderLevels& folder,
                           const folder::ArchivePatch& patched, ArchiveUndo& undo, ArchiveRecord& record) {
  auto levels = folder.levels(patched.archive);
  if (!levels.ok()) return levels.status();
  forge::ArchiveLevels& set = **levels;
  const InputFile& input = folder.input(patched.archive);
  auto changes = forge::patched_data_files(set, patched.outcome);
  if (!changes.ok())
    return absl::Status(changes.status().code(), absl::StrCat(input.path(), ": ", changes.status().message()));
  forge::ArchiveEdit edit;
  edit.changes = std::move(*changes);
  std::set<std::size_t> changed;
  for (const forge::DataFileChange& c : edit.changes) changed.insert(c.index);
  const std::string& name = folder.name(patched.archive);
  std::string temp;
  auto s = txn.stage_with(name, [&](std::FILE* file, const std::string& temp_path) -> absl::Status {
    temp = temp_path;
    auto report = forge::rewrite_into(input.bytes(), edit, file, temp_path, txn.path(name), &input,
                                      set.checksums().verdict, set.archive().data_layout);
    if (!report.ok()) return report.status();
    auto written = InputFile::open(temp_path);
    if (!written.ok()) return written.status();
    add_ranges(undo, input.bytes(), changed_ranges(input.bytes(), set.archive(), changed, written->bytes()));
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  auto stamp = stamp_of(temp);
  if (!stamp.ok()) return stamp.status();
  record.stamp = *stamp;
  const std::vector<u8> undo_bytes = encode_undo(undo);
  return txn.stage(undo_relative(name), undo_bytes);
}

absl::Status stage_copy(folder::FolderTransaction& txn, const std::string& name, const std::string& from) {
  auto input = InputFile::open(from);
  if (!input.ok()) return input.status();
  const std::span<const u8> bytes = input->bytes();
  return txn.stage_with(name, [&](std::FILE* file, const std::string&) -> absl::Status {
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
      return absl::InternalError(absl::StrCat(txn.path(name), ": cannot write: ", std::strerror(errno)));
    return absl::OkStatus();
  });
}

}  // namespace anvil::mods
