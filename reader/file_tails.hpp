// The look-ups of the `ac2` unknown-instance rule for one file: all valid Visual tails and all Visual
// class-id places, found in one pass each the first time they are asked for, then found by binary
// search. This keeps carving linear however many unknown instances a file holds.
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
    index();
    auto it = std::lower_bound(tails_.begin(), tails_.end(), from);
    if (it == tails_.end() || *it > limit) return std::nullopt;
    return *it;
  }
  bool visual_signature_in(std::size_t from, std::size_t to) override {
    index();
    auto it = std::lower_bound(visuals_.begin(), visuals_.end(), from);
    return it != visuals_.end() && *it + 4 <= to;
  }

 private:
  static constexpr std::size_t kTailClassOffset = 0x19;

  void index() {
    if (indexed_) return;
    indexed_ = true;
    for (auto p = find_class_id(file_, 0, class_id::kVisualShaderConstants); p;
         p = find_class_id(file_, *p + 1, class_id::kVisualShaderConstants)) {
      if (*p < kTailClassOffset) continue;
      std::size_t start = *p - kTailClassOffset;
      ac2::VisualTail tail;
      ByteReader reader(file_, start);
      tail.serialize(reader, 0);
      if (reader.ok()) tails_.push_back(start);
    }
    for (auto p = find_class_id(file_, 0, class_id::kVisual); p; p = find_class_id(file_, *p + 1, class_id::kVisual))
      visuals_.push_back(*p);
  }

  std::span<const u8> file_;
  bool indexed_ = false;
  std::vector<std::size_t> tails_;
  std::vector<std::size_t> visuals_;
};

}  // namespace anvil
