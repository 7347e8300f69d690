// The type names the Kaitai and ImHex descriptions share (schema/ksy.cpp, schema/hexpat.cpp), so the two
// read alike: a C++ structure name in snake case, its namespaces joined by `_`.
#include <cctype>
#include <string>

#include "schema/schema.hpp"

namespace anvil::schema {

namespace {

// "LODSelectorInstance" -> "lod_selector_instance": a capital starts a word after a lower-case letter or
// a digit, or when it is the last capital of an acronym ("LODSelector": the S starts "selector").
std::string snake(const std::string& camel) {
  std::string out;
  for (std::size_t i = 0; i < camel.size(); ++i) {
    char c = camel[i];
    bool upper = std::isupper(static_cast<unsigned char>(c));
    if (upper && i > 0) {
      char prev = camel[i - 1];
      bool next_lower = i + 1 < camel.size() && std::islower(static_cast<unsigned char>(camel[i + 1]));
      if (std::islower(static_cast<unsigned char>(prev)) || std::isdigit(static_cast<unsigned char>(prev)) ||
          (std::isupper(static_cast<unsigned char>(prev)) && next_lower))
        out += '_';
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

std::string kaitai_type_name(const std::string& cpp_type) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    std::size_t sep = cpp_type.find("::", start);
    std::string part = cpp_type.substr(start, sep == std::string::npos ? std::string::npos : sep - start);
    if (!out.empty()) out += '_';
    out += snake(part);
    if (sep == std::string::npos) break;
    start = sep + 2;
  }
  return out;
}

}  // namespace anvil::schema
