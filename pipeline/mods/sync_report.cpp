// The report of `anvilrt mod sync` (pipeline/mods/mod_sync.hpp) as text and as one JSON document, written
// from the struct by the writer `mod check --json` uses (effect_json.hpp).
#include <absl/strings/str_format.h>

#include <string>

#include "model/counted.hpp"
#include "pipeline/mods/effect_json.hpp"
#include "pipeline/mods/mod_check.hpp"
#include "pipeline/mods/mod_sync.hpp"

namespace anvil::mods {
namespace {

void write_conflicts(ModJsonWriter& w, const char* key, const std::vector<Conflict>& list) {
  w.Key(key);
  w.StartArray();
  for (const Conflict& c : list) write_conflict(w, c);
  w.EndArray();
}

void write_string_or_null(ModJsonWriter& w, const char* key, const std::optional<std::string>& text) {
  w.Key(key);
  if (text)
    w.String(text->c_str(), static_cast<rapidjson::SizeType>(text->size()));
  else
    w.Null();
}

}  // namespace

std::string SyncReport::json() const {
  rapidjson::StringBuffer buffer;
  ModJsonWriter w(buffer);
  w.SetIndent(' ', 1);
  w.StartObject();
  w.Key("dir");
  w.String(dir.c_str(), static_cast<rapidjson::SizeType>(dir.size()));
  write_strings(w, "recovered", recovered);
  write_strings(w, "installed", installed);
  write_strings(w, "uninstalled", uninstalled);
  write_strings(w, "reinstalled", reinstalled);
  write_strings(w, "order", order);
  w.Key("nothing_to_do");
  w.Bool(nothing_to_do);
  write_conflicts(w, "conflicts", conflicts);
  write_conflicts(w, "overrides", overrides);
  w.Key("failures");
  w.StartArray();
  for (const SyncFailure& f : failures) {
    w.StartObject();
    w.Key("mod");
    w.String(f.mod.c_str(), static_cast<rapidjson::SizeType>(f.mod.size()));
    w.Key("message");
    w.String(f.message.c_str(), static_cast<rapidjson::SizeType>(f.message.size()));
    w.EndObject();
  }
  w.EndArray();
  write_strings(w, "notes", notes);
  w.Key("refused");
  w.Bool(refused);
  write_string_or_null(w, "refusal", refused ? std::optional<std::string>(refusal) : std::nullopt);
  write_string_or_null(w, "error", error);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string SyncReport::text() const {
  if (refused) return check_text;
  if (nothing_to_do) return absl::StrFormat("nothing to do: %s installed as given\n", counted(order.size(), "mod"));
  std::string out;
  for (const std::string& note : notes) out += note + "\n";
  for (const std::string& name : installed) out += absl::StrFormat("installed %s\n", name);
  for (const std::string& name : reinstalled) out += absl::StrFormat("reinstalled %s\n", name);
  for (const std::string& name : uninstalled) out += absl::StrFormat("uninstalled %s\n", name);
  return out;
}

}  // namespace anvil::mods
