#include "reader/split_carve.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "reader/carver.hpp"

namespace anvil {
namespace {

enum class PartEnd { running, file_end, stopped, handed_over };

// One carver's run from its start, and what the parts before it may see of it.
struct Part {
  std::size_t start = 0;
  std::mutex mutex;
  std::condition_variable published;
  std::vector<Extent> objects;     // under `mutex` while the parts run
  PartEnd end = PartEnd::running;  // under `mutex` while the parts run
  // Its own while it runs, read after all have ended:
  std::vector<std::size_t> near_misses;
  unsigned next_part = 0;              // handed over: the carve goes on in this part,
  std::size_t next_index = 0;          // from this object of it;
  std::size_t handed_at = 0;           // its own last object ends here
  std::atomic<std::size_t> passed{0};  // bytes from its start to its last object's end, for progress
};

// Objects a part carves before the parts before it see them: a lock per this many.
constexpr std::size_t kPublishEvery = 256;

class SplitCarver {
 public:
  SplitCarver(std::span<const u8> file, Game game, unsigned parts, const SplitVisit& visit, const ProgressFn& progress)
      : file_(file), game_(game), parts_(parts), visit_(visit), progress_(progress, file.size()) {
    for (unsigned k = 0; k < parts; ++k) parts_[k].start = file.size() / parts * k;
  }

  SplitCarve run() {
    std::vector<std::exception_ptr> failed(parts_.size());
    {
      std::vector<std::jthread> others;
      for (unsigned k = 1; k < parts_.size(); ++k)
        others.emplace_back([this, k, &failed] {
          // A part that throws (out of memory) ends as stopped, so that the parts before it do not wait
          // for it; the exception is the caller's once all have ended.
          try {
            carve(k);
          } catch (...) {
            failed[k] = std::current_exception();
            {
              std::lock_guard lock(parts_[k].mutex);
              parts_[k].end = PartEnd::stopped;
            }
            parts_[k].published.notify_all();
          }
        });
      carve(0);  // on the calling thread: what it throws is thrown once the others have ended
    }
    for (const std::exception_ptr& e : failed)
      if (e) std::rethrow_exception(e);
    progress_.finish();
    return merged();
  }

 private:
  void carve(unsigned k) {
    Part& me = parts_[k];
    Carver carver(file_, game_);
    carver.start_at(me.start);
    carver.on_near_miss([&](const NearMiss& miss) { me.near_misses.push_back(miss.offset); });
    // Part 0's objects are read by no other part: they go straight into its list. A later part's are
    // published to the parts before it a batch at a time. Reserved from the bytes (untouched capacity is
    // never resident; objects are hundreds of bytes).
    const std::size_t end_of_part = k + 1 < parts_.size() ? parts_[k + 1].start : file_.size();
    std::vector<Extent> pending;
    std::vector<Extent>& mine = k == 0 ? me.objects : pending;
    mine.reserve(k == 0 ? (end_of_part - me.start) / 256 : kPublishEvery);
    auto publish = [&](PartEnd end) {
      {
        std::lock_guard lock(me.mutex);
        if (k != 0) me.objects.insert(me.objects.end(), pending.begin(), pending.end());
        me.end = end;
      }
      pending.clear();
      me.published.notify_all();
    };
    Object object;
    for (;;) {
      auto extent = carver.next(object);
      if (!extent) return publish(PartEnd::file_end);
      const std::size_t end = extent->offset + extent->length;
      mine.push_back(*extent);
      me.passed.store(end - me.start, std::memory_order_relaxed);
      if (k == 0) progress_.at(passed());
      if (!visit_(k, *extent, object)) return publish(PartEnd::stopped);
      if (k + 1 < parts_.size() && end >= parts_[k + 1].start && hand_over(k, end)) {
        me.handed_at = end;
        return publish(PartEnd::handed_over);
      }
      if (k != 0 && pending.size() >= kPublishEvery) publish(PartEnd::running);
    }
  }

  // Whether a later part's carve is the carve from `at` from one of its objects on (split_carve.hpp);
  // if so, part k records which.
  bool hand_over(unsigned k, std::size_t at) {
    for (unsigned m = k + 1; m < parts_.size() && parts_[m].start <= at; ++m) {
      Part& p = parts_[m];
      std::unique_lock lock(p.mutex);
      p.published.wait(
          lock, [&] { return p.end != PartEnd::running || (!p.objects.empty() && p.objects.back().offset >= at); });
      auto next = std::lower_bound(p.objects.begin(), p.objects.end(), at,
                                   [](const Extent& x, std::size_t offset) { return x.offset < offset; });
      const std::size_t j = static_cast<std::size_t>(next - p.objects.begin());
      const std::size_t gap_from = j == 0 ? p.start : p.objects[j - 1].offset + p.objects[j - 1].length;
      if (gap_from > at) continue;  // `at` falls inside one of its objects
      // Its object j is the next; or it has none after `at` and reached the end of the file. Otherwise
      // it stopped or handed over before `at`, and the part that goes on after it is later in the list.
      if (j < p.objects.size() || p.end == PartEnd::file_end) {
        parts_[k].next_part = m;
        parts_[k].next_index = j;
        return true;
      }
    }
    return false;
  }

  std::size_t passed() const {
    std::size_t sum = 0;
    for (const Part& p : parts_) sum += p.passed.load(std::memory_order_relaxed);
    return std::min(sum, file_.size());
  }

  // The one carve: part 0's objects, then those of the part each hands over to, from where it does.
  SplitCarve merged() {
    SplitCarve out;
    unsigned k = 0;
    std::size_t index = 0, from = 0;
    for (;;) {
      Part& p = parts_[k];
      if (k == 0)
        out.objects = std::move(p.objects);  // the first part's from its first: no copy
      else
        out.objects.insert(out.objects.end(), p.objects.begin() + static_cast<std::ptrdiff_t>(index), p.objects.end());
      // Its near misses at or after where the carve came to it; when it hands over, those before that
      // point (the part it hands over to has the rest).
      const std::size_t to = p.end == PartEnd::handed_over ? p.handed_at : file_.size() + 1;
      for (std::size_t offset : p.near_misses)
        if (offset >= from && offset < to) out.near_misses.push_back(offset);
      if (p.end != PartEnd::handed_over) {
        if (p.end == PartEnd::stopped) out.stopped_part = k;
        return out;
      }
      from = p.handed_at;
      index = p.next_index;
      k = p.next_part;
    }
  }

  std::span<const u8> file_;
  Game game_;
  std::vector<Part> parts_;
  const SplitVisit& visit_;
  ProgressSteps progress_;
};

}  // namespace

SplitCarve split_carve(std::span<const u8> file, Game game, const SplitOptions& options, const SplitVisit& visit,
                       const ProgressFn& progress) {
  const std::size_t most = std::max<std::size_t>(1, file.size() / std::max<std::size_t>(options.min_part, 1));
  const auto parts = static_cast<unsigned>(std::clamp<std::size_t>(options.parts, 1, most));
  return SplitCarver(file, game, parts, visit, progress).run();
}

}  // namespace anvil
