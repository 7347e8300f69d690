// The patch operations (FORMAT.md 5, docs/patches.md), named in one table: the engine dispatches on it
// (patch/patch.cpp), the archive router routes by it (patch/archive_route.cpp), and error messages list
// its names. An operation added here must say how it routes over an archive, and the engine's switch
// over `Op` has no default, so a new one cannot be forgotten by either (-Wswitch).
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace anvil::patch {

enum class Op {
  test,
  replace,
  add,
  remove,
  move,
  copy,
  swap_material,
  transform,
  set_switch_distance,
  scale_switch_distance,
  duplicate_instance,
  remove_instance,
  add_material,
};

enum class OpKind {
  rfc6902,  // addresses one location by its "path" (and "from")
  bulk,     // names the objects it touches by value ("objects"), or ranges over every object
};

// How an operation of an archive patch reaches the data files (patch/archive_patch.hpp).
enum class OpRoute {
  by_path,     // to the data file its "path" (and "from") lie in
  by_objects,  // to the data files holding its "objects" keys; "*" or no "objects": every data file it ranges over
};

struct OpInfo {
  std::string_view name;
  Op op;
  OpKind kind;
  OpRoute route;
};

inline constexpr std::array kOps = {
    OpInfo{"test", Op::test, OpKind::rfc6902, OpRoute::by_path},
    OpInfo{"replace", Op::replace, OpKind::rfc6902, OpRoute::by_path},
    OpInfo{"add", Op::add, OpKind::rfc6902, OpRoute::by_path},
    OpInfo{"remove", Op::remove, OpKind::rfc6902, OpRoute::by_path},
    OpInfo{"move", Op::move, OpKind::rfc6902, OpRoute::by_path},
    OpInfo{"copy", Op::copy, OpKind::rfc6902, OpRoute::by_path},
    OpInfo{"swap_material", Op::swap_material, OpKind::bulk, OpRoute::by_objects},
    OpInfo{"transform", Op::transform, OpKind::bulk, OpRoute::by_objects},
    OpInfo{"set_switch_distance", Op::set_switch_distance, OpKind::bulk, OpRoute::by_objects},
    OpInfo{"scale_switch_distance", Op::scale_switch_distance, OpKind::bulk, OpRoute::by_objects},
    OpInfo{"duplicate_instance", Op::duplicate_instance, OpKind::bulk, OpRoute::by_objects},
    OpInfo{"remove_instance", Op::remove_instance, OpKind::bulk, OpRoute::by_objects},
    OpInfo{"add_material", Op::add_material, OpKind::bulk, OpRoute::by_objects},
};

// The operation of that name, or nullptr.
inline const OpInfo* find_op(std::string_view name) {
  for (const OpInfo& info : kOps)
    if (info.name == name) return &info;
  return nullptr;
}

// "test, replace, …": every name, for the error of an unknown op.
inline std::string op_names() {
  std::string out;
  for (const OpInfo& info : kOps) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

}  // namespace anvil::patch
