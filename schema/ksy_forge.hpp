// The part of `anvilrt schema --ksy` (schema/ksy.cpp) that is not a declaration's structure: the navigation
// of a whole `.forge` archive (FORGE.md 1).
#pragma once

#include <map>
#include <string>

namespace anvil::schema {

// Adds to `types` (Kaitai type name -> its body, as schema/ksy.cpp writes them) the navigation of an
// archive: where each part lies is a field of another, so these are instances at those offsets; the parts
// themselves are the generated types. A stored data file's compressed form is told by the 8 bytes after its
// prefix, which are no field.
void ksy_forge_navigation(std::map<std::string, std::string>& types);

}  // namespace anvil::schema
