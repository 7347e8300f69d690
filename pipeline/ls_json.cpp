#include "pipeline/ls_json.hpp"

#include <rapidjson/encodings.h>
#include <rapidjson/stringbuffer.h>

#include "model/forge/archive_header.hpp"
#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "reader/forge/summary.hpp"
#include "writer/json_member.hpp"

namespace anvil::forge {

std::string ls_json_path(const std::string& path) {
  rapidjson::StringStream in(path.c_str());
  rapidjson::StringBuffer ignored;
  while (in.Tell() < path.size())
    if (!rapidjson::UTF8<>::Validate(in, ignored)) return printable_name(path);
  return path;
}

LsJson::LsJson(std::ostream& out, bool several, bool objects)
    : out_(out), several_(several), objects_(objects), stream_(out), json_(stream_) {
  if (several_) json_.StartArray();
}

void LsJson::string(const char* key, const std::string& value) {
  json_.Key(key);
  json_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void LsJson::number(const char* key, u64 value) {
  json_.Key(key);
  json_.Uint64(value);
}

void LsJson::unlisted(const std::string& path, const std::string& reason) {
  if (!several_) return;
  json_.StartObject();
  string("archive", ls_json_path(path));
  string("error", reason);
  json_.EndObject();
}

void LsJson::head(const std::string& path, const Archive& archive) {
  json_.StartObject();
  string("archive", ls_json_path(path));
  write_member(json_, archive.header, archive.variant().code(), "version");
  json_.Key("datafiles");
  json_.StartArray();
}

// What ls shows of a data file before reading its blocks: from the tables alone. Its name is the one every
// command takes (data_file_names), spelled by printable_name, so that a control character in an archive
// never reaches the terminal.
void LsJson::table_members(const Archive& archive, const std::vector<std::string>& names, std::size_t i) {
  const DataFileAt& f = archive.files[i];
  const unsigned version = archive.variant().code();
  number("index", i);
  write_member(json_, f.index, version, "file_id");
  string("name", names[i]);
  write_member(json_, f.name, version, "file_type");
  write_member(json_, f.index, version, "offset");  // its 440-byte header's (version 27: its stored bytes')
  number("stored_offset", f.stored_offset());
  write_member(json_, f.index, version, "size");  // of its stored bytes
  number("layout", archive.variant().layout);     // the data-file layout (FORGE.md 7)
}

void LsJson::data_file(const Archive& archive, const std::vector<std::string>& names, std::size_t i,
                       const ListedSummary& summary) {
  json_.StartObject();
  table_members(archive, names, i);
  if (!summary.ok()) {
    string("error", std::string(summary.status().message()));
    json_.EndObject();
    return;
  }
  const DataFileSummary& s = *summary;
  number("decompressed_size", s.decompressed_size);
  string("compression", std::string(compression_name(s.compression)));
  string("checksum_rule", s.rule);
  if (objects_) {
    number("entries", s.entries);
    json_.Key("objects");
    json_.StartObject();
    for (const auto& [name, n] : s.objects) number(name.c_str(), n);
    json_.EndObject();
  }
  json_.EndObject();
}

void LsJson::tail(const ArchiveChecksums& checksums) {
  json_.EndArray();
  string("checksum_rule", checksums.verdict.name());
  number("checksum_blocks_matched", checksums.verdict.matched);
  number("checksum_blocks", checksums.verdict.blocks);
  json_.EndObject();
}

void LsJson::end() {
  if (several_) json_.EndArray();
  if (several_ || json_.IsComplete()) out_ << "\n";
}

}  // namespace anvil::forge
