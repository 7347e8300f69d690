// Running a command's per-file jobs on all cores while reporting in file order.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
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

}  // namespace anvil::cli
