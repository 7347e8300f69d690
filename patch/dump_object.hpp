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
// starts), then its encoding (into `encoded`), whose size must be its "length": an object inside a level
// file cannot change size (FORMAT.md 1). `resized_from`: the object lies inside a data file, where it may
// (FORGE.md 5), and its "length" may then also be this, the length it had before the edit (a "length"
// that is neither is still refused). The error otherwise, as build reports it: "POINTER/field: what".
std::optional<std::string> read_dump_object(const rapidjson::Value& object_json, Game game, const std::string& pointer,
                                            std::size_t offset, Object& object, std::vector<u8>& encoded,
                                            std::optional<std::size_t> resized_from = std::nullopt);

}  // namespace anvil
