// What uninstalling mods needs of one archive (docs/mods.md): the archive's bytes before any mod, kept
// only where a mod's write changed them, and its length then. An archive is restored by writing those
// bytes back over the modded archive and cutting it to that length; the data files no mod touched are
// never copied (the archive writer copies an untouched data file byte for byte, and a data file that
// grows past its place moves to the end, past the original length).
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <set>
#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"

namespace anvil::mods {

struct UndoRange {
  u64 offset = 0;
  std::vector<u8> original;  // the archive's bytes there before any mod
};

struct ArchiveUndo {
  u64 original_size = 0;
  std::vector<UndoRange> ranges;  // ascending, disjoint, each within original_size

  u64 stored_bytes() const;
};

// The byte ranges [begin, end) where `written` differs from `current` within current's length, looking
// only where a rewrite of the data files `changed` (indices in `archive`, current's tables) may write:
// everywhere but the stored bytes of the other data files. Runs closer than a few bytes are joined.
std::vector<std::pair<u64, u64>> changed_ranges(std::span<const u8> current, const forge::Archive& archive,
                                                const std::set<std::size_t>& changed, std::span<const u8> written);

// Adds to `undo` the bytes of `current` (the archive as it is, whose bytes outside `undo`'s ranges are the
// original's) over `ranges`, where `undo` has none yet.
void add_ranges(ArchiveUndo& undo, std::span<const u8> current, std::span<const std::pair<u64, u64>> ranges);

// The binary form kept under DIR/.anvilrt/mods/undo/ (magic, length, ranges) and its reading; a damaged
// file is an error naming `path`.
std::vector<u8> encode_undo(const ArchiveUndo& undo);
absl::StatusOr<ArchiveUndo> decode_undo(std::span<const u8> bytes, const std::string& path);

// Writes to `out` the archive `modded` (a file) with `undo` applied: its original bytes.
absl::Status restore_original(const std::string& modded, const ArchiveUndo& undo, const std::string& out);

}  // namespace anvil::mods

namespace anvil::mods {
// The undo data of the file `path`.
absl::StatusOr<ArchiveUndo> read_undo_file(const std::string& path);
}  // namespace anvil::mods
