#include "pipeline/mods/mod_state.hpp"

#include <absl/strings/str_format.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <filesystem>
#include <span>

#include "codec/checksums.hpp"
#include "patch/rapidjson_document.hpp"
#include "pipeline/mods/effect_json.hpp"
#include "platform/file_stamp.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {
namespace {

using rapidjson::Value;
constexpr int kStateVersion = 1;

// Reading: every member checked, a damaged file named.
struct Reader {
  std::string path;
  absl::Status error;

  bool fail(const std::string& what) {
    if (error.ok()) error = absl::DataLossError(absl::StrFormat("%s: damaged mod state: %s", path, what));
    return false;
  }
  bool string(const Value& v, const char* key, std::string& out) {
    auto it = v.FindMember(key);
    if (it == v.MemberEnd() || !it->value.IsString()) return fail(absl::StrFormat("'%s' is not a string", key));
    out.assign(it->value.GetString(), it->value.GetStringLength());
    return true;
  }
  bool strings(const Value& v, const char* key, std::vector<std::string>& out) {
    auto it = v.FindMember(key);
    if (it == v.MemberEnd() || !it->value.IsArray()) return fail(absl::StrFormat("'%s' is not an array", key));
    for (const Value& s : it->value.GetArray()) {
      if (!s.IsString()) return fail(absl::StrFormat("'%s' holds a non-string", key));
      out.emplace_back(s.GetString(), s.GetStringLength());
    }
    return true;
  }
  bool number(const Value& v, const char* key, u64& out) {
    auto it = v.FindMember(key);
    if (it == v.MemberEnd() || !it->value.IsUint64()) return fail(absl::StrFormat("'%s' is not a count", key));
    out = it->value.GetUint64();
    return true;
  }
  bool mod(const Value& v, InstalledMod& m) {
    if (!v.IsObject() || !string(v, "name", m.name) || !strings(v, "archives", m.effect.archives) ||
        !strings(v, "datafiles", m.effect.datafiles) || !strings(v, "objects", m.effect.objects))
      return fail("a mod entry");
    auto it = v.FindMember("writes");
    if (it == v.MemberEnd() || !it->value.IsArray()) return fail("'writes' is not an array");
    for (const Value& w : it->value.GetArray()) {
      FieldWrite f;
      if (!w.IsObject() || !string(w, "pointer", f.pointer)) return fail("a write");
      if (w.HasMember("value")) {
        std::string text;
        if (!string(w, "value", text)) return false;
        f.value = text;
      }
      m.effect.writes.push_back(std::move(f));
    }
    if (v.HasMember("digest") && !string(v, "digest", m.digest)) return false;
    return true;
  }
  bool archive(const Value& v, ArchiveRecord& a) {
    u64 mtime = 0;
    if (!v.IsObject() || !number(v, "original_size", a.original_size) ||
        !string(v, "original_sha256", a.original_sha256) || !number(v, "size", a.stamp.size) ||
        !number(v, "mtime_ns", mtime))
      return fail("an archive entry");
    a.stamp.mtime_ns = static_cast<i64>(mtime);
    if (v.HasMember("crc32")) {
      u64 crc = 0;
      if (!number(v, "crc32", crc) || crc > 0xFFFFFFFFu) return fail("an archive entry's crc32");
      a.crc32 = static_cast<u32>(crc);
    }
    return true;
  }
};

}  // namespace

std::string in_folder(const std::string& dir, const std::string& relative) {
  return (std::filesystem::path(dir) / relative).string();
}

std::string state_relative() { return std::string(".anvilrt/mods/state.json"); }
std::string document_relative(const std::string& mod) { return ".anvilrt/mods/docs/" + mod + ".json"; }
std::string undo_relative(const std::string& archive) { return ".anvilrt/mods/undo/" + archive + ".undo"; }
std::string kept_data_relative(const std::string& sha256) { return ".anvilrt/mods/data/" + sha256 + ".data"; }

absl::StatusOr<ModState> load_state(const std::string& dir) {
  const std::string path = in_folder(dir, state_relative());
  ModState state;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return state;
  auto file = InputFile::open(path);  // its error names the path, with the system's reason
  if (!file.ok()) return absl::InvalidArgumentError(file.status().message());
  rapidjson::Document doc;
  doc.Parse(reinterpret_cast<const char*>(file->bytes().data()), file->bytes().size());
  Reader r{path, absl::OkStatus()};
  if (doc.HasParseError() || !doc.IsObject()) r.fail("not JSON");
  u64 version = 0;
  if (r.error.ok() && r.number(doc, "anvilrt_mods", version) && version != kStateVersion)
    r.fail(absl::StrFormat("version %d (this anvilrt reads %d)", version, kStateVersion));
  if (r.error.ok() && (!doc.HasMember("installed") || !doc["installed"].IsArray())) r.fail("'installed'");
  if (r.error.ok())
    for (const Value& v : doc["installed"].GetArray()) {
      InstalledMod m;
      if (!r.mod(v, m)) break;
      state.mods.push_back(std::move(m));
    }
  if (r.error.ok() && (!doc.HasMember("archives") || !doc["archives"].IsObject())) r.fail("'archives'");
  if (r.error.ok())
    for (auto it = doc["archives"].MemberBegin(); it != doc["archives"].MemberEnd(); ++it)
      if (!r.archive(it->value, state.archives[it->name.GetString()])) break;
  if (!r.error.ok()) return r.error;
  return state;
}

std::string state_text(const ModState& state) {
  rapidjson::StringBuffer buffer;
  ModJsonWriter w(buffer);
  w.SetIndent(' ', 1);
  w.StartObject();
  w.Key("anvilrt_mods");
  w.Int(kStateVersion);
  w.Key("installed");
  w.StartArray();
  for (const InstalledMod& m : state.mods) {
    w.StartObject();
    w.Key("name");
    w.String(m.name.c_str());
    if (!m.digest.empty()) {
      w.Key("digest");
      w.String(m.digest.c_str());
    }
    write_effect(w, m.effect, WrittenValue::as_text);
    w.EndObject();
  }
  w.EndArray();
  w.Key("archives");
  w.StartObject();
  for (const auto& [name, a] : state.archives) {
    w.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    w.StartObject();
    w.Key("original_size");
    w.Uint64(a.original_size);
    w.Key("original_sha256");
    w.String(a.original_sha256.c_str());
    w.Key("size");
    w.Uint64(a.stamp.size);
    w.Key("mtime_ns");
    w.Uint64(static_cast<u64>(a.stamp.mtime_ns));
    if (a.crc32) {
      w.Key("crc32");
      w.Uint(*a.crc32);
    }
    w.EndObject();
  }
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

absl::StatusOr<Stamp> stamp_of(const std::string& path) {
  auto stamp = platform::file_stamp(path);
  if (!stamp.ok()) return stamp.status();
  return Stamp{stamp->size, stamp->mtime_ns};
}

absl::StatusOr<u32> content_crc32(const std::string& path) {
  auto input = InputFile::open(path);
  if (!input.ok()) return input.status();
  u32 crc = 0;
  input->read_in_pieces(0, input->bytes().size(), [&](std::span<const u8> piece) { crc = codec::crc32(crc, piece); });
  return crc;
}

bool as_anvilrt_left_it(const std::string& dir, const std::string& name, ArchiveRecord& record, Scrutiny how) {
  const std::string path = in_folder(dir, name);
  auto now = stamp_of(path);
  if (!now.ok()) return false;
  const bool same_stamp = *now == record.stamp;
  if (!record.crc32) return same_stamp;
  if (same_stamp && how == Scrutiny::stamp) return true;
  if (now->size != record.stamp.size) return false;
  auto crc = content_crc32(path);
  if (!crc.ok() || *crc != *record.crc32) return false;
  record.stamp = *now;
  return true;
}

std::vector<std::string> changed_behind_our_back(const std::string& dir, ModState& state, Scrutiny how) {
  std::vector<std::string> changed;
  for (auto& [name, record] : state.archives)
    if (!as_anvilrt_left_it(dir, name, record, how)) changed.push_back(name);
  return changed;
}

}  // namespace anvil::mods
