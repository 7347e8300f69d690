#include "stats/stats_run.hpp"

#include <absl/status/status.h>

#include <algorithm>

#include "model/forge/forge_error.hpp"
#include "model/parallel.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil::stats {
namespace {

// A level file or data file is one job, an archive one job per data file.
struct Job {
  std::size_t input = 0;
  std::size_t datafile = 0;  // archives: index in the archive
  std::string label;         // the census' file list: the path, or "ARCHIVE:NAME" for a data file
};

std::vector<Job> jobs_of(std::span<const StatsInput> inputs) {
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const StatsInput& in = inputs[i];
    if (!in.archive) {
      if (!in.tables_failed) jobs.push_back({i, 0, in.path});
      continue;
    }
    for (std::size_t d = 0; d < in.archive->files.size(); ++d) jobs.push_back({i, d, in.path + ":" + (*in.names)[d]});
  }
  return jobs;
}

struct JobResult {
  StatsStep step;
  Census census;
  bool carved = false;  // at least one object
  // archives: what the data file adds to the archive's summary
  std::string compression;
  u64 stored = 0, decompressed = 0, checked_blocks = 0;
  std::string failure;  // the container check that failed
};

// The jobs of one run: what they share.
class StatsJobs {
 public:
  StatsJobs(std::span<const StatsInput> inputs, const StatsRunOptions& options)
      : inputs_(inputs), options_(options), jobs_(jobs_of(inputs)) {
    for (const StatsInput& in : inputs) total_ += in.bytes.size();
  }

  const std::vector<Job>& jobs() const { return jobs_; }
  // The archive's vote, taken by the first of its data files' jobs.
  const forge::ArchiveChecksums& checksums(std::size_t input) const { return *inputs_[input].archive->checksums(); }

  JobResult run(const Job& job) {
    JobResult r;
    const StatsInput& in = inputs_[job.input];
    r.step.input = job.input;
    r.step.read = in.read;
    if (!in.read) return r;
    if (in.archive) {
      carve_data_file(in, job, r);
      return r;
    }
    Game game = options_.game.value_or(Game::ac2);
    if (!options_.game && in.source.kind == SourceKind::data_file) {
      game = detect_game(in.bytes, in.source);
      r.step.detected = game;
    } else if (!options_.game) {
      r.step.detection = detect(in.bytes);
      game = r.step.detection->game;
    }
    std::size_t reported = 0;  // this file's share of the progress
    r.census.add_file(in.bytes, game, 0, in.source.regions, [&](std::size_t done, std::size_t) {
      progress(done - reported);
      reported = done;
    });
    for (const auto& [g, d] : r.census.dialects) r.carved = r.carved || !d.objects.empty();
    return r;
  }

 private:
  void carve_data_file(const StatsInput& in, const Job& job, JobResult& r) {
    const forge::Archive& archive = *in.archive;
    const std::size_t d = job.datafile;
    r.carved = true;  // a data file of an archive is always counted
    r.stored = archive.files[d].index.size;
    // The vote takes all the command's cores: the other jobs of the archive wait for it.
    const forge::ArchiveChecksums& checksums =
        forge::checksum_rule(in.bytes, archive, {}, std::min(thread_budget(), 1024u));
    auto read = forge::read_data_file(in.bytes, archive, d, checksums.verdict);
    if (!read.ok()) {
      r.failure = std::string(read.status().message());
      if (absl::IsDataLoss(read.status())) r.step.damaged = r.failure;
    } else {
      r.compression = std::string(forge::compression_name(read->decoded.compression));
      r.decompressed = read->decoded.bytes.size();
      r.checked_blocks = read->decoded.checked_blocks;
      auto file = forge::view_data_file(read->decoded.bytes, archive.variant());
      if (!file.ok()) {
        r.failure = std::string(forge::with_data_file(file.status(), forge::data_file_ref(archive, d)).message());
      } else {
        std::vector<Extent> regions;
        for (const forge::BodyAt& b : forge::body_layout(*file))
          if (b.size > 0) regions.push_back({b.offset, b.size});
        r.census.add_file(read->decoded.bytes, in.archive_game, 0, regions);
      }
    }
    progress(r.stored);
  }

  void progress(std::size_t bytes) const {
    if (options_.progress) options_.progress(bytes, total_);
  }

  std::span<const StatsInput> inputs_;
  const StatsRunOptions& options_;
  std::vector<Job> jobs_;
  std::size_t total_ = 0;
};

// Adds a data file's job to its archive's summary.
void add_to_archive(const StatsInput& in, const Job& job, const JobResult& r, const forge::ArchiveChecksums& checksums,
                    Census& c) {
  if (c.archives.empty()) {
    c.archives.emplace_back();
    c.archives.back().path = in.path;
    c.archives.back().names = *in.names;
  }
  Archive& a = c.archives.back();
  a.checksum_rule = checksums.describe();
  ++a.datafiles;
  a.stored_bytes += r.stored;
  if (!r.step.damaged.empty()) return;
  if (!r.failure.empty()) {
    // "offset 0x…: data file 3 'x' (0x…): what": counted by what failed.
    std::string what = r.failure;
    if (auto colon = what.rfind("): "); colon != std::string::npos) what = what.substr(colon + 3);
    NearMisses& n = a.near_misses[what];
    ++n.count;
    if (n.first.size() < NearMisses::kExamples)
      n.first.push_back({job.datafile, in.archive->files[job.datafile].index.offset, ""});
    return;
  }
  ++a.compression[r.compression];
  a.decompressed_bytes += r.decompressed;
  a.checked_blocks += r.checked_blocks;
}

}  // namespace

StatsRun census_of_inputs(std::span<const StatsInput> inputs, const StatsRunOptions& options,
                          const std::function<void(const StatsStep&)>& report) {
  StatsJobs jobs(inputs, options);
  StatsRun run;
  std::vector<Census> censuses(inputs.size());
  for_each_index_in_order<JobResult>(
      jobs.jobs().size(), std::min(thread_budget(), 1024u), [&](std::size_t j) { return jobs.run(jobs.jobs()[j]); },
      [&](std::size_t j, JobResult& r) {
        const Job& job = jobs.jobs()[j];
        const StatsInput& in = inputs[job.input];
        if (!in.read) {
          report(r.step);
          return;
        }
        if (!r.carved && !in.sure) {
          run.skipped.push_back(in.path);
          return;
        }
        r.step.no_objects = !r.carved;
        report(r.step);
        Census& c = censuses[job.input];
        r.census.set_file(run.labels.size());
        run.labels.push_back(job.label);
        c.merge(r.census);
        if (in.archive) add_to_archive(in, job, r, jobs.checksums(job.input), c);
        run.damaged = run.damaged || !r.step.damaged.empty();
      });
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].tables_failed) {
      Archive a;
      a.path = inputs[i].path;
      a.error = "its tables do not read";
      run.census.archives.push_back(a);
      run.unreadable = true;
    }
    run.census.merge(censuses[i]);
  }
  return run;
}

}  // namespace anvil::stats
