#include "pipeline/dump_run.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "platform/replace_file.hpp"
#include "reader/forge/archive_levels.hpp"

namespace anvil {
namespace {

// The document written to `stream`.
absl::Status write_dump(const DumpRequest& request, std::FILE* stream, std::size_t& objects) {
  // A write error names the output, and a data file that does not read names the input.
  const std::string output_name = request.out.empty() || request.out == "-" ? "standard output" : request.out;
  if (!request.archive) {
    if (dump_json(request.bytes, request.level, stream, request.progress, &objects)) return absl::OkStatus();
    return absl::InternalError(output_name + ": cannot write: " + std::strerror(errno));
  }
  forge::ArchiveLevels levels(request.bytes, *request.archive, request.archive_game, request.selected);
  bool input_failed = false;
  // One data file decompressed at a time, dropped when the next is asked for.
  std::size_t next = 0;
  NextLevel next_level = [&]() -> absl::StatusOr<std::optional<DumpedLevel>> {
    if (next > 0) levels.release(next - 1);
    if (next == levels.size()) return std::nullopt;
    auto data = levels.decompressed(next);
    if (!data.ok()) {
      input_failed = true;
      return data.status();
    }
    return DumpedLevel{levels.name(next++), (*data)->bytes, (*data)->regions};
  };
  if (auto s = dump_datafiles_json(levels.game(), next_level, stream); !s.ok())
    return absl::Status(s.code(), (input_failed ? request.input_path : output_name) + ": " + std::string(s.message()));
  return absl::OkStatus();
}

}  // namespace

DumpRun dump_input(const DumpRequest& request) {
  DumpRun run;
  if (request.out.empty()) {
    run.status = write_dump(request, stdout, run.objects);
    return run;
  }
  platform::AtomicFile output;
  if (run.status = output.open(request.out); !run.status.ok()) return run;
  if (run.status = write_dump(request, output.stream(), run.objects); !run.status.ok()) return run;
  run.status = output.commit();
  return run;
}

}  // namespace anvil
