// The one place an archive's variant is decided (FORGE.md 7): its version from its header, its data-file
// layout named by the user (--layout) or found by content, the dialect its objects are read in (--game,
// or found by content with `auto`), and its checksum rule (FORGE.md 2), voted by its blocks when a command
// first needs it. Readers, writers, diff and pack then take the archive's variant as
// resolved here (Archive::variant()); detection tries a layout by passing a candidate variant to the read
// functions as a value (reader/forge/data_files.hpp), never by changing the archive.
#pragma once

#include <absl/status/statusor.h>

#include <functional>
#include <optional>
#include <span>

#include "model/forge/archive.hpp"
#include "model/object.hpp"
#include "reader/input_file.hpp"

namespace anvil::forge {

// What the user named for an archive, and whether the rest is found now.
struct VariantChoice {
  std::optional<u8> layout;  // --layout; nothing: found by content
  std::optional<Game> game;  // --game NAME; nothing: `auto`, found by content
  // Leave what is not named to the command, which finds it from the data files it reads (diff, which may
  // read none): finding it here decompresses one.
  bool deferred = false;
};

// An archive's tables with its variant resolved, and its dialect (nothing when `auto` was deferred).
struct OpenedArchive {
  Archive archive;
  std::optional<Game> game;
};

// Reads the archive's tables (read_archive_tables()) and resolves what `choice` names or, unless deferred,
// finds by content: the layout by detect_layout(), the dialect by detect_archive_game(), both from the same
// data file when both are found (resolve_game()).
absl::StatusOr<OpenedArchive> open_archive(std::span<const u8> bytes, const InputFile* file,
                                           const VariantChoice& choice);

// The archive's checksum rule and each data file's vote (Archive::checksums()): voted over every block
// (archive_checksums(), on `threads` threads; `done` hears each stored span once read) by the first caller,
// which any other waits for; later calls return the same without reading a byte. Only a command that checks
// blocks calls it: the vote decompresses every block when no rule over the stored bytes wins.
const ArchiveChecksums& checksum_rule(std::span<const u8> bytes, const Archive& archive,
                                      const std::function<void(u64 offset, u64 size)>& done = {}, unsigned threads = 1);

// The dialect of the archive's data files (detect_archive_game()). When its layout is not resolved yet, it is
// found first (detect_layout(), which sets it) and the data file that told it decompressed once for both.
Game resolve_game(std::span<const u8> bytes, Archive& archive);

}  // namespace anvil::forge
