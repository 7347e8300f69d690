// `patch` of a level file or a decompressed data file: carved (a level file's pages dropped as the carve
// passes them), the patch applied all or nothing (patch/patch.hpp), and, unless a dry run, the result
// written: a data file whose objects changed size whole, its entries' sizes following (FORGE.md 5),
// anything else streamed into a temporary, read back, checked and renamed (pipeline/patch_output.hpp).
#pragma once

#include <absl/status/status.h>

#include <functional>
#include <string>
#include <string_view>

#include "model/object.hpp"
#include "patch/patch.hpp"
#include "platform/replace_file.hpp"
#include "reader/input_file.hpp"
#include "reader/level_source.hpp"

namespace anvil::patch {

struct FilePatchRequest {
  std::string_view text;  // the patch: a JSON array of operations
  bool dry_run = false;   // apply, record the changes and write nothing
  std::string out;        // where the patched file goes (may be the input's path)
  platform::OutputOptions output_options;
  // Hears how far the whole is, over three passes of the file (the carve, the write, the check of what was
  // written); empty: nobody listens, and the passes do not count.
  std::function<void(std::size_t done, std::size_t total)> progress;
  // Called when the file carves no object, before the patch is applied.
  std::function<void()> no_objects;
};

struct FilePatchRun {
  PatchOutcome outcome;  // outcome.error: the patch failed, nothing written
  absl::Status written;  // the write failed (one line naming the output), when not a dry run
};

FilePatchRun patch_file(InputFile& input, const Source& source, Game game, const FilePatchRequest& request);

}  // namespace anvil::patch
