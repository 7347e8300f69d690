#include "model/describe.hpp"

#include <algorithm>

namespace anvil::describe {

namespace {

std::size_t count_size(const std::string& type) { return type == "u8" ? 1 : type == "u16" ? 2 : type == "u64" ? 8 : 4; }

}  // namespace

std::optional<std::size_t> fixed_size(const Node& node) {
  switch (node.kind) {
    case Kind::kScalar:
    case Kind::kId:
    case Kind::kOpaque:
    case Kind::kText:
    case Kind::kConstant:
    case Kind::kSizeOf:
      return node.size;
    case Kind::kStruct:
    case Kind::kGroup: {
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
    case Kind::kEither: {
      auto first = fixed_size(node.children[0]), second = fixed_size(node.children[1]);
      if (first && second && *first == *second) return first;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::size_t min_size(const Node& node) {
  switch (node.kind) {
    case Kind::kStruct:
    case Kind::kGroup: {
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
    case Kind::kHeads:
      return count_size(node.count_type);
    case Kind::kEither:
      return std::min(min_size(node.children[0]), min_size(node.children[1]));
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
    case Kind::kSizedBytes:
    case Kind::kBodies:
    case Kind::kRestBytes:
    case Kind::kUntilEnd:
      return 0;
    default:
      return *fixed_size(node);
  }
}

}  // namespace anvil::describe
