#include "pipeline/mods/effect_json.hpp"

namespace anvil::mods {

void write_strings(ModJsonWriter& w, const char* key, const std::vector<std::string>& list) {
  w.Key(key);
  w.StartArray();
  for (const std::string& s : list) w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
  w.EndArray();
}

void write_json_or_null(ModJsonWriter& w, const char* key, const std::optional<std::string>& value) {
  w.Key(key);
  if (value)
    w.RawValue(value->c_str(), value->size(), rapidjson::kObjectType);
  else
    w.Null();
}

void write_effect(ModJsonWriter& w, const ModEffect& effect, WrittenValue value) {
  write_strings(w, "archives", effect.archives);
  write_strings(w, "datafiles", effect.datafiles);
  write_strings(w, "objects", effect.objects);
  w.Key("writes");
  w.StartArray();
  for (const FieldWrite& f : effect.writes) {
    w.StartObject();
    w.Key("pointer");
    w.String(f.pointer.c_str(), static_cast<rapidjson::SizeType>(f.pointer.size()));
    if (value == WrittenValue::as_json) {
      write_json_or_null(w, "value", f.value);
    } else if (f.value) {
      w.Key("value");
      w.String(f.value->c_str(), static_cast<rapidjson::SizeType>(f.value->size()));
    }
    w.EndObject();
  }
  w.EndArray();
}

void write_conflict(ModJsonWriter& w, const Conflict& c) {
  w.StartObject();
  w.Key("earlier");
  w.String(c.earlier.c_str());
  w.Key("later");
  w.String(c.later.c_str());
  w.Key("pointer");
  w.String(c.pointer.c_str(), static_cast<rapidjson::SizeType>(c.pointer.size()));
  write_json_or_null(w, "earlier_value", c.earlier_value);
  write_json_or_null(w, "later_value", c.later_value);
  w.EndObject();
}

}  // namespace anvil::mods
