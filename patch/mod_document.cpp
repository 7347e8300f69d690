#include "patch/mod_document.hpp"

#include <absl/strings/ascii.h>
#include <absl/strings/escaping.h>
#include <absl/strings/numbers.h>
#include <absl/strings/str_format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "patch/patch.hpp"

namespace anvil::patch {
namespace {

using rapidjson::Value;

absl::Status member_error(std::string_view path, std::string_view member, std::string_view reason) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: member '%s': %s", std::string(path),
                                                    absl::CHexEscape(std::string(member)), std::string(reason)));
}

bool is_sha256_hex(std::string_view text) {
  if (text.size() != 64) return false;
  for (char c : text)
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

absl::Status read_string(std::string_view path, const Value& object, const char* member, std::string& out) {
  auto it = object.FindMember(member);
  if (it == object.MemberEnd()) return absl::OkStatus();
  if (!it->value.IsString()) return member_error(path, member, "must be a string");
  out.assign(it->value.GetString(), it->value.GetStringLength());
  return absl::OkStatus();
}

// An object of names and sha256 hashes (`made_for`, `replaces`) into `out`: each name checked by
// `bad_name` (the reason it is refused, or nothing), each hash 64 hexadecimal digits, kept lowercase.
absl::Status read_hashes(std::string_view path, const Value& value, const char* member, const char* what,
                         const std::function<std::optional<std::string>(const std::string&)>& bad_name,
                         std::map<std::string, std::string>& out) {
  if (!value.IsObject())
    return member_error(path, member, absl::StrFormat("must be an object of %s and sha256 hashes", what));
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    const std::string name(it->name.GetString(), it->name.GetStringLength());
    const std::string where = std::string(member) + "/" + name;
    if (auto bad = bad_name(name)) return member_error(path, where, *bad);
    if (!it->value.IsString() || !is_sha256_hex({it->value.GetString(), it->value.GetStringLength()}))
      return member_error(path, where, "must be a sha256 hash: 64 hexadecimal digits");
    out[name] = absl::AsciiStrToLower(std::string(it->value.GetString(), it->value.GetStringLength()));
  }
  return absl::OkStatus();
}

// "made_for": {"A.forge": "<sha256 of the archive>", ...}.
absl::Status read_made_for(std::string_view path, const Value& value, ModDocument& mod) {
  return read_hashes(
      path, value, "made_for", "archive names",
      [](const std::string& archive) -> std::optional<std::string> {
        if (archive.empty() || archive.find_first_of("/\\") != std::string::npos || archive == "." || archive == "..")
          return "must name an archive of the game folder (a file name, no folder)";
        return std::nullopt;
      },
      mod.made_for);
}

// A data file key "ARCHIVE.forge/NAME": the reason it is not one, or nothing.
std::optional<std::string> bad_data_file_key(const std::string& datafile) {
  const std::size_t slash = datafile.find('/');
  if (slash == 0 || slash == std::string::npos || slash + 1 == datafile.size())
    return "must name a data file as ARCHIVE.forge/NAME";
  return std::nullopt;
}

// "replaces": {"A.forge/DATAFILE": "<sha256 of the data file's decompressed bytes>", ...}.
absl::Status read_replaces(std::string_view path, const Value& value, ModDocument& mod) {
  return read_hashes(path, value, "replaces", "data files", bad_data_file_key, mod.replaces);
}

// "adds": {"A.forge/NAME": {"sha256": "<of the decompressed bytes>", "file_id": "0x…", "file_type": N}, ...}.
absl::Status read_adds(std::string_view path, const Value& value, ModDocument& mod) {
  if (!value.IsObject()) return member_error(path, "adds", "must be an object of data files");
  for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it) {
    const std::string name(it->name.GetString(), it->name.GetStringLength());
    const std::string where = "adds/" + name;
    if (auto bad = bad_data_file_key(name)) return member_error(path, where, *bad);
    const Value& v = it->value;
    static constexpr const char* kKnown[] = {"sha256", "file_id", "file_type"};
    if (!v.IsObject() || v.MemberCount() != 3 ||
        !std::all_of(std::begin(kKnown), std::end(kKnown), [&](const char* m) { return v.HasMember(m); }))
      return member_error(path, where, "must be an object of sha256, file_id and file_type");
    ModDocument::Added added;
    if (!v["sha256"].IsString() || !is_sha256_hex({v["sha256"].GetString(), v["sha256"].GetStringLength()}))
      return member_error(path, where + "/sha256", "must be a sha256 hash: 64 hexadecimal digits");
    added.sha256 = absl::AsciiStrToLower(std::string(v["sha256"].GetString(), v["sha256"].GetStringLength()));
    const std::string id = v["file_id"].IsString() ? v["file_id"].GetString() : "";
    if (id.size() < 3 || id.size() > 18 || id.compare(0, 2, "0x") != 0 ||
        !absl::SimpleHexAtoi(absl::string_view(id.data() + 2, id.size() - 2), &added.file_id))
      return member_error(path, where + "/file_id", "must be a hexadecimal id: \"0x\" and 1 to 16 digits");
    if (!v["file_type"].IsUint()) return member_error(path, where + "/file_type", "must be a number from 0 to 2^32-1");
    added.file_type = v["file_type"].GetUint();
    mod.adds[name] = std::move(added);
  }
  return absl::OkStatus();
}

// The members that describe a mod, each optional here: name, version, author, description, game, made_for.
absl::Status read_description(std::string_view path, const Value& root, ModDocument& mod) {
  if (auto it = root.FindMember("name"); it != root.MemberEnd()) {
    if (!it->value.IsString()) return member_error(path, "name", "must be a string");
    mod.name.assign(it->value.GetString(), it->value.GetStringLength());
    if (auto bad = bad_mod_name(mod.name)) return member_error(path, "name", *bad);
  }
  for (auto [member, out] : {std::pair{"version", &mod.version}, std::pair{"author", &mod.author},
                             std::pair{"description", &mod.description}})
    if (auto s = read_string(path, root, member, *out); !s.ok()) return s;
  if (auto it = root.FindMember("game"); it != root.MemberEnd()) {
    const std::string game = it->value.IsString() ? it->value.GetString() : "";
    if (game != "ac2" && game != "sws") return member_error(path, "game", "must be \"ac2\" or \"sws\"");
    mod.game = game;
  }
  if (auto it = root.FindMember("made_for"); it != root.MemberEnd())
    if (auto s = read_made_for(path, it->value, mod); !s.ok()) return s;
  if (auto it = root.FindMember("replaces"); it != root.MemberEnd())
    if (auto s = read_replaces(path, it->value, mod); !s.ok()) return s;
  if (auto it = root.FindMember("adds"); it != root.MemberEnd())
    if (auto s = read_adds(path, it->value, mod); !s.ok()) return s;
  return absl::OkStatus();
}

// The first member of `root` that `known` does not list, refused with `what` ("a mod has ...").
absl::Status unknown_member(std::string_view path, const Value& root, std::span<const char* const> known,
                            std::string_view what) {
  for (auto it = root.MemberBegin(); it != root.MemberEnd(); ++it) {
    const std::string_view member(it->name.GetString(), it->name.GetStringLength());
    if (std::find(known.begin(), known.end(), member) == known.end())
      return absl::InvalidArgumentError(absl::StrFormat("%s: unknown member '%s' (%s)", std::string(path),
                                                        absl::CHexEscape(std::string(member)), std::string(what)));
  }
  return absl::OkStatus();
}

absl::Status read_mod_object(std::string_view path, const Value& root, ModDocument& mod) {
  static constexpr const char* kKnown[] = {"anvilrt_mod", "name",     "version",  "author", "description",
                                           "game",        "made_for", "replaces", "adds",   "patch"};
  if (auto s = unknown_member(
          path, root, kKnown,
          "a mod has anvilrt_mod, name, version, author, description, game, made_for, replaces, adds, patch");
      !s.ok())
    return s;
  for (const char* required : {"anvilrt_mod", "name", "patch"})
    if (!root.HasMember(required)) return member_error(path, required, "missing (required)");
  const Value& version = root["anvilrt_mod"];
  if (!version.IsInt() || version.GetInt() != kModDocumentVersion)
    return member_error(path, "anvilrt_mod", absl::StrFormat("must be %d", kModDocumentVersion));
  return read_description(path, root, mod);
}

}  // namespace

namespace {

// A member named twice in any object of the document: RapidJSON keeps both, and which one counts is not
// JSON's to say (RFC 8259 section 4), so a mod that does it is refused, naming the member. Iterative: a
// mod may be hostile.
std::optional<std::string> member_given_twice(const Value& root) {
  std::vector<const Value*> stack{&root};
  while (!stack.empty()) {
    const Value* v = stack.back();
    stack.pop_back();
    if (v->IsArray()) {
      for (const Value& e : v->GetArray()) stack.push_back(&e);
    } else if (v->IsObject()) {
      std::set<std::string> seen;
      for (const auto& m : v->GetObject()) {
        if (!seen.insert(std::string(m.name.GetString(), m.name.GetStringLength())).second)
          return std::string(m.name.GetString(), m.name.GetStringLength());
        stack.push_back(&m.value);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> bad_mod_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return "must have 1 to 64 characters";
  if (name.front() == '.') return "must not start with '.'";
  for (char c : name)
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      return "may hold only letters, digits, '.', '_' and '-'";
  return std::nullopt;
}

absl::StatusOr<ModDocument> parse_mod(std::string_view path, std::string_view text) {
  rapidjson::Document root;
  if (auto error = parse_patch_text(text, root))
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", std::string(path), error->message()));
  if (auto twice = member_given_twice(root))
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: member \"%s\" given twice in one object", std::string(path), absl::CHexEscape(*twice)));
  ModDocument mod;
  if (root.IsArray()) {
    mod.bare_patch = true;
    mod.name = std::filesystem::path(std::string(path)).stem().string();
    if (auto bad = bad_mod_name(mod.name))
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: the file name names the mod '%s', which %s (or give the patch in a mod object with a name)",
          std::string(path), absl::CHexEscape(mod.name), *bad));
    mod.patch.Swap(root);
  } else if (root.IsObject()) {
    if (auto s = read_mod_object(path, root, mod); !s.ok()) return s;
    mod.patch.CopyFrom(root["patch"], mod.patch.GetAllocator());
  } else {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: a mod is a patch (a JSON array) or a mod object ({\"anvilrt_mod\": 1, ...})", std::string(path)));
  }
  if (auto error = check_patch_shape(mod.patch))
    return absl::InvalidArgumentError(absl::StrFormat("%s: member 'patch': %s", std::string(path), error->message()));
  return mod;
}

absl::StatusOr<ModDocument> parse_mod_description(std::string_view path, std::string_view text) {
  static constexpr const char* kKnown[] = {"name", "version", "author", "description", "game", "made_for"};
  rapidjson::Document root;
  if (auto error = parse_patch_text(text, root))
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", std::string(path), error->message()));
  if (!root.IsObject())
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: must be a JSON object of name, version, author, description, game, made_for", std::string(path)));
  if (auto twice = member_given_twice(root))
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: member \"%s\" given twice in one object", std::string(path), absl::CHexEscape(*twice)));
  ModDocument mod;
  if (auto s = unknown_member(path, root, kKnown, "it may have name, version, author, description, game, made_for");
      !s.ok())
    return s;
  if (auto s = read_description(path, root, mod); !s.ok()) return s;
  return mod;
}

absl::StatusOr<std::string> operations_text(std::string_view path, std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return std::string(text);
  rapidjson::Document root;
  root.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (root.HasParseError() || !root.IsObject() || !root.HasMember("anvilrt_mod")) return std::string(text);
  auto mod = parse_mod(path, text);
  if (!mod.ok()) return mod.status();
  // RapidJSON writes each number as the shortest text that reads back to the same double: the engine
  // reads the operations exactly as the mod spelled them.
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  mod->patch.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string mod_text(const ModDocument& mod) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("anvilrt_mod");
  w.Int(kModDocumentVersion);
  w.Key("name");
  w.String(mod.name.c_str(), static_cast<rapidjson::SizeType>(mod.name.size()));
  for (auto [member, value] : {std::pair{"version", &mod.version}, std::pair{"author", &mod.author},
                               std::pair{"description", &mod.description}}) {
    if (value->empty()) continue;
    w.Key(member);
    w.String(value->c_str(), static_cast<rapidjson::SizeType>(value->size()));
  }
  if (mod.game) {
    w.Key("game");
    w.String(mod.game->c_str());
  }
  if (!mod.made_for.empty()) {
    w.Key("made_for");
    w.StartObject();
    for (const auto& [archive, hash] : mod.made_for) {
      w.Key(archive.c_str(), static_cast<rapidjson::SizeType>(archive.size()));
      w.String(hash.c_str());
    }
    w.EndObject();
  }
  if (!mod.replaces.empty()) {
    w.Key("replaces");
    w.StartObject();
    for (const auto& [datafile, hash] : mod.replaces) {
      w.Key(datafile.c_str(), static_cast<rapidjson::SizeType>(datafile.size()));
      w.String(hash.c_str());
    }
    w.EndObject();
  }
  if (!mod.adds.empty()) {
    w.Key("adds");
    w.StartObject();
    for (const auto& [datafile, added] : mod.adds) {
      w.Key(datafile.c_str(), static_cast<rapidjson::SizeType>(datafile.size()));
      w.StartObject();
      w.Key("sha256");
      w.String(added.sha256.c_str());
      w.Key("file_id");
      w.String(absl::StrFormat("0x%x", added.file_id).c_str());
      w.Key("file_type");
      w.Uint(added.file_type);
      w.EndObject();
    }
    w.EndObject();
  }
  w.Key("patch");
  mod.patch.Accept(w);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string replaced_data_file_key(std::string_view archive, std::string_view name) {
  return std::string(archive) + "/" + std::string(name);
}

std::pair<std::string, std::string> replaced_data_file_parts(std::string_view key) {
  const std::size_t slash = key.find('/');
  return {std::string(key.substr(0, slash)), std::string(key.substr(slash + 1))};
}

}  // namespace anvil::patch
