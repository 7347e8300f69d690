// One object of a `--full` dump read as `build` reads it (pipeline/build.hpp), shared by `build` and by
// the patch engine, which re-reads each object it edits with it (patch/document.cpp), so that the two
// refuse the same edits for the same reasons.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <vector>

#include "model/object.hpp"

namespace anvil {

// Its fields (reader/object_json.hpp), then its "offset", which must be `offset` (where its span
// starts), then its encoding (into `encoded`), whose size must be its "length" (no object changes size).
// The error otherwise, as build reports it: "POINTER/field: what".
std::optional<std::string> read_dump_object(const rapidjson::Value& object_json, Game game, const std::string& pointer,
                                            std::size_t offset, Object& object, std::vector<u8>& encoded);

}  // namespace anvil
