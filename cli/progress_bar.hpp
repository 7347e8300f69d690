// The progress bar of long jobs: on standard error, only when it is a terminal and the command is not
// --quiet, from one second into the job (ANVILRT_PROGRESS_DELAY seconds when set, as git's
// GIT_PROGRESS_DELAY: 0 draws the bar of any job, which is how a test sees it on a short one), redrawn at most 10 times
// a second, erased when the job ends. The library reports progress through a ProgressFn (model/progress.hpp); this
// draws it.
#pragma once

#include <atomic>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>

#include "model/progress.hpp"

namespace anvil::cli {

// One line of the bar, `width` columns at most:
// "verify [#######.........]  45%  123.4 MB of 270.0 MB  52.1 MB/s  0:03 left".
std::string format_progress(const std::string& label, std::size_t done, std::size_t total, double seconds,
                            std::size_t width);

// Whether to draw a bar on `fd`: it is a terminal and the command is not --quiet.
bool progress_wanted(bool quiet, int fd);

// Erases the bar being drawn, if any: error() and warning() call it before they print.
void erase_progress();

class ProgressBar {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic

  static constexpr double kDelay = 1.0;     // no bar for jobs shorter than this (by default)
  static constexpr double kInterval = 0.1;  // between two drawings

  // Draws on stderr when it is a terminal and not `quiet`; otherwise draws nothing.
  ProgressBar(std::string label, bool quiet);
  // Draws on `out` when `enabled` (for tests: a fake clock and a fixed width), from `delay` seconds on.
  ProgressBar(std::string label, bool enabled, std::FILE* out, Clock clock, std::size_t width, double delay = kDelay);
  ~ProgressBar();  // erases the bar
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  bool enabled() const { return enabled_; }
  // The job has done `done` of `total` bytes; draws when due. Any thread may call it.
  void update(std::size_t done, std::size_t total);
  // Adds to what is done of a fixed total (several files at once, each reporting its own progress).
  void add(std::size_t bytes, std::size_t total) { update(done_ += bytes, total); }
  // A ProgressFn for the library that draws on this bar.
  ProgressFn callback();
  // Erases the bar if it was drawn (before printing a result line).
  void erase();

 private:
  std::string label_;
  bool enabled_;
  std::FILE* out_;
  Clock clock_;
  std::size_t width_;
  double delay_;
  double start_;
  double last_drawn_ = -1;
  bool shown_ = false;
  std::atomic<std::size_t> done_{0};
  std::mutex mutex_;
};

}  // namespace anvil::cli
