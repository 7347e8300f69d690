// What a router of a patch over many parts (an archive's data files: archive_router.hpp; a game folder's
// archives: pipeline/folder_router.hpp) keeps: each part's share of the operations, rewritten to the part's
// own document, in order, each with its index in the whole patch; and the earliest failure, which cuts
// every share where it stands (the patch applies all or nothing, and the error is the first operation's).
#pragma once

#include <rapidjson/document.h>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "patch/patch.hpp"

namespace anvil::patch {

struct RoutedShare {
  rapidjson::Document ops{rapidjson::kArrayType};
  std::vector<std::size_t> index;  // each operation's index in the whole patch
  std::vector<bool> named;         // whether an error there is named by the part

  void add(rapidjson::Value&& op, std::size_t at, bool is_named) {
    ops.PushBack(op, ops.GetAllocator());
    index.push_back(at);
    named.push_back(is_named);
  }
  // Drops the operations from the patch's operation `limit` on.
  void cut_from(std::size_t limit) {
    while (!index.empty() && index.back() >= limit) {
      ops.PopBack();
      index.pop_back();
      named.pop_back();
    }
  }
  // Drops the share's k-th operation.
  void erase(std::size_t k) {
    ops.Erase(ops.Begin() + k);
    index.erase(index.begin() + static_cast<std::ptrdiff_t>(k));
    named.erase(named.begin() + static_cast<std::ptrdiff_t>(k));
  }
};

// The earliest failure of a patch's operations so far.
class EarliestFailure {
 public:
  // Keeps `error` as operation `op`'s unless an earlier operation failed already.
  void fail(std::size_t op, PatchError error) {
    if (failure_ && failure_->first <= op) return;
    error.op_index = op;
    failure_.emplace(op, std::move(error));
  }
  explicit operator bool() const { return failure_.has_value(); }
  // The failing operation's index (when one failed).
  std::size_t op() const { return failure_->first; }
  // Whether operation `op` comes at or after the failure (then it does not run).
  bool at_or_before(std::size_t op) const { return failure_ && failure_->first <= op; }
  PatchError take() { return std::move(failure_->second); }

 private:
  std::optional<std::pair<std::size_t, PatchError>> failure_;
};

}  // namespace anvil::patch
