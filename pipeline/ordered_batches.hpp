// A stream of work cut into batches: made in order on the calling thread, worked on by a pool, taken
// back in order on the calling thread. What one file's `verify` uses to round-trip its objects on all
// cores while it carves them (the carve is sequential; each object's round trip is not).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace anvil {

// fill(Batch&) -> bool: makes the next batch in the slot given (its storage is reused); false when there
//   is no more (that slot is then ignored).
// work(Batch&, unsigned worker): runs on worker `worker` (< threads), which owns whatever state it keys
//   by that index; with threads <= 1, on the calling thread as worker 0.
// take(Batch&) -> bool: sees each batch, in the order made, once worked; false stops (batches made after
//   it are finished by the pool and dropped, nothing more is made).
// At most 2 × threads + 1 batches are alive at once, so memory stays flat.
template <class Batch, class Fill, class Work, class Take>
void run_ordered_batches(unsigned threads, Fill fill, Work work, Take take) {
  if (threads <= 1) {
    Batch batch;
    while (fill(batch)) {
      work(batch, 0u);
      if (!take(batch)) return;
    }
    return;
  }
  const std::size_t slots = 2 * std::size_t{threads} + 1;
  std::vector<Batch> batches(slots);
  std::vector<char> worked(slots, 0);  // under `mutex`
  std::deque<std::size_t> queue;       // slots to work on, under `mutex`
  bool closing = false;                // under `mutex`
  std::mutex mutex;
  std::condition_variable queued, done;
  auto worker = [&](unsigned index) {
    for (;;) {
      std::size_t slot;
      {
        std::unique_lock lock(mutex);
        queued.wait(lock, [&] { return closing || !queue.empty(); });
        if (queue.empty()) return;
        slot = queue.front();
        queue.pop_front();
      }
      work(batches[slot], index);
      {
        std::lock_guard lock(mutex);
        worked[slot] = 1;
      }
      done.notify_all();
    }
  };
  // Declared after `batches`: the pool is joined before the batches it may still be working on go.
  std::vector<std::jthread> pool;
  pool.reserve(threads);
  auto close = [&](bool drop_queued) {
    {
      std::lock_guard lock(mutex);
      closing = true;
      if (drop_queued) queue.clear();
    }
    queued.notify_all();
  };
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker, t);

  std::size_t made = 0, taken = 0;
  // Takes the oldest batch: waits for it when `wait`, else only if it is already worked.
  auto take_oldest = [&](bool wait, bool& stop) {
    const std::size_t slot = taken % slots;
    {
      std::unique_lock lock(mutex);
      if (wait)
        done.wait(lock, [&] { return worked[slot] != 0; });
      else if (!worked[slot])
        return false;
      worked[slot] = 0;
    }
    ++taken;
    stop = !take(batches[slot]);
    return true;
  };
  bool stop = false;
  while (!stop) {
    if (made - taken == slots) {  // every slot alive: the oldest must be taken first
      take_oldest(true, stop);
      continue;
    }
    if (!fill(batches[made % slots])) break;
    {
      std::lock_guard lock(mutex);
      queue.push_back(made % slots);
    }
    queued.notify_one();
    ++made;
    while (!stop && taken < made && take_oldest(false, stop)) {
    }
  }
  while (!stop && taken < made) take_oldest(true, stop);
  close(stop);
}

}  // namespace anvil
