// The look-ups of the `ac2` unknown-instance rule for one file: the places of the tail class id and of
// the Visual class id, found left to right only as far as a question reaches, then found by binary
// search; each tail candidate is parsed at most once. Carving stays linear however many unknown
// instances a file holds, and costs nothing in a file that has none.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "model/ac2/visual_tail.hpp"
#include "reader/byte_reader.hpp"
#include "reader/signature_search.hpp"

namespace anvil {

class FileTails final : public TailFinder {
 public:
  explicit FileTails(std::span<const u8> file) : file_(file) {}

  std::optional<std::size_t> next_tail(std::size_t from, std::size_t limit) override {
    // A tail at t has its class id at t + 0x19: index the class-id places up to the last one that
    // could belong to a tail starting at or before `limit`.
    tails_.scan_to(limit + kTailClassOffset + 4);
    auto& places = tails_.places;
    valid_.resize(places.size(), kUnknown);
    for (auto i = std::lower_bound(places.begin(), places.end(), from + kTailClassOffset) - places.begin();
         i < static_cast<std::ptrdiff_t>(places.size()) && places[i] - kTailClassOffset <= limit; ++i) {
      if (valid_[i] == kUnknown) valid_[i] = parses_as_tail(places[i] - kTailClassOffset) ? kValid : kInvalid;
      if (valid_[i] == kValid) return places[i] - kTailClassOffset;
    }
    return std::nullopt;
  }

  bool visual_signature_in(std::size_t from, std::size_t to) override {
    visuals_.scan_to(to);
    auto it = std::lower_bound(visuals_.places.begin(), visuals_.places.end(), from);
    return it != visuals_.places.end() && *it + 4 <= to;
  }

 private:
  static constexpr std::size_t kTailClassOffset = 0x19;
  enum Validity : u8 { kUnknown, kValid, kInvalid };

  // The places of one class id in the file, found left to right as far as asked for.
  struct Places {
    std::span<const u8> file;
    u32 class_id;
    std::size_t scanned = 0;  // every place before this is in `places`
    std::vector<std::size_t> places;

    // Examines every position p with p + 4 <= end.
    void scan_to(std::size_t end) {
      end = std::min(end, file.size());
      while (auto p = find_class_id(file.first(end), scanned, class_id)) {
        places.push_back(*p);
        scanned = *p + 1;
      }
      if (end >= 3) scanned = std::max(scanned, end - 3);
    }
  };

  bool parses_as_tail(std::size_t start) {
    ac2::VisualTail tail;
    ByteReader reader(file_, start);
    tail.serialize(reader, 0);
    return reader.ok();
  }

  std::span<const u8> file_;
  Places tails_{file_, class_id::kVisualShaderConstants, 0, {}};
  std::vector<Validity> valid_;  // of each place in tails_
  Places visuals_{file_, class_id::kVisual, 0, {}};
};

}  // namespace anvil
