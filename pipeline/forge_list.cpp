#include "pipeline/forge_list.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <limits>

#include "model/json_text.hpp"
#include "reader/forge/data_files.hpp"
#include "writer/forge/archive_writer.hpp"

namespace anvil::forge {
namespace {

using ListWriter = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

std::string hex_of(std::span<const u8> bytes) {
  std::string out;
  json_text::append_hex(out, bytes.data(), bytes.size());
  return out;
}

std::string text_of(std::span<const u8> fixed) {
  auto end = std::find(fixed.begin(), fixed.end(), u8{0});
  return {fixed.begin(), end};
}

void put(ListWriter& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}
void put(ListWriter& w, const char* key, u64 value) {
  w.Key(key);
  w.Uint64(value);
}

// Reading: every value is looked up by key with its place named in errors.
class Field {
 public:
  Field(const rapidjson::Value* v, std::string path) : v_(v), path_(std::move(path)) {}
  const std::string& path() const { return path_; }
  bool present() const { return v_ != nullptr; }
  const rapidjson::Value& value() const { return *v_; }

  absl::Status error(std::string_view what) const {
    return absl::InvalidArgumentError(path_ + ": " + std::string(what));
  }

  Field member(const char* key) const {
    const rapidjson::Value* m = nullptr;
    if (v_ && v_->IsObject()) {
      auto it = v_->FindMember(key);
      if (it != v_->MemberEnd()) m = &it->value;
    }
    return Field(m, path_.empty() ? std::string(key) : absl::StrCat(path_, ".", key));
  }
  absl::StatusOr<std::string> string() const {
    if (!v_) return error("missing (a string)");
    if (!v_->IsString()) return error("must be a string");
    return std::string(v_->GetString(), v_->GetStringLength());
  }
  absl::StatusOr<u64> number(u64 max) const {
    if (!v_) return error("missing (a number)");
    if (!v_->IsUint64() || v_->GetUint64() > max) return error(absl::StrFormat("must be a whole number 0..%d", max));
    return v_->GetUint64();
  }
  absl::StatusOr<bool> boolean() const {
    if (!v_) return error("missing (true or false)");
    if (!v_->IsBool()) return error("must be true or false");
    return v_->GetBool();
  }
  // "0x" and 2 x `bytes` hex digits.
  absl::StatusOr<u64> id(std::size_t bytes = 4) const {
    auto s = string();
    if (!s.ok()) return s.status();
    auto v = json_text::parse_id(*s, bytes);
    if (!v) return error(absl::StrFormat("'%s' is not \"0x\" and %d hex digits", printable_name(*s), 2 * bytes));
    return *v;
  }
  absl::StatusOr<std::vector<u8>> hex(std::optional<std::size_t> size) const {
    auto s = string();
    if (!s.ok()) return s.status();
    std::vector<u8> out;
    if (!json_text::parse_hex(*s, out)) return error("must be hex digits, two per byte");
    if (size && out.size() != *size)
      return error(absl::StrFormat("must be %d bytes (%d hex digits), not %d", *size, 2 * *size, out.size()));
    return out;
  }
  template <std::size_t N>
  absl::Status opaque(Opaque<N>& out) const {
    if (!v_) return absl::OkStatus();  // optional: zero bytes
    auto bytes = hex(N);
    if (!bytes.ok()) return bytes.status();
    std::copy(bytes->begin(), bytes->end(), out.bytes.begin());
    return absl::OkStatus();
  }
  absl::StatusOr<std::string> name() const {
    auto s = string();
    if (!s.ok()) return s.status();
    auto bytes = name_bytes(*s);
    if (!bytes) return error("a name spells a byte that is not printable ASCII, and '\\', as \\xNN (lower-case hex)");
    return *bytes;
  }

 private:
  const rapidjson::Value* v_;
  std::string path_;
};

#define ANVIL_ASSIGN(lhs, expr)                 \
  do {                                          \
    auto anvil_v = (expr);                      \
    if (!anvil_v.ok()) return anvil_v.status(); \
    lhs = std::move(*anvil_v);                  \
  } while (0)
#define ANVIL_CHECK(expr)                                     \
  do {                                                        \
    if (auto anvil_s = (expr); !anvil_s.ok()) return anvil_s; \
  } while (0)

absl::StatusOr<ListedDataFile> parse_data_file(const Field& f, ForgeVariant variant) {
  if (!f.present() || !f.value().IsObject()) return f.error("must be an object");
  ListedDataFile d;
  ANVIL_ASSIGN(d.name, f.member("name").string());
  ANVIL_ASSIGN(d.file, f.member("file").string());
  if (d.file.empty() || d.file.find('/') != std::string::npos || d.file == "." || d.file == ".." ||
      d.file.find('\0') != std::string::npos || d.file == kListFile)
    return f.member("file").error(absl::StrFormat("'%s' is not a file name of the folder", printable_name(d.file)));
  ANVIL_ASSIGN(d.file_id, f.member("file_id").id(variant.id_digits() / 2));
  if (f.member("name_entry").present())
    ANVIL_ASSIGN(d.name_entry, f.member("name_entry").name());
  else
    ANVIL_ASSIGN(d.name_entry, f.member("name").name());
  if (d.name_entry.size() > 128) return f.member("name_entry").error("longer than the name entry's 128 bytes");
  u64 file_type = 0;
  ANVIL_ASSIGN(file_type, f.member("file_type").id());
  d.file_type = static_cast<u32>(file_type);
  std::string text;
  ANVIL_ASSIGN(text, f.member("compression").string());
  auto c = compression_named(text);
  if (!c)
    return f.member("compression")
        .error(absl::StrFormat("'%s' is not %s", printable_name(text), known_compression_names()));
  d.compression = *c;
  ANVIL_ASSIGN(text, f.member("form").string());
  auto form = stored_form_named(text);
  if (!form)
    return f.member("form").error(absl::StrFormat(
        "'%s' is not plain, empty, chunks, two block sets, or block set, then chunks", printable_name(text)));
  d.stored.form = *form;
  const bool plain = d.stored.form == StoredForm::plain || d.stored.form == StoredForm::empty;
  if (plain != (d.compression == Compression::plain))
    return f.member("compression")
        .error(absl::StrFormat("%s does not go with the form '%s'", compression_name(d.compression),
                               stored_form_name(*form)));
  if (!plain) {
    ANVIL_ASSIGN(d.stored.cut, f.member("block_size").number(std::numeric_limits<u32>::max()));
    if (d.stored.cut == 0) return f.member("block_size").error("must not be 0");
    const bool table = d.stored.form != StoredForm::chunks;
    if (table && d.stored.cut > std::numeric_limits<u16>::max())
      return f.member("block_size").error("a block table's sizes are u16: at most 65535");
    if (table) {
      d.stored.first_set_size = d.stored.cut;
      if (f.member("first_set_size").present())
        ANVIL_ASSIGN(d.stored.first_set_size, f.member("first_set_size").number(std::numeric_limits<u64>::max()));
    }
    const std::size_t sets = table ? 2 : 1;
    for (std::size_t k = 0; k < 2; ++k) d.stored.sets[k].compression = compression_id(d.compression);
    Field listed = f.member("sets");
    if (listed.present()) {
      if (!listed.value().IsArray() || listed.value().Size() != sets)
        return listed.error(absl::StrFormat("must be an array of %d (the form '%s')", sets, stored_form_name(*form)));
      for (std::size_t k = 0; k < sets; ++k) {
        Field set(&listed.value()[static_cast<rapidjson::SizeType>(k)], absl::StrFormat("%s[%d]", listed.path(), k));
        if (!set.value().IsObject()) return set.error("must be an object");
        SetFields& s = d.stored.sets[k];
        u64 v = 0;
        ANVIL_ASSIGN(v, set.member("compression_id").number(255));
        auto algorithm = compression_of(static_cast<u8>(v));
        if (!algorithm)
          return set.member("compression_id").error(absl::StrFormat("%d is not %s", v, known_compression_ids()));
        if (k == 0 && *algorithm != d.compression)
          return set.member("compression_id")
              .error(absl::StrFormat("%d (%s) is not the data file's compression %s", v, compression_name(*algorithm),
                                     compression_name(d.compression)));
        s.compression = static_cast<u8>(v);
        ANVIL_ASSIGN(v, set.member("block_size_field").number(std::numeric_limits<u16>::max()));
        s.block_size = static_cast<u16>(v);
        ANVIL_ASSIGN(v, set.member("max_size").number(std::numeric_limits<u16>::max()));
        s.max_size = static_cast<u16>(v);
      }
    }
  }
  d.stored.variant = variant;
  if (f.member("prefix").present()) {
    // The stored prefix by layout (FORGE.md 7): 8-byte records in layout 1, any bytes in layout 2, none else.
    std::vector<u8> prefix;
    ANVIL_ASSIGN(prefix, f.member("prefix").hex(std::nullopt));
    if (variant.prefix_pairs() && prefix.size() % 8 != 0)
      return f.member("prefix").error("must be a whole number of 8-byte records (layout 1)");
    if (!variant.prefix_pairs() && !variant.prefix_bytes() && !prefix.empty())
      return f.member("prefix").error(absl::StrFormat("layout %d stores no prefix", variant.layout));
    if (d.stored.form == StoredForm::empty && !prefix.empty())
      return f.member("prefix").error("an empty data file has no prefix");
    if (variant.prefix_pairs())
      for (std::size_t at = 0; at < prefix.size(); at += 8) {
        Opaque<8> record;
        std::copy_n(prefix.begin() + static_cast<std::ptrdiff_t>(at), 8, record.bytes.begin());
        d.stored.prefix.push_back(record);
      }
    else
      for (u8 b : prefix) d.stored.prefix_bytes.push_back(Opaque<1>{{b}});
  }
  Field raw = f.member("raw_size");
  if (raw.present()) {
    if (raw.value().IsString() && raw.value().GetString() == std::string_view("stored")) {
      d.raw_size.kind = RawSize::stored;
    } else if (raw.value().IsString() && raw.value().GetString() == std::string_view("decompressed")) {
      d.raw_size.kind = RawSize::decompressed;
    } else if (raw.value().IsUint()) {
      d.raw_size.kind = RawSize::kept;
      d.raw_size.value = raw.value().GetUint();
    } else {
      return raw.error("must be \"stored\", \"decompressed\" or a number 0..4294967295");
    }
  }
  Field kept = f.member("name_entry_kept");
  if (kept.present()) {
    std::vector<u8> bytes;
    ANVIL_ASSIGN(bytes, kept.hex(variant.kept_27() ? 56 : 52));
    std::copy_n(bytes.begin(), 12, d.name_unknown_0.bytes.begin());
    std::copy_n(bytes.begin() + 12, 24, d.name_unknown_1.bytes.begin());
    std::copy_n(bytes.begin() + 36, 16, d.name_unknown_2.bytes.begin());
    if (variant.kept_27()) std::copy_n(bytes.begin() + 52, 4, d.name_unknown_27.bytes.begin());
  }
  if (f.member("header_name").present())
    ANVIL_ASSIGN(d.header_name, f.member("header_name").name());
  else
    d.header_name = d.name_entry;
  if (d.header_name.size() > 128) return f.member("header_name").error("longer than the header's 128 bytes");
  ANVIL_CHECK(f.member("header_kept").opaque(d.header_unknown));
  return d;
}

}  // namespace

std::optional<std::string> name_bytes(std::string_view printable) {
  std::string out;
  for (std::size_t i = 0; i < printable.size(); ++i) {
    const auto c = static_cast<unsigned char>(printable[i]);
    if (c < 0x20 || c >= 0x7f) return std::nullopt;
    if (c != '\\') {
      out += printable[i];
      continue;
    }
    int value = 0;
    if (i + 3 >= printable.size()) return std::nullopt;
    if (printable.substr(i + 1, 1) != "x" || !absl::SimpleHexAtoi(std::string(printable.substr(i + 2, 2)), &value) ||
        printable.substr(i + 2, 2) != absl::StrFormat("%02x", value))
      return std::nullopt;
    const char byte = static_cast<char>(value);
    if (value >= 0x20 && value < 0x7f && byte != '\\') return std::nullopt;  // printable_name writes it as is
    out += byte;
    i += 3;
  }
  return out;
}

ListedDataFile listed_data_file(const Archive& archive, std::size_t index, const std::string& name,
                                const StoredDataFile& stored, std::span<const std::span<const u8>> runs,
                                u64 decoded_size) {
  const DataFileAt& f = archive.files[index];
  ListedDataFile d;
  d.name = name;
  d.file = file_name_of(name, index) + ".data";
  d.file_id = f.index.file_id.value;
  d.name_entry = text_of(f.name.name.bytes);
  d.file_type = f.name.file_type;
  d.stored.form = stored_form_of(stored);
  d.stored.variant = archive.variant();
  d.stored.prefix = stored.prefix;
  d.stored.prefix_bytes = stored.prefix_bytes;
  d.compression =
      stored.first ? compression_of(stored.first->compression).value_or(Compression::lzo1x) : Compression::plain;
  // The block size is the largest block's or chunk's decompressed size (FORGE.md 5 cuts by it too).
  u64 cut = 0;
  for (const BlockAt& b : block_layout(stored, 0, runs)) {
    cut = std::max(cut, b.decoded_size);
    if (b.set == 0 && stored.second) d.stored.first_set_size += b.decoded_size;
  }
  std::size_t k = 0;
  for (const std::optional<BlockSet>* set : {&stored.first, &stored.second})
    if (set->has_value()) d.stored.sets[k++] = {(*set)->compression, (*set)->block_size, (*set)->max_size};
  d.stored.cut = cut != 0 ? cut : 0x8000;
  if (f.name.raw_size == f.index.size)
    d.raw_size.kind = RawSize::stored;
  else if (f.name.raw_size == decoded_size)
    d.raw_size.kind = RawSize::decompressed;
  else
    d.raw_size = {RawSize::kept, f.name.raw_size};
  d.name_unknown_0 = f.name.unknown_0;
  d.name_unknown_1 = f.name.unknown_1;
  d.name_unknown_2 = f.name.unknown_2;
  d.name_unknown_27 = f.name.unknown_27;
  d.header_name = text_of(f.header.name.bytes);
  d.header_unknown = f.header.unknown;
  return d;
}

ForgeList list_head(const Archive& archive, const ChecksumVerdict& checksums) {
  ForgeList list;
  list.archive_datafiles = archive.files.size();
  list.layout = archive.variant().layout;
  list.head.header = archive.header;
  list.head.data_header = archive.data_header.unknown;
  list.head.data_header_27 = archive.data_header.unknown_27;
  for (const SectionAt& s : archive.sections) {
    NewSection section;
    section.count = static_cast<std::size_t>(s.table.count);
    section.unknown_0 = s.table.unknown_0;
    section.unknown_1 = s.table.unknown_1;
    section.unknown_2 = s.table.unknown_2;
    list.head.sections.push_back(section);
  }
  list.head.alignment = data_file_alignment(archive);
  list.checksum_rule = checksums.name();
  return list;
}

std::string list_json(const ForgeList& list) {
  rapidjson::StringBuffer buffer;
  ListWriter w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  put(w, "format", "anvilrt forge.json");
  put(w, "format_version", static_cast<u64>(kListFormat));
  w.Key("complete");
  w.Bool(list.complete);
  w.Key("archive");
  w.StartObject();
  put(w, "version", static_cast<u64>(list.head.header.version));
  put(w, "layout", static_cast<u64>(list.layout));
  put(w, "datafiles", list.archive_datafiles);
  put(w, "checksum_rule", list.checksum_rule);
  put(w, "alignment", list.head.alignment);
  put(w, "header_unknown", static_cast<u64>(list.head.header.unknown));
  put(w, "header_kept", hex_of(list.head.header.unknown_1.bytes));
  put(w, "data_header_kept", hex_of(list.head.data_header.bytes));
  const ForgeVariant variant{list.head.header.version};
  if (variant.kept_27()) put(w, "data_header_kept_27", hex_of(list.head.data_header_27.bytes));
  w.Key("sections");
  w.StartArray();
  for (const NewSection& s : list.head.sections) {
    w.StartObject();
    put(w, "count", static_cast<u64>(s.count));
    put(w, "unknown_0", hex_of(s.unknown_0.bytes));
    put(w, "unknown_1", hex_of(s.unknown_1.bytes));
    put(w, "unknown_2", hex_of(s.unknown_2.bytes));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.Key("datafiles");
  w.StartArray();
  for (const ListedDataFile& d : list.datafiles) {
    w.StartObject();
    put(w, "name", d.name);
    put(w, "file", d.file);
    put(w, "file_id", format_id(d.file_id, variant));
    put(w, "name_entry", printable_name(d.name_entry));
    put(w, "file_type", json_text::format_id(d.file_type, 4));
    put(w, "compression", compression_name(d.compression));
    put(w, "form", stored_form_name(d.stored.form));
    const bool plain = d.stored.form == StoredForm::plain || d.stored.form == StoredForm::empty;
    const bool table =
        d.stored.form == StoredForm::two_block_sets || d.stored.form == StoredForm::block_set_then_chunks;
    if (!plain) put(w, "block_size", d.stored.cut);
    if (table) put(w, "first_set_size", d.stored.first_set_size);
    if (!plain) {
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
    std::vector<u8> prefix;
    for (const Opaque<8>& p : d.stored.prefix) prefix.insert(prefix.end(), p.bytes.begin(), p.bytes.end());
    for (const Opaque<1>& p : d.stored.prefix_bytes) prefix.push_back(p.bytes[0]);
    put(w, "prefix", hex_of(prefix));
    w.Key("raw_size");
    if (d.raw_size.kind == RawSize::kept)
      w.Uint64(d.raw_size.value);
    else
      w.String(d.raw_size.kind == RawSize::stored ? "stored" : "decompressed");
    std::vector<u8> kept(d.name_unknown_0.bytes.begin(), d.name_unknown_0.bytes.end());
    kept.insert(kept.end(), d.name_unknown_1.bytes.begin(), d.name_unknown_1.bytes.end());
    kept.insert(kept.end(), d.name_unknown_2.bytes.begin(), d.name_unknown_2.bytes.end());
    if (variant.kept_27()) kept.insert(kept.end(), d.name_unknown_27.bytes.begin(), d.name_unknown_27.bytes.end());
    put(w, "name_entry_kept", hex_of(kept));
    if (variant.file_header()) {
      put(w, "header_name", printable_name(d.header_name));
      put(w, "header_kept", hex_of(d.header_unknown.bytes));
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

absl::StatusOr<ForgeList> parse_list(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError())
    return absl::InvalidArgumentError(absl::StrFormat("offset %d: not JSON: %s", doc.GetErrorOffset(),
                                                      rapidjson::GetParseError_En(doc.GetParseError())));
  Field root(&doc, "");
  if (!doc.IsObject()) return absl::InvalidArgumentError("not a JSON object");
  ForgeList list;
  std::string s;
  ANVIL_ASSIGN(s, root.member("format").string());
  if (s != "anvilrt forge.json") return root.member("format").error("must be \"anvilrt forge.json\"");
  u64 v = 0;
  ANVIL_ASSIGN(v, root.member("format_version").number(std::numeric_limits<u32>::max()));
  if (v != kListFormat)
    return root.member("format_version")
        .error(absl::StrFormat("%d is not %d, the version this anvilrt reads", v, kListFormat));
  ANVIL_ASSIGN(list.complete, root.member("complete").boolean());
  Field archive = root.member("archive");
  if (!archive.present() || !archive.value().IsObject()) return archive.error("must be an object");
  ANVIL_ASSIGN(v, archive.member("version").number(std::numeric_limits<u32>::max()));
  if (!ForgeVariant::known(static_cast<u32>(v)))
    return archive.member("version").error(
        absl::StrFormat("%d: only versions %s are written", v, all_known_versions()));
  list.head.header.version = static_cast<u32>(v);
  if (archive.member("layout").present()) {  // absent in the lists of anvilrt before the layouts: AC2's
    ANVIL_ASSIGN(v, archive.member("layout").number(ForgeVariant::kLayouts - 1));
    list.layout = static_cast<u8>(v);
  }
  if (archive.member("datafiles").present())
    ANVIL_ASSIGN(list.archive_datafiles, archive.member("datafiles").number(std::numeric_limits<u64>::max()));
  list.checksum_rule = "adler32-0/stored";
  if (archive.member("checksum_rule").present())
    ANVIL_ASSIGN(list.checksum_rule, archive.member("checksum_rule").string());
  if (archive.member("alignment").present()) {
    ANVIL_ASSIGN(list.head.alignment, archive.member("alignment").number(u64{1} << 30));
    if (list.head.alignment == 0 || (list.head.alignment & (list.head.alignment - 1)) != 0)
      return archive.member("alignment").error(absl::StrFormat("%d is not a power of two", list.head.alignment));
  }
  if (archive.member("header_unknown").present()) {
    ANVIL_ASSIGN(v, archive.member("header_unknown").number(255));
    list.head.header.unknown = static_cast<u8>(v);
  }
  if (archive.member("header_kept").present())
    ANVIL_ASSIGN(list.head.header.unknown_1.bytes, archive.member("header_kept").hex(std::nullopt));
  ANVIL_CHECK(archive.member("data_header_kept").opaque(list.head.data_header));
  const ForgeVariant variant{list.head.header.version, list.layout};
  if (variant.kept_27()) ANVIL_CHECK(archive.member("data_header_kept_27").opaque(list.head.data_header_27));
  Field sections = archive.member("sections");
  if (sections.present()) {
    if (!sections.value().IsArray()) return sections.error("must be an array");
    for (rapidjson::SizeType k = 0; k < sections.value().Size(); ++k) {
      Field f(&sections.value()[k], absl::StrFormat("%s[%d]", sections.path(), k));
      if (!f.value().IsObject()) return f.error("must be an object");
      NewSection section;
      ANVIL_ASSIGN(section.count, f.member("count").number(std::numeric_limits<i32>::max()));
      ANVIL_CHECK(f.member("unknown_0").opaque(section.unknown_0));
      ANVIL_CHECK(f.member("unknown_1").opaque(section.unknown_1));
      ANVIL_CHECK(f.member("unknown_2").opaque(section.unknown_2));
      list.head.sections.push_back(section);
    }
  }
  Field files = root.member("datafiles");
  if (!files.present() || !files.value().IsArray()) return files.error("must be an array");
  for (rapidjson::SizeType k = 0; k < files.value().Size(); ++k) {
    ListedDataFile d;
    ANVIL_ASSIGN(d, parse_data_file(Field(&files.value()[k], absl::StrFormat("datafiles[%d]", k)), variant));
    list.datafiles.push_back(std::move(d));
  }
  return list;
}

}  // namespace anvil::forge
