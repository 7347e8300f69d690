// forge.json's text (pipeline/forge_list.hpp list_json): the archive's own fields, then each data file's.
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/kept_bytes.hpp"
#include "model/json_text.hpp"
#include "pipeline/forge_list.hpp"

namespace anvil::forge {
namespace {

using ListWriter = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

std::string hex_of(std::span<const u8> bytes) {
  std::string out;
  json_text::append_hex(out, bytes.data(), bytes.size());
  return out;
}

void put(ListWriter& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}
void put(ListWriter& w, const char* key, u64 value) {
  w.Key(key);
  w.Uint64(value);
}

// The archive's own fields: version, layout, kept header bytes, the file-data header's kept runs and the
// table sections (their counts and kept runs, by the declarations' names).
void write_archive(ListWriter& w, const ForgeList& list, ForgeVariant variant) {
  w.Key("archive");
  w.StartObject();
  put(w, "version", static_cast<u64>(list.head.header.version));
  put(w, "layout", static_cast<u64>(list.layout));
  put(w, "datafiles", list.archive_datafiles);
  put(w, "checksum_rule", list.checksum_rule);
  put(w, "alignment", list.head.alignment);
  put(w, "header_unknown", static_cast<u64>(list.head.header.unknown));
  put(w, "header_kept", hex_of(list.head.header.unknown_1.bytes));
  DataHeader data_header = list.head.data_header;
  for_each_kept(data_header, variant, [&](std::string_view name, std::span<u8> run) {
    put(w, data_header_member(name).c_str(), hex_of(run));
  });
  w.Key("sections");
  w.StartArray();
  for (TableSection s : list.head.sections) {
    w.StartObject();
    put(w, "count", static_cast<u64>(s.count));
    for_each_kept(s, variant,
                  [&](std::string_view name, std::span<u8> run) { put(w, std::string(name).c_str(), hex_of(run)); });
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// How a data file is stored: its compression, form, block size and the block sets' header fields.
void write_stored(ListWriter& w, const ListedDataFile& d) {
  put(w, "compression", compression_name(d.compression));
  put(w, "form", stored_form_name(d.stored.form));
  const bool plain = d.stored.form == StoredForm::plain || d.stored.form == StoredForm::empty;
  const bool table = d.stored.form == StoredForm::two_block_sets || d.stored.form == StoredForm::block_set_then_chunks;
  if (!plain) put(w, "block_size", d.stored.cut);
  if (table) put(w, "first_set_size", d.stored.first_set_size);
  if (plain) return;
  w.Key("sets");
  w.StartArray();
  for (std::size_t k = 0; k < (table ? 2u : 1u); ++k) {
    w.StartObject();
    put(w, "compression_id", static_cast<u64>(d.stored.sets[k].compression));
    put(w, "block_size_field", static_cast<u64>(d.stored.sets[k].block_size));
    put(w, "max_size", static_cast<u64>(d.stored.sets[k].max_size));
    w.EndObject();
  }
  w.EndArray();
}

void write_data_file(ListWriter& w, const ListedDataFile& d, ForgeVariant variant) {
  w.StartObject();
  put(w, "name", d.name);
  put(w, "file", d.file);
  put(w, "file_id", format_id(d.file_id, variant));
  put(w, "name_entry", printable_name(d.name_entry));
  put(w, "file_type", json_text::format_id(d.file_type, 4));
  write_stored(w, d);
  std::vector<u8> prefix;
  for (const Opaque<8>& p : d.stored.prefix) prefix.insert(prefix.end(), p.bytes.begin(), p.bytes.end());
  for (const Opaque<1>& p : d.stored.prefix_bytes) prefix.push_back(p.bytes[0]);
  put(w, "prefix", hex_of(prefix));
  w.Key("raw_size");
  if (d.raw_size.kind == RawSize::kept)
    w.Uint64(d.raw_size.value);
  else
    w.String(d.raw_size.kind == RawSize::stored ? "stored" : "decompressed");
  put(w, "name_entry_kept", hex_of(kept_bytes(d.name_kept, variant)));
  if (variant.file_header()) {
    put(w, "header_name", printable_name(d.header_name));
    put(w, "header_kept", hex_of(kept_bytes(d.header_kept, variant)));
  }
  w.EndObject();
}

}  // namespace

std::string list_json(const ForgeList& list) {
  rapidjson::StringBuffer buffer;
  ListWriter w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  put(w, "format", "anvilrt forge.json");
  put(w, "format_version", static_cast<u64>(kListFormat));
  w.Key("complete");
  w.Bool(list.complete);
  const ForgeVariant variant{list.head.header.version};
  write_archive(w, list, variant);
  w.Key("datafiles");
  w.StartArray();
  for (const ListedDataFile& d : list.datafiles) write_data_file(w, d, variant);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace anvil::forge
