// Work spread over threads, the calling one among them: every index of a job once (for_each_index), or two
// jobs at once (on_two_threads). What block compression, the archive's checksum vote, the search of an
// archive's data files for a key, a changed pair's joint read and diff's two sides share.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace anvil {

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
