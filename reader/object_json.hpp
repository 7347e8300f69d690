// Reads one top-level object back from its JSON (the inverse of writer/object_json.hpp): "class"
// picks the kind among the dialect's, then the layout declaration reads and checks every field.
// Two ways, as the JSON readers have them: from a RapidJSON value (JsonReader: the reference) and from
// text (JsonTextReader: the fast path, which stops where it departs); tests/json_text_reader_test.cpp
// and tests/build_in_order_test.cpp keep them in agreement (reader/json_text_reader.hpp).
#pragma once

#include <optional>
#include <string>

#include "model/object.hpp"
#include "reader/json_reader.hpp"
#include "reader/json_text_reader.hpp"

namespace anvil {

// Fills `out` from `value`; the first failed check otherwise, with its JSON pointer from `pointer`.
// "offset", "length" and "class" are not fields: the caller checks offset and length.
std::optional<CheckFailure> read_object_json(const rapidjson::Value& value, Game game, const std::string& pointer,
                                             Object& out);

// The same from JSON text at the reader's position, when it is laid out as the writer prints it:
// "offset", "length", "class", then the fields in order (JsonTextReader). False when it is not (the
// reader has stopped): the value read with the function above then gives the verdict.
bool read_object_json(JsonTextReader& reader, Game game, Object& out, u64& offset, u64& length);

}  // namespace anvil
