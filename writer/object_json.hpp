// One top-level object as a member of the document's "objects" (FORMAT.md section 4):
// "<key>": { "offset", "length", "class", ...the fields of its layout declaration... }.
#pragma once

#include <string_view>

#include "model/dialect.hpp"
#include "model/level.hpp"
#include "model/object.hpp"
#include "writer/json_writer.hpp"

namespace anvil {

// The object's JSON value: { "offset", "length", "class", ...fields }.
template <class Handler>
void write_object_value(JsonWriter<Handler>& w, const Extent& extent, const Object& object) {
  w.start_object();
  w.key("offset");
  w.number(extent.offset);
  w.key("length");
  w.number(extent.length);
  w.key("class");
  w.string(class_name(object));
  std::visit([&](const auto& o) { w.fields(o); }, object);
  w.end_object();
}

// The object as a member of "objects": "<key>": its value.
template <class Handler>
void write_object_json(JsonWriter<Handler>& w, std::string_view key, const Extent& extent, const Object& object) {
  w.key(key);
  write_object_value(w, extent, object);
}

}  // namespace anvil
