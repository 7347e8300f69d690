// The parts of `anvilrt schema --hexpat` (schema/hexpat.cpp writes the structures from their declarations,
// schema/hexpat_forge.cpp the navigation of a whole `.forge` archive between them).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/describe.hpp"

namespace anvil::schema::hexpat {

// The global variable that ends the bytes being read (an object, a data file's stored bytes, a
// decompressed data file): counts are checked against it, a run "up to the end" stops there.
inline constexpr const char* kEnd = "anvilrt_end";

// A struct of the pattern: its name, its statements in order, a comment line above it, and whether it
// refers to itself (it is then declared ahead with `using NAME;`).
struct PatternType {
  std::string name;
  std::vector<std::string> lines;
  std::string comment;
  bool recursive = false;
};

// The statements the structure writer makes of one field of a declaration (types it needs are defined).
using FieldLines = std::function<std::vector<std::string>(const describe::Node&)>;

// The navigation of an archive (FORGE.md 1): where each part lies is a field of another, so these place
// the generated types with `@` at those offsets; the stored data file's compressed form is chosen by the
// 8 bytes after its prefix, which are no field. Outermost last (a type is defined before its use).
std::vector<PatternType> forge_navigation(const FieldLines& field_lines);

// How a top-level placement of the navigation reads: "forge_archive archive @ 0x00;" and the others.
std::vector<std::string> forge_placements();

}  // namespace anvil::schema::hexpat
