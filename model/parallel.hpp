// Work spread over threads, the calling one among them: every index of a job once (for_each_index), in
// index order as each is done (for_each_index_in_order), or two jobs at once (on_two_threads). What block
// compression, the archive's checksum vote, the search of an archive's data files for a key, a changed
// pair's joint read, diff's two sides and the commands' per-file jobs share; thread_budget() is how many
// threads each may use, --jobs when the user names it.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace anvil {

namespace parallel_detail {
inline std::atomic<unsigned>& budget() {
  static std::atomic<unsigned> threads{0};
  return threads;
}
}  // namespace parallel_detail

// The threads a parallel step uses: the number set_thread_budget() was given (the command line's --jobs),
// otherwise one per core.
inline unsigned thread_budget() {
  const unsigned set = parallel_detail::budget().load(std::memory_order_relaxed);
  return set != 0 ? set : std::max(1u, std::thread::hardware_concurrency());
}
// 0: one per core.
inline void set_thread_budget(unsigned threads) { parallel_detail::budget().store(threads, std::memory_order_relaxed); }

// job(i) for every i < n, each once, on up to `threads` threads (at least the calling one). The first
// exception a job throws (out of memory) stops the handing out of indices and is rethrown here once every
// thread has stopped.
template <class Job>
void for_each_index(std::size_t n, unsigned threads, const Job& job) {
  std::atomic<std::size_t> next{0};
  std::mutex failed_mutex;
  std::exception_ptr failed;
  auto work = [&] {
    try {
      for (std::size_t i; (i = next++) < n;) job(i);
    } catch (...) {
      std::lock_guard lock(failed_mutex);
      if (!failed) failed = std::current_exception();
      next = n;
    }
  };
  {
    std::vector<std::jthread> workers;
    for (std::size_t t = 1; t < std::min<std::size_t>(std::max(1u, threads), n); ++t) workers.emplace_back(work);
    work();
  }
  if (failed) std::rethrow_exception(failed);
}

// job(i) for every i < n on up to `threads` threads while the calling thread hands each result to report(i, r)
// in index order, as soon as it and all before it are done. The first exception a job throws is rethrown here
// once every thread has stopped (no report is made past it).
template <class Result, class Job, class Report>
void for_each_index_in_order(std::size_t n, unsigned threads, const Job& job, const Report& report) {
  std::vector<std::optional<Result>> results(n);
  std::mutex mutex;
  std::condition_variable ready;
  bool stopped = false;
  std::exception_ptr failed;
  std::jthread workers([&] {
    try {
      for_each_index(n, threads, [&](std::size_t i) {
        Result r = job(i);
        std::lock_guard lock(mutex);
        results[i] = std::move(r);
        ready.notify_all();
      });
    } catch (...) {
      failed = std::current_exception();
    }
    std::lock_guard lock(mutex);
    stopped = true;
    ready.notify_all();
  });
  for (std::size_t i = 0; i < n; ++i) {
    std::unique_lock lock(mutex);
    ready.wait(lock, [&] { return results[i].has_value() || stopped; });
    if (!results[i]) break;  // a job threw: nothing after it is reported
    Result r = std::move(*results[i]);
    results[i].reset();
    lock.unlock();
    report(i, r);
  }
  workers.join();
  if (failed) std::rethrow_exception(failed);
}

// `first` on a thread of its own while `second` runs on this one (one after the other when no thread is to
// be had): on two cores the pair costs about the longer one's time.
inline void on_two_threads(const std::function<void()>& first, const std::function<void()>& second) {
  std::optional<std::thread> thread;
  try {
    thread.emplace(first);
  } catch (const std::system_error&) {
    first();
  }
  second();
  if (thread) thread->join();
}

}  // namespace anvil
