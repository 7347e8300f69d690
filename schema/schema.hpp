// `anvilrt schema`: descriptions of the format generated from the layout declarations (model/describe.hpp
// walks them), so they cannot say anything the reader, the writer and JSON do not do.
#pragma once

#include <string>

#include "schema/catalog.hpp"

namespace anvil::schema {

// The format reference, Markdown (docs/format.md is this, committed).
std::string format_markdown();
// A Kaitai Struct (.ksy) description of every structure; each top-level type reads one object.
std::string kaitai_struct();
// The same in ImHex's pattern language (.hexpat).
std::string imhex_pattern();

// The Kaitai (and ImHex) type name of a structure: "ac2::LODSelectorInstance" -> "ac2_lod_selector_instance".
std::string kaitai_type_name(const std::string& cpp_type);

}  // namespace anvil::schema
