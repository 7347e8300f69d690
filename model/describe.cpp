#include "model/describe.hpp"

namespace anvil::describe {

std::optional<std::size_t> fixed_size(const Node& node) {
  switch (node.kind) {
    case Kind::kScalar:
    case Kind::kId:
    case Kind::kOpaque:
    case Kind::kConstant:
      return node.size;
    case Kind::kStruct: {
      std::size_t total = 0;
      for (const Node& c : node.children) {
        auto s = fixed_size(c);
        if (!s) return std::nullopt;
        total += *s;
      }
      return total;
    }
    case Kind::kArray: {
      auto s = fixed_size(node.children[0]);
      if (!s) return std::nullopt;
      return *s * node.count;
    }
    case Kind::kEachFollowedBy: {
      auto s = fixed_size(node.children[0]);
      if (!s) return std::nullopt;
      return (*s + 4) * node.count;
    }
    default:
      return std::nullopt;
  }
}

std::size_t min_size(const Node& node) {
  switch (node.kind) {
    case Kind::kStruct: {
      std::size_t total = 0;
      for (const Node& c : node.children) total += min_size(c);
      return total;
    }
    case Kind::kArray:
      return min_size(node.children[0]) * node.count;
    case Kind::kEachFollowedBy:
      return (min_size(node.children[0]) + 4) * node.count;
    case Kind::kCounted:
    case Kind::kBytes:
      return node.count_type == "u8" ? 1 : node.count_type == "u16" ? 2 : node.count_type == "u64" ? 8 : 4;
    case Kind::kPointer:
      return 1;
    case Kind::kSwitch: {
      std::optional<std::size_t> least;
      for (const Alternative& a : node.alternatives) {
        std::size_t s = min_size(*a.body);
        if (!least || s < *least) least = s;
      }
      return 4 + least.value_or(0);
    }
    case Kind::kPresentIf:
    case Kind::kUntilTail:
      return 0;
    default:
      return *fixed_size(node);
  }
}

}  // namespace anvil::describe
