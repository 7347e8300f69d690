// The structures the format reference describes, from their layout declarations: the top-level objects
// of each dialect (FORMAT.md sections 1-3) as the carver finds them, and every structure they hold.
#pragma once

#include <string>
#include <vector>

#include "model/describe.hpp"

namespace anvil::schema {

// A top-level object of a dialect: where its class id lies and its layout.
struct TopLevel {
  std::string dialect;  // "ac2" or "sws"
  std::string name;     // its JSON "class"
  u32 class_id = 0;
  std::size_t class_offset = 0;  // the class id's offset in the object's bytes
  describe::Node layout;         // a kStruct
};

std::vector<TopLevel> top_levels();

// Every structure reachable from the top levels, each once, in the order first met (depth first).
std::vector<const describe::Node*> structures(const std::vector<TopLevel>& tops);

// The container structures of FORGE.md, outermost first: the archive header, the file-data header, a
// table section, the index and name entries, a data file's 440-byte header, its stored bytes (prefix and
// block sets) and the decompressed data file (its entry table and resources).
std::vector<describe::Node> containers();
// Every structure reachable from those, each once, in the order first met (depth first).
std::vector<const describe::Node*> structures(const std::vector<describe::Node>& roots);

// The field name of a checked constant in the Kaitai and ImHex descriptions: its JSON name when it has
// one, else its check in words ("selector link tag" -> "selector_link_tag").
std::string constant_name(const describe::Node& constant, int& unnamed);

}  // namespace anvil::schema
