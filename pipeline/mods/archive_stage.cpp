#include "pipeline/mods/archive_stage.hpp"

#include <set>
#include <span>
#include <string>

#include "codec/checksums.hpp"
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

}  // namespace anvil::mods
