// The output of `anvilrt patch` (FORMAT.md sections 5 and 6): the original bytes with the edited objects'
// encodings overlaid, streamed into a temporary file beside the target -- never a whole copy in memory --
// then read back from the file system, proven to be the patched model (check_written), and renamed over
// the target. A failure at any step leaves nothing behind. A target that is not a regular file
// (standard output, a pipe, a device) gets the bytes only once they have been checked (write_patched).
#pragma once

#include <absl/status/status.h>

#include <cstdio>
#include <string>

#include "model/progress.hpp"
#include "patch/patch.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"
#include "platform/replace_file.hpp"

namespace anvil::patch {

// The check made after writing and before the rename: `written` (the output as read back) must carve,
// in the level's dialect, into the same pieces as the original (offsets, lengths, kinds), with every
// edited object parsing to its patched model and every other byte unchanged. The reason when not.
// Left to right, it reports the ranges of `original.bytes` and of `written` it is done with to the
// optional release functions, so that a caller checking mapped files keeps only a window of each in
// memory.
std::optional<std::string> check_written(const Level& original, const PatchResult& result, std::span<const u8> written,
                                         const ReleaseFn& release_original = {}, const ReleaseFn& release_written = {});

// Writes the patched file (level.bytes with result.overlays at their pieces) to `out`, left to right,
// reporting each range of level.bytes it has written to `release_input`. An overlay whose length is not
// its piece's is an internal error; a write error names `name`.
absl::Status stream_patched(const Level& level, const PatchResult& result, std::FILE* out, const std::string& name,
                            const ReleaseFn& release_input = {});

// Streams the patched file into a temporary beside `target`, reads it back (mapped from the file system
// through the temporary's descriptor), runs check_written on it, then renames it over `target`
// (platform/replace_file.hpp: links followed, the mode kept, `options` for --in-place). On error `target` is
// untouched, no temporary remains, and the message is the one line to print ("OUT: cannot write: …",
// "OUT: the written output does not read back as the patched model: …"). When `target` is not a regular
// file, the bytes are streamed into memory instead, read back and checked there, and only then written
// to it: a failed check writes nothing.
// `input`, when given, is the mapped file that level.bytes views: its pages, and those of the output,
// are dropped from memory as the write and the check pass them, so the peak RSS stays near one file
// size (InputFile::release). `progress` hears how far the write and then the check are (two passes of
// the file's size).
absl::Status write_patched(const Level& level, const PatchResult& result, const std::string& target,
                           const InputFile* input = nullptr, const platform::OutputOptions& options = {},
                           const ProgressFn& progress = {});

}  // namespace anvil::patch
