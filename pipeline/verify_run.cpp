#include "pipeline/verify_run.hpp"

#include <algorithm>

#include "model/parallel.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil {
namespace {

// One job: a level or data file, an archive's tables, or one data file of an archive.
struct Job {
  static constexpr std::size_t kTables = static_cast<std::size_t>(-1);
  std::size_t input = 0;
  std::size_t datafile = kTables;
};

std::vector<Job> jobs_of(std::span<const VerifyInput> inputs) {
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    jobs.push_back({i, Job::kTables});
    if (inputs[i].archive)
      for (std::size_t d = 0; d < inputs[i].archive->files.size(); ++d) jobs.push_back({i, d});
  }
  return jobs;
}

// The jobs of one run: what they share.
class VerifyJobs {
 public:
  VerifyJobs(std::span<const VerifyInput> inputs, const VerifyRunOptions& options)
      : inputs_(inputs), options_(options), jobs_(jobs_of(inputs)) {
    for (const VerifyInput& in : inputs) total_ += in.bytes.size();
    // Cores left over when there are fewer jobs than cores go to each job's objects (one large file).
    per_job_ = static_cast<unsigned>(std::clamp<u64>(threads() / std::max<std::size_t>(jobs_.size(), 1), 1, 1024));
  }

  static unsigned threads() { return std::min(thread_budget(), 1024u); }
  const std::vector<Job>& jobs() const { return jobs_; }
  // The archive's rule once its data files' jobs voted it (none voted for an archive without data files).
  const forge::ChecksumVerdict& verdict(std::size_t input) const {
    static const forge::ArchiveChecksums kNotVoted;
    const forge::ArchiveChecksums* voted = inputs_[input].archive->checksums();
    return (voted != nullptr ? *voted : kNotVoted).verdict;
  }

  VerifyStep run(const Job& job) {
    const VerifyInput& in = inputs_[job.input];
    VerifyStep step;
    step.input = job.input;
    step.datafile = job.datafile;
    if (!in.read) return step;
    if (in.tables_failed) {
      step.kind = VerifyStep::Kind::tables_failed;
      return step;
    }
    forge::VerifyOptions v{in.archive ? in.archive_game : Game::ac2, options_.json, options_.recompress, per_job_};
    if (in.archive && job.datafile == Job::kTables) {
      step.kind = VerifyStep::Kind::archive_tables;
      step.tables = forge::verify_tables(in.bytes, *in.archive);
    } else if (in.archive) {
      step.kind = VerifyStep::Kind::archive_data_file;
      // The vote takes all the command's cores: the other jobs of the archive wait for it.
      const forge::ArchiveChecksums& checksums = forge::checksum_rule(in.bytes, *in.archive, {}, threads());
      step.verified = forge::verify_data_file(in.bytes, *in.archive, job.datafile, v, checksums.verdict);
      progress(in.archive->files[job.datafile].index.size);
    } else if (in.source.kind == SourceKind::data_file) {
      step.kind = VerifyStep::Kind::data_file;
      step.game_detected = !options_.game;
      step.game = options_.game ? *options_.game : detect_game(in.bytes, in.source);
      v.game = step.game;
      step.verified = forge::verify_decompressed(in.bytes, v);
      progress(in.bytes.size());
    } else {
      step.kind = VerifyStep::Kind::level_file;
      if (!options_.game) step.detection = detect(in.bytes);
      step.game = options_.game ? *options_.game : step.detection->game;
      std::size_t reported = 0;  // this file's share of the progress
      step.report = verify_bytes(
          in.bytes, step.game, options_.json,
          [&](std::size_t done, std::size_t) {
            progress(done - reported);
            reported = done;
          },
          per_job_);
    }
    return step;
  }

 private:
  void progress(std::size_t bytes) const {
    if (options_.progress) options_.progress(bytes, total_);
  }

  std::span<const VerifyInput> inputs_;
  const VerifyRunOptions& options_;
  std::vector<Job> jobs_;
  std::size_t total_ = 0;
  unsigned per_job_ = 1;
};

// What the steps add up to, as they are reported in order.
class VerifyCount {
 public:
  VerifyCount(std::span<const VerifyInput> inputs, const VerifyJobs& jobs)
      : inputs_(inputs), jobs_(jobs), tallies_(inputs.size()) {}

  // Counts `step`; false when it is not to be reported (a file skipped).
  bool count(VerifyStep& step) {
    const VerifyInput& in = inputs_[step.input];
    switch (step.kind) {
      case VerifyStep::Kind::not_read:
        return true;
      case VerifyStep::Kind::tables_failed:
        ++totals_.unreadable;
        return true;
      case VerifyStep::Kind::archive_tables:
        tallies_[step.input].tables_identical = !step.tables.first_difference;
        if (in.archive->files.empty()) finish(step);
        return true;
      case VerifyStep::Kind::archive_data_file:
        count_data_file(step);
        return true;
      case VerifyStep::Kind::data_file:
      case VerifyStep::Kind::level_file:
        return count_file(step, in);
    }
    return true;
  }
  VerifyTotals& totals() { return totals_; }

 private:
  bool count_file(VerifyStep& step, const VerifyInput& in) {
    const bool data_file = step.kind == VerifyStep::Kind::data_file;
    const bool none = data_file ? step.verified.objects.objects == 0 && step.verified.identical()
                                : step.report.objects == 0 && step.report.identical();
    if (none && !in.sure) {
      totals_.skipped.push_back(in.path);
      return false;
    }
    step.no_objects = none;
    if (data_file && !step.verified.error.empty())
      ++totals_.unreadable;
    else
      (data_file ? step.verified.identical() : step.report.identical()) ? ++totals_.identical : ++totals_.different;
    return true;
  }

  void count_data_file(VerifyStep& step) {
    ArchiveVerifyTally& t = tallies_[step.input];
    const forge::DataFileVerify& v = step.verified;
    ++t.datafiles;
    t.identical += v.identical();
    t.unreadable += !v.error.empty();
    for (const auto& [c, rc] : v.recompressed) {
      t.recompressed[c].blocks += rc.blocks;
      t.recompressed[c].identical += rc.identical;
    }
    if (step.datafile + 1 == inputs_[step.input].archive->files.size()) finish(step);
  }

  void finish(VerifyStep& step) {
    ArchiveVerifyTally& t = tallies_[step.input];
    t.verdict = jobs_.verdict(step.input);
    const bool ok = t.tables_identical && t.identical == t.datafiles;
    if (t.unreadable > 0)
      ++totals_.unreadable;
    else
      ok ? ++totals_.identical : ++totals_.different;
    step.finished = &t;
  }

  std::span<const VerifyInput> inputs_;
  const VerifyJobs& jobs_;
  std::vector<ArchiveVerifyTally> tallies_;
  VerifyTotals totals_;
};

}  // namespace

VerifyTotals verify_inputs(std::span<const VerifyInput> inputs, const VerifyRunOptions& options,
                           const std::function<void(const VerifyStep&)>& report) {
  VerifyJobs jobs(inputs, options);
  VerifyCount count(inputs, jobs);
  for_each_index_in_order<VerifyStep>(
      jobs.jobs().size(), VerifyJobs::threads(), [&](std::size_t j) { return jobs.run(jobs.jobs()[j]); },
      [&](std::size_t, VerifyStep& step) {
        if (count.count(step)) report(step);
      });
  return std::move(count.totals());
}

}  // namespace anvil
