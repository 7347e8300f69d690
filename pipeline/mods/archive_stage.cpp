#include "pipeline/mods/archive_stage.hpp"

#include <absl/strings/str_cat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

#include "pipeline/archive_patch_output.hpp"
#include "pipeline/forge_rewrite.hpp"

namespace anvil::mods {

absl::Status write_edited(FolderArchive& archive, const patch::ArchivePatchOutcome& outcome, std::FILE* file,
                          const std::string& temp_path, ArchiveUndo& undo) {
  auto changes = forge::patched_data_files(*archive.levels, outcome);
  if (!changes.ok())
    return absl::Status(changes.status().code(), absl::StrCat(archive.path, ": ", changes.status().message()));
  forge::ArchiveEdit edit;
  edit.changes = std::move(*changes);
  std::set<std::size_t> changed;
  for (const forge::DataFileChange& c : edit.changes) changed.insert(c.index);
  const std::span<const u8> bytes = archive.input->bytes();
  const forge::ChecksumVerdict& verdict = archive.levels->checksums().verdict;
  const u8 layout = archive.archive->data_layout;
  forge::FileSink sink(file, archive.input->fd());
  auto report = forge::rewrite(bytes, edit, sink, archive.input.get(), &verdict, layout);
  if (!sink.failure().ok()) return absl::InternalError(absl::StrCat(temp_path, ": ", sink.failure().message()));
  if (!report.ok()) return absl::Status(report.status().code(), absl::StrCat(archive.path, ": ", report.status().message()));
  if (std::fflush(file) != 0) return absl::InternalError(absl::StrCat(temp_path, ": cannot write: ", std::strerror(errno)));
  auto written = InputFile::open(temp_path);
  if (!written.ok()) return written.status();
  if (auto s = forge::check_rewrite(bytes, written->bytes(), edit, sink.copied_by_kernel(), archive.input.get(),
                                    &*written, verdict, layout);
      !s.ok())
    return absl::Status(s.code(), absl::StrCat(temp_path, ": ", s.message()));
  const auto ranges = changed_ranges(bytes, *archive.archive, changed, written->bytes());
  add_ranges(undo, bytes, ranges);
  return absl::OkStatus();
}

absl::Status copy_into(const std::string& from, std::FILE* file, const std::string& temp_path) {
  std::ifstream in(from, std::ios::binary);
  if (!in) return absl::InternalError(absl::StrCat(from, ": cannot read"));
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got != 0 && std::fwrite(buffer.data(), 1, got, file) != got)
      return absl::InternalError(absl::StrCat(temp_path, ": cannot write: ", std::strerror(errno)));
  }
  if (!in.eof()) return absl::InternalError(absl::StrCat(from, ": cannot read"));
  if (std::fflush(file) != 0) return absl::InternalError(absl::StrCat(temp_path, ": cannot write: ", std::strerror(errno)));
  return absl::OkStatus();
}

}  // namespace anvil::mods
