// The report of `anvilrt mod check` (pipeline/mods/mod_check.hpp) as text and as JSON.
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>
#include <rapidjson/writer.h>

#include <optional>
#include <string>

#include "pipeline/mods/effect_json.hpp"
#include "pipeline/mods/mod_check.hpp"

namespace anvil::mods {
namespace {

std::string count(std::size_t n, const char* one, const char* many) {
  return absl::StrFormat("%d %s", n, n == 1 ? one : many);
}

// A text member as JSON text ("1.0" quoted and escaped), nothing when empty (written as null).
std::optional<std::string> as_json_string(const std::string& text) {
  if (text.empty()) return std::nullopt;
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.c_str(), static_cast<rapidjson::SizeType>(text.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

bool CheckReport::failing() const {
  if (!conflicts.empty()) return true;
  for (const ModReport& m : mods)
    if (!m.failures.empty()) return true;
  return false;
}

std::string conflict_line(const Conflict& c) {
  return absl::StrFormat("conflict: %s and %s write %s: %s leaves %s, %s leaves %s", c.earlier, c.later, c.pointer,
                         c.earlier, value_or_removed(c.earlier_value), c.later, value_or_removed(c.later_value));
}

std::string override_line(const Conflict& c) {
  return absl::StrFormat("override: %s wins over %s at %s (%s, was %s)", c.later, c.earlier, c.pointer,
                         value_or_removed(c.later_value), value_or_removed(c.earlier_value));
}

std::string CheckReport::text() const {
  std::string out;
  for (const std::string& a : changed_archives)
    out += absl::StrFormat(
        "archive %s: changed since anvilrt last wrote it (a game update?); install and uninstall leave it alone until "
        "`anvilrt mod forget %s %s`\n",
        a, dir, a);
  if (mods.empty()) out += "no mods installed\n";
  for (const ModReport& m : mods) {
    const ModEffect& e = m.effect;
    const std::string version = m.version.empty() ? "" : " " + m.version;
    const std::string author = m.author.empty() ? "" : " by " + m.author;
    out += absl::StrFormat("mod %s%s%s%s: %s in %s (%s), %s (%s), %s\n", m.name, version, author,
                           m.installed ? " (installed)" : "", count(e.writes.size(), "field", "fields"),
                           count(e.archives.size(), "archive", "archives"), absl::StrJoin(e.archives, ", "),
                           count(e.datafiles.size(), "data file", "data files"), absl::StrJoin(e.datafiles, ", "),
                           count(e.objects.size(), "object", "objects"));
    for (const std::string& f : m.failures) out += absl::StrFormat("  fails: %s\n", f);
    for (const std::string& w : m.warnings) out += absl::StrFormat("  warning: %s\n", w);
    for (const Conflict& c : m.lost)
      out += absl::StrFormat("  lost to %s: %s (%s leaves %s)\n", c.later, c.pointer, c.later,
                             value_or_removed(c.later_value));
  }
  for (const Conflict& c : conflicts) out += conflict_line(c) + "\n";
  return out;
}

std::string CheckReport::json() const {
  rapidjson::StringBuffer buffer;
  ModJsonWriter w(buffer);
  w.SetIndent(' ', 1);
  w.StartObject();
  write_strings(w, "changed_archives", changed_archives);
  w.Key("mods");
  w.StartArray();
  for (const ModReport& m : mods) {
    w.StartObject();
    w.Key("name");
    w.String(m.name.c_str());
    w.Key("installed");
    w.Bool(m.installed);
    write_effect(w, m.effect, WrittenValue::as_json);
    write_strings(w, "failures", m.failures);
    write_strings(w, "warnings", m.warnings);
    write_json_or_null(w, "version", as_json_string(m.version));
    write_json_or_null(w, "author", as_json_string(m.author));
    w.Key("lost");
    w.StartArray();
    for (const Conflict& c : m.lost) write_conflict(w, c);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("conflicts");
  w.StartArray();
  for (const Conflict& c : conflicts) write_conflict(w, c);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace anvil::mods
