// Reads one top-level object back from its JSON (the inverse of writer/object_json.hpp): "class"
// picks the kind among the dialect's, then the layout declaration reads and checks every field.
#pragma once

#include <optional>
#include <string>

#include "model/object.hpp"
#include "reader/json_reader.hpp"

namespace anvil {

// Fills `out` from `value`; the first failed check otherwise, with its JSON pointer from `pointer`.
// "offset", "length" and "class" are not fields: the caller checks offset and length.
std::optional<CheckFailure> read_object_json(const rapidjson::Value& value, Game game, const std::string& pointer,
                                             Object& out);

}  // namespace anvil
