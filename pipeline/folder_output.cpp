#include "pipeline/folder_output.hpp"

#include <absl/strings/str_cat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <span>

#include "model/forge/forge_error.hpp"
#include "pipeline/archive_patch_output.hpp"
#include "pipeline/forge_rewrite.hpp"

namespace anvil::folder {

absl::Status stage_patched_archive(FolderLevels& folder, const ArchivePatch& patched, FolderTransaction& txn,
                                   const StagedArchive& staged) {
  auto levels = folder.levels(patched.archive);
  if (!levels.ok()) return levels.status();
  forge::ArchiveLevels& set = **levels;
  const InputFile& input = folder.input(patched.archive);
  auto changes = forge::patched_data_files(set, patched.outcome);
  if (!changes.ok()) return forge::with_archive(changes.status(), input.path());
  forge::ArchiveEdit edit;
  edit.changes = std::move(*changes);
  edit.added = patched.added;
  std::set<std::size_t> edited;
  for (const forge::DataFileChange& c : edit.changes) edited.insert(c.index);
  const forge::ChecksumVerdict& checksums = set.checksums().verdict;
  const std::string& name = folder.name(patched.archive);
  auto s = txn.stage_with(name, [&](std::FILE* file, const std::string& temp) -> absl::Status {
    forge::WrittenRead then;
    if (staged) then = [&](const InputFile& written) { return staged(written, edited); };
    auto report = forge::rewrite_into(input.bytes(), edit, file, temp, txn.path(name), &input, checksums,
                                      set.archive().variant().layout, then);
    return report.ok() ? absl::OkStatus() : report.status();
  });
  // The archive read is the file the staged one replaces: nothing reads it again, and a command that stages
  // several archives would otherwise hold the old and the new of each in the page cache at once.
  namespace fs = std::filesystem;
  if (s.ok() &&
      fs::path(txn.path(name)).lexically_normal() == fs::path(folder.folder().path(patched.archive)).lexically_normal())
    input.forget_cached();
  return s;
}

absl::Status stage_copy(FolderTransaction& txn, const std::string& name, const std::string& from) {
  auto input = InputFile::open(from);
  if (!input.ok()) return input.status();
  const std::span<const u8> bytes = input->bytes();
  return txn.stage_with(name, [&](std::FILE* file, const std::string&) -> absl::Status {
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
      return absl::InternalError(absl::StrCat(txn.path(name), ": cannot write: ", std::strerror(errno)));
    return absl::OkStatus();
  });
}

absl::Status stage_patched_folder(FolderLevels& folder, const FolderPatchOutcome& outcome, FolderTransaction& txn,
                                  bool copy_unchanged) {
  std::vector<bool> edited(folder.size(), false);
  for (const ArchivePatch& a : outcome.archives) {
    if (!a.writes()) continue;
    edited[a.archive] = true;
    if (auto s = stage_patched_archive(folder, a, txn); !s.ok()) return s;
  }
  if (copy_unchanged)
    for (std::size_t a = 0; a < folder.size(); ++a)
      if (!edited[a])
        if (auto s = stage_copy(txn, folder.name(a), folder.folder().path(a)); !s.ok()) return s;
  return absl::OkStatus();
}

}  // namespace anvil::folder
