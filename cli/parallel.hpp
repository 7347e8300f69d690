// Running a command's per-file jobs on all cores while reporting in file order, and the progress line
// that long jobs show on a terminal.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace anvil::cli {

// Runs job(i) for every i < n on up to `threads` workers; calls report(i, result) on the calling thread
// in index order, each as soon as it and all before it are done.
template <class Result>
void run_in_order(std::size_t n, unsigned threads, const std::function<Result(std::size_t)>& job,
                  const std::function<void(std::size_t, Result&)>& report) {
  std::vector<std::optional<Result>> results(n);
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < n;) {
      Result r = job(i);
      std::lock_guard lock(mutex);
      results[i] = std::move(r);
      ready.notify_all();
    }
  };
  std::vector<std::jthread> workers;
  for (unsigned t = 0; t < std::max(1u, threads) && t < n; ++t) workers.emplace_back(work);
  for (std::size_t i = 0; i < n; ++i) {
    std::unique_lock lock(mutex);
    ready.wait(lock, [&] { return results[i].has_value(); });
    Result r = std::move(*results[i]);
    results[i].reset();
    lock.unlock();
    report(i, r);
  }
}

// "verify: 3 of 8 files, 1,234 of 5,678 MB" on stderr, rewritten in place, only when stderr is a
// terminal, not --quiet, and the job has run for over a second.
class Progress {
 public:
  Progress(const char* command, std::size_t files, std::size_t total_bytes, bool quiet)
      : command_(command), files_(files), total_(total_bytes) {
    if (quiet || !::isatty(2)) return;
    thread_ = std::jthread([this](std::stop_token stop) {
      auto start = std::chrono::steady_clock::now();
      while (!stop.stop_requested()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) continue;
        std::fprintf(stderr, "\r%s: %zu of %zu files, %zu of %zu MB ", command_, done_files_.load(), files_,
                     done_bytes_.load() >> 20, total_ >> 20);
        shown_ = true;
      }
    });
  }
  ~Progress() {
    if (thread_.joinable()) {
      thread_.request_stop();
      thread_.join();
    }
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }
  void file_done(std::size_t bytes) {
    ++done_files_;
    done_bytes_ += bytes;
  }

 private:
  const char* command_;
  std::size_t files_, total_;
  std::atomic<std::size_t> done_files_{0}, done_bytes_{0};
  std::atomic<bool> shown_{false};
  std::jthread thread_;
};

}  // namespace anvil::cli
