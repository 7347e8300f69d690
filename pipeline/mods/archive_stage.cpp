#include "pipeline/mods/archive_stage.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <set>
#include <span>
#include <string>

#include "codec/checksums.hpp"
#include "model/counted.hpp"
#include "pipeline/folder_output.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {

absl::Status stage_archive(folder::FolderTransaction& txn, folder::FolderLevels& folder,
                           const folder::ArchivePatch& patched, ArchiveUndo& undo, ArchiveRecord& record) {
  auto levels = folder.levels(patched.archive);
  if (!levels.ok()) return levels.status();
  const std::span<const u8> before = folder.input(patched.archive).bytes();
  const forge::Archive& tables = (*levels)->archive();
  std::string temp;
  auto s = folder::stage_patched_archive(
      folder, patched, txn, [&](const InputFile& written, const std::set<std::size_t>& edited) -> absl::Status {
        temp = written.path();
        add_ranges(undo, before, changed_ranges(before, tables, edited, written.bytes()));
        u32 crc = 0;
        written.read_in_pieces(0, written.bytes().size(),
                               [&](std::span<const u8> piece) { crc = codec::crc32(crc, piece); });
        record.crc32 = crc;
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  auto stamp = stamp_of(temp);
  if (!stamp.ok()) return stamp.status();
  record.stamp = *stamp;
  const std::string& name = folder.name(patched.archive);
  return txn.stage(undo_relative(name), encode_undo(undo));
}

std::string archive_written_line(const std::string& name, const folder::ArchivePatch& patched,
                                 const ArchiveUndo& undo) {
  const std::size_t changed = std::max(patched.outcome.edited_datafiles(), patched.replaced_datafiles);
  std::string line = absl::StrFormat("%s: %s changed", name, counted(changed, "data file"));
  if (!patched.added.empty()) line += absl::StrFormat(", %d added", patched.added.size());
  return line + absl::StrFormat(", %s of undo data", counted(undo.stored_bytes(), "byte"));
}

}  // namespace anvil::mods
