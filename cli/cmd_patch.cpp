// anvilrt patch FILE PATCH.json (-o OUT | --in-place) [--dry-run] [--game ac2|sws|auto] [-q] [-v]
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "patch/output.hpp"
#include "patch/patch.hpp"

namespace anvil::cli {

int run_patch(int argc, char** argv) {
  std::string file, patch_path, out, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("output,o", po::value(&out), "write the patched file to OUT (atomically)")(
      "in-place", "replace FILE itself (atomically)")("dry-run", "print what each operation changes and write nothing")(
      "file", po::value(&file)->required(), "the level file")("patch", po::value(&patch_path)->required(),
                                                              "the patch: a JSON array of operations");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt patch FILE PATCH (-o OUT | --in-place | --dry-run) [--game ac2|sws|auto] [-q] [-v]\n\n"
             "Applies the patch (FORMAT.md section 5) all or nothing: any failing operation aborts it and\n"
             "nothing is written. The output is read back and checked before it replaces the target.\n"
             "Exit 0: applied; 1: a test failed or a bulk operation matched nothing; 2: bad input.",
             options, {{"file", "FILE"}, {"patch", "PATCH"}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  bool dry_run = vm.count("dry-run") > 0;
  bool in_place = vm.count("in-place") > 0;
  const char* usage = " (usage: anvilrt patch FILE PATCH (-o OUT | --in-place | --dry-run))";
  if (in_place && !out.empty()) {
    error(std::string("give either -o OUT or --in-place, not both") + usage);
    return kBadInput;
  }
  if (!dry_run && !in_place && out.empty()) {
    error(std::string("missing -o OUT, --in-place or --dry-run") + usage);
    return kBadInput;
  }
  if (in_place) out = file;

  PathErrors path_errors;
  auto input = open_input(file, path_errors);
  if (!input) return kBadInput;
  auto patch_file = open_input(patch_path, path_errors);
  if (!patch_file) return kBadInput;
  Game game = resolve_game(game_option, input->bytes(), file, common);
  // Progress over three passes of the file: the carve, the write and the check of what was written.
  ProgressBar bar("patch", common.quiet);
  const std::size_t size = input->bytes().size();
  auto from_pass = [&](std::size_t pass) -> ProgressFn {
    if (!bar.enabled()) return {};
    return [&bar, pass, size](std::size_t done, std::size_t) { bar.update(pass * size + done, 3 * size); };
  };
  // The input's pages leave memory as the carve passes them; the patch reads again only the objects it
  // looks at.
  Level level = carve_mapped(*input, game, from_pass(0));
  if (level.object_count() == 0) {
    bar.erase();
    warn_no_objects(file, game_option);
  }
  auto text = patch_file->bytes();
  patch::PatchOptions patch_options;
  patch_options.record_changes = dry_run;
  patch_options.release_input = [&](std::size_t offset, std::size_t length) { input->release(offset, length); };
  patch::PatchOutcome outcome =
      patch::apply_patch_text(level, {reinterpret_cast<const char*>(text.data()), text.size()}, patch_options);
  if (outcome.error) {
    error(patch_path + ": " + outcome.error->message());
    return outcome.error->exit_code;
  }
  const patch::PatchResult& result = outcome.result;

  if (dry_run) {
    bar.erase();
    for (const patch::Change& c : result.changes) {
      if (c.op == "test")
        std::cout << absl::StrFormat("op %d test %s: %s (passed)\n", c.op_index, c.pointer, c.old_value);
      else
        std::cout << absl::StrFormat("op %d %s %s: %s -> %s\n", c.op_index, c.op, c.pointer,
                                     c.old_value.empty() ? "(nothing)" : c.old_value,
                                     c.new_value.empty() ? "(nothing)" : c.new_value);
    }
    std::cout << absl::StrFormat("dry run: %d objects would change; nothing written\n", result.edited.size());
    return kOk;
  }

  // Streamed into a temporary, read back and checked, then renamed (patch/output.hpp); the input's pages
  // are dropped from memory as they are written.
  if (auto s = patch::write_patched(level, result, out, &*input, from_pass(1)); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  return kOk;
}

}  // namespace anvil::cli
