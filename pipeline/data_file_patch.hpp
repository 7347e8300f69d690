// A patched decompressed data file whose objects changed size (FORGE.md 5): inside a data file the sizes
// of the container around an object are known, so an object may grow or shrink there. The body that
// holds it grows or shrinks by the same d bytes, that entry's `file_size` and `data_size` both change by
// d, and every other byte keeps its value (shifted by the growth before it). A patch that keeps every
// size is written by pipeline/patch_output.hpp (the overlays in place); this is the resizing path, for a
// data file given on its own (`anvilrt patch DATAFILE`) and for each data file of an archive patch.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/forge/variant.hpp"
#include "patch/patch.hpp"
#include "reader/level.hpp"
#include "platform/replace_file.hpp"

namespace anvil::patch {

// Whether the patch changed the size of an object of `level`.
bool resizes(const Level& level, const PatchResult& result);

// The data file `level` was carved from (level.bytes, carved in its bodies) with the patch's edited
// objects in place. Errors (one line): level.bytes do not read as a data file, an edited object lies
// outside every body, an entry's size would leave the u32 range.
// `variant`: the archive version and data-file layout it is read in (FORGE.md 7).
absl::StatusOr<std::vector<u8>> patched_data_file(const Level& level, const PatchResult& result,
                                                  forge::ForgeVariant variant = {});

// The read-back check of `written` against the data file it was patched from: its entry table reads, with
// the same entries, each body where the growth before it puts it and of its size plus the growth inside
// it, each entry's `data_size` changed by that same growth; carved in its bodies, it gives the original's
// pieces (shifted, the edited ones of their new length), every edited object parsing to its patched
// model and every other piece's bytes, and every byte outside the bodies other than those size fields,
// unchanged. The reason when not.
std::optional<std::string> check_patched_data_file(const Level& level, const PatchResult& result,
                                                   std::span<const u8> written, forge::ForgeVariant variant = {});

// patched_data_file() written to `target` atomically: a temporary, read back from the file system and
// checked by check_patched_data_file(), then renamed (platform/replace_file.hpp); a target that is not a
// regular file gets the bytes once they are checked in memory. On error nothing is left behind and the
// message is the one line to print, naming `target`.
absl::Status write_patched_data_file(const Level& level, const PatchResult& result, const std::string& target,
                                     const platform::OutputOptions& options = {}, forge::ForgeVariant variant = {});

}  // namespace anvil::patch
