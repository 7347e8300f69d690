#include "pipeline/file_patch_run.hpp"

#include "model/progress.hpp"
#include "pipeline/data_file_patch.hpp"
#include "pipeline/patch_output.hpp"
#include "reader/level.hpp"

namespace anvil::patch {

FilePatchRun patch_file(InputFile& input, const Source& source, Game game, const FilePatchRequest& request) {
  const std::size_t size = input.bytes().size();
  auto from_pass = [&](std::size_t pass) -> ProgressFn {
    if (!request.progress) return {};
    return [&request, pass, size](std::size_t done, std::size_t) { request.progress(pass * size + done, 3 * size); };
  };
  // The input's pages leave memory as the carve passes them; the patch reads again only the objects it
  // looks at.
  Level level = source.kind == SourceKind::level_file ? carve_mapped(input, game, from_pass(0))
                                                      : carve_source(input.bytes(), source, game);
  if (level.object_count() == 0 && request.no_objects) request.no_objects();
  PatchOptions patch_options;
  patch_options.record_changes = request.dry_run;
  patch_options.release_input = [&](std::size_t offset, std::size_t length) { input.release(offset, length); };
  FilePatchRun run;
  run.outcome = apply_patch_text(level, request.text, patch_options);
  if (run.outcome.error || request.dry_run) return run;
  const PatchResult& result = run.outcome.result;
  // An object of a data file that changed size shifts the rest of it (FORGE.md 5): the data file is
  // written whole, its entry's sizes following.
  if (source.kind == SourceKind::data_file && resizes(level, result)) {
    run.written = write_patched_data_file(level, result, request.out, request.output_options, source.variant);
    return run;
  }
  // OUT may be FILE: the input stays mapped from the file it was, and the new one replaces it only at the end.
  run.written = write_patched(level, result, request.out, &input, request.output_options, from_pass(1));
  return run;
}

}  // namespace anvil::patch
