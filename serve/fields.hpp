// An object's fields for the editor, typed from the layout declarations (model/describe.hpp, the walk
// `anvilrt schema` prints the format reference from): each field's name, wire type, the checks on it,
// and whether the page may offer an edit -- scalars, ids and instance matrices are editable; checked
// constants, counts, unknown bytes (hex) and class ids are shown read-only, so the page offers no edit
// the engine refuses for a reason it does not show.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "model/object.hpp"

namespace anvil::serve {

// The rows of `object_json` (an object's JSON value, as `dump` prints it) of `game`, as a JSON array:
//   { "pointer": "/instance/instances/0" (relative to the object), "label": "instance.instances[0]",
//     "kind": "scalar" | "id" | "matrix" | "hex" | "text" | "constant" | "class" | "none" | "other",
//     "type": "f32", "value": <the JSON value>, "editable": true, "note": "the checks, in words" }
// A member the declaration does not name (none should be) is listed as "other", read-only.
std::string field_rows(const rapidjson::Value& object_json, Game game);

}  // namespace anvil::serve
