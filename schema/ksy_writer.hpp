// The Kaitai Struct writer of `anvilrt schema --ksy` (the names and shapes it gives are described at the
// top of schema/ksy.cpp). schema/ksy.cpp assembles the document and its types; schema/ksy_fields.cpp
// writes the seq items of each kind of field of a declaration.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/describe.hpp"
#include "schema/catalog.hpp"

namespace anvil::schema::ksy {

// The Kaitai type of a declaration's scalar: "u16" -> "u2", "i32" -> "s4", "f32" -> "f4", "id64" -> "u8".
std::string scalar(const std::string& type);

class Writer {
 public:
  // The whole description: the top-level structures, the containers and the archive's navigation.
  std::string document(const std::vector<TopLevel>& tops);

 private:
  using Node = describe::Node;

  struct Type {
    std::vector<std::string> seq;        // each a list item, without its indentation
    std::vector<std::string> instances;  // "name:\n  value: ..."
  };

  // The types (schema/ksy.cpp).
  void add_type(const std::string& name, Type t);
  static std::string item(const std::string& id, const std::vector<std::string>& attrs);
  void structure(const Node& s);
  std::vector<std::string> value_attrs(const Node& n);
  std::vector<std::string> repeated_attrs(const Node& element, const std::string& count);
  std::string element_type(const Node& array);
  std::string pointer_type(const Node& pointer);

  // The fields, one member per kind whose form takes more than a line or two (schema/ksy_fields.cpp).
  void field(const Node& f, Type& t, int& unnamed);
  void checked_constant(const Node& f, Type& t, int& unnamed);
  void counted_fields(const Node& f, Type& t);
  void length_prefixed_fields(const Node& f, Type& t);
  void pointer_fields(const Node& f, Type& t);
  void class_switch_fields(const Node& f, Type& t);
  void present_unless_at_end(const Node& f, Type& t);
  void bytes_up_to_visual_tail(const Node& f, Type& t);
  void unrolled_values_with_classes(const Node& f, Type& t);
  void sized_bytes(const Node& f, Type& t);
  void table_heads_fields(const Node& f, Type& t);
  void table_bodies_field(const Node& f, Type& t);
  void values_up_to_end(const Node& f, Type& t);
  bool either_as_switched_type(const Node& f, Type& t);
  void either_forms_under_conditions(const Node& f, Type& t, int& unnamed);
  static void add_condition(std::string& seq_item, const std::string& condition);

  static constexpr const char* kDataFileRoot = "forge_data_file";

  std::map<std::string, std::string> types_;  // Kaitai type name -> its body
  std::set<std::string> data_file_types_;     // forge_data_file and the types inside it
  std::map<std::string, Node> heads_;         // the head type of each table, by its name
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> body_params_;  // by body C++ type
};

}  // namespace anvil::schema::ksy
