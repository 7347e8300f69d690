// A mod's effect as JSON members, written alike by the folder's state file (mod_state.cpp), by
// `mod check --json` (check_report.cpp) and by `mod sync --json` (sync_report.cpp).
#pragma once

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <optional>
#include <string>
#include <vector>

#include "pipeline/mods/mod_effects.hpp"
#include "pipeline/mods/mod_state.hpp"

namespace anvil::mods {

using ModJsonWriter = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

// `key`: an array of the strings of `list`.
void write_strings(ModJsonWriter& w, const char* key, const std::vector<std::string>& list);

// `key`: the JSON text `value` as a value, or null when there is none (a field removed).
void write_json_or_null(ModJsonWriter& w, const char* key, const std::optional<std::string>& value);

// How a field write's value is written: the state file keeps the JSON text as a string, compared as text
// when it is read back, and leaves it out for a removal; check's report gives it as JSON, null for a
// removal.
enum class WrittenValue { as_text, as_json };

// The members "archives", "datafiles", "objects" and "writes" of `effect`.
void write_effect(ModJsonWriter& w, const ModEffect& effect, WrittenValue value);

// A conflict as an object: "earlier", "later", "pointer", "earlier_value", "later_value" (null: removed).
void write_conflict(ModJsonWriter& w, const Conflict& c);

}  // namespace anvil::mods
