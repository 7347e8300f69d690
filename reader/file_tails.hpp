// The look-ups of the `ac2` unknown-instance rule for one file: the places of the tail class id and of
// the Visual class id, searched for only where a question reaches (from an unknown body forward, in
// growing steps, up to its first valid tail) and remembered over one interval, so that the questions
// of a left-to-right carve search each byte once; each tail candidate is parsed at most once. Carving
// stays linear however many unknown instances a file holds, and costs nothing in a file with none.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <deque>
#include <span>
#include <vector>

#include "model/ac2/tail_class.hpp"
#include "model/ac2/visual_tail.hpp"
#include "reader/byte_reader.hpp"
#include "reader/signature_search.hpp"

namespace anvil {

class FileTails final : public TailFinder {
 public:
  explicit FileTails(std::span<const u8> file) : file_(file) {}

  std::optional<std::size_t> next_tail(std::size_t from, std::size_t limit) override {
    // A tail at t has its class id at t + ac2::kTailClassOffset (0x19, from the declaration): the class-id places in
    // [from, limit] + 0x19, nearest first, searched in steps that double (most unknown bodies are short).
    const std::size_t last = limit + ac2::kTailClassOffset;
    std::size_t step = 4096;
    for (std::size_t pos = from + ac2::kTailClassOffset; pos <= last && pos < file_.size();) {
      std::size_t end = std::min(last + 1, pos + step);
      tails_.cover(pos, end);
      for (auto it = std::lower_bound(tails_.at.begin(), tails_.at.end(), pos); it != tails_.at.end() && *it < end;
           ++it) {
        std::size_t start = *it - ac2::kTailClassOffset;
        auto [entry, added] = valid_.try_emplace(start, false);
        if (added) entry->second = parses_as_tail(start);
        if (entry->second) return start;
      }
      pos = end;
      step = std::min<std::size_t>(2 * step, 1 << 20);
    }
    return std::nullopt;
  }

  bool visual_signature_in(std::size_t from, std::size_t to) override {
    if (to < from + 4) return false;
    std::size_t end = to - 3;  // places p with p + 4 <= to
    visuals_.cover(from, end);
    auto it = std::lower_bound(visuals_.at.begin(), visuals_.at.end(), from);
    return it != visuals_.at.end() && *it < end;
  }

 private:
  // The places of one class id over one interval of the file. A question next to or overlapping the
  // interval extends it; one elsewhere starts a new interval.
  struct Places {
    std::span<const u8> file;
    u32 class_id;
    std::size_t lo = 0, hi = 0;  // every place p with lo <= p < hi is in `at`, in order
    std::deque<std::size_t> at;

    void cover(std::size_t from, std::size_t to) {
      to = std::min(to, file.size());
      if (from >= to) return;
      if (from > hi || to < lo) {
        at.clear();
        lo = hi = from;
      }
      if (from < lo) {
        std::vector<std::size_t> before;
        scan(from, lo, [&](std::size_t p) { before.push_back(p); });
        at.insert(at.begin(), before.begin(), before.end());
        lo = from;
      }
      if (to > hi) {
        scan(hi, to, [&](std::size_t p) { at.push_back(p); });
        hi = to;
      }
    }

    // Every place p with from <= p < to.
    template <class F>
    void scan(std::size_t from, std::size_t to, F&& found) const {
      auto window = file.first(std::min(to + 3, file.size()));
      for (auto p = find_class_id(window, from, class_id); p; p = find_class_id(window, *p + 1, class_id)) found(*p);
    }
  };

  bool parses_as_tail(std::size_t start) {
    ac2::VisualTail tail;
    ByteReader reader(file_, start);
    tail.serialize(reader, 0);
    return reader.ok();
  }

  std::span<const u8> file_;
  Places tails_{file_, class_id::kVisualShaderConstants, 0, 0, {}};
  absl::flat_hash_map<std::size_t, bool> valid_;  // of each tail candidate parsed: whether it is a tail
  Places visuals_{file_, class_id::kVisual, 0, 0, {}};
};

}  // namespace anvil
