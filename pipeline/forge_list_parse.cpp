// forge.json read back (pipeline/forge_list.hpp parse_list): every member looked up by its key, and an error
// names the member's place ("datafiles[3].file_id: ...").
#include <absl/strings/str_format.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/forge/kept_bytes.hpp"
#include "model/json_text.hpp"
#include "pipeline/forge_list.hpp"

namespace anvil::forge {
namespace {

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
  // A kept run of a declaration (model/forge/kept_bytes.hpp): optional, zero bytes when absent.
  absl::Status run(std::span<u8> out) const {
    if (!v_) return absl::OkStatus();
    auto bytes = hex(out.size());
    if (!bytes.ok()) return bytes.status();
    std::copy(bytes->begin(), bytes->end(), out.begin());
    return absl::OkStatus();
  }
  // All the kept runs of `value` end to end: optional, zero bytes when absent.
  template <class T>
  absl::Status kept(T& value, ForgeVariant variant) const {
    if (!v_) return absl::OkStatus();
    auto bytes = hex(kept_size<T>(variant));
    if (!bytes.ok()) return bytes.status();
    set_kept_bytes(value, variant, *bytes);
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

// The bytes of a name entry's and a data file header's name (FORGE.md 1), and of a layout-1 prefix record,
// as the declarations hold them.
constexpr std::size_t kNameBytes = std::tuple_size_v<decltype(std::declval<NameEntry>().name.bytes)>;
using PrefixRecord = std::remove_cvref_t<decltype(std::declval<StoredSpec>().prefix)>::value_type;
constexpr std::size_t kRecord = std::tuple_size_v<decltype(PrefixRecord{}.bytes)>;

// The data file's names, id and type.
absl::Status parse_names(const Field& f, ForgeVariant variant, ListedDataFile& d) {
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
  if (d.name_entry.size() > kNameBytes) return f.member("name_entry").error("longer than the name entry's 128 bytes");
  u64 file_type = 0;
  ANVIL_ASSIGN(file_type, f.member("file_type").id());
  d.file_type = static_cast<u32>(file_type);
  return absl::OkStatus();
}

// The block sets' header fields ("sets"; absent: the compression's id and zeros).
absl::Status parse_sets(const Field& f, ListedDataFile& d, bool table) {
  const std::size_t sets = table ? 2 : 1;
  for (std::size_t k = 0; k < 2; ++k) d.stored.sets[k].compression = compression_id(d.compression);
  Field listed = f.member("sets");
  if (listed.present()) {
    if (!listed.value().IsArray() || listed.value().Size() != sets)
      return listed.error(
          absl::StrFormat("must be an array of %d (the form '%s')", sets, stored_form_name(d.stored.form)));
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
  return absl::OkStatus();
}

// How the data file is stored: its compression, form, block size and the block sets' header fields.
absl::Status parse_stored(const Field& f, ListedDataFile& d) {
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
  if (plain) return absl::OkStatus();
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
  return parse_sets(f, d, table);
}

// The stored prefix by layout (FORGE.md 7): 8-byte records in layout 1, any bytes in layout 2, none else.
absl::Status parse_prefix(const Field& f, ForgeVariant variant, ListedDataFile& d) {
  if (!f.member("prefix").present()) return absl::OkStatus();
  std::vector<u8> prefix;
  ANVIL_ASSIGN(prefix, f.member("prefix").hex(std::nullopt));
  if (variant.prefix_pairs() && prefix.size() % kRecord != 0)
    return f.member("prefix").error("must be a whole number of 8-byte records (layout 1)");
  if (!variant.prefix_pairs() && !variant.prefix_bytes() && !prefix.empty())
    return f.member("prefix").error(absl::StrFormat("layout %d stores no prefix", variant.layout));
  if (d.stored.form == StoredForm::empty && !prefix.empty())
    return f.member("prefix").error("an empty data file has no prefix");
  if (variant.prefix_pairs())
    for (std::size_t at = 0; at < prefix.size(); at += kRecord) {
      Opaque<8> record;
      std::copy_n(prefix.begin() + static_cast<std::ptrdiff_t>(at), kRecord, record.bytes.begin());
      d.stored.prefix.push_back(record);
    }
  else
    for (u8 b : prefix) d.stored.prefix_bytes.push_back(Opaque<1>{{b}});
  return absl::OkStatus();
}

// The name entry's raw_size: "stored" (the index size), "decompressed", or a number kept.
absl::Status parse_raw_size(const Field& f, ListedDataFile& d) {
  Field raw = f.member("raw_size");
  if (!raw.present()) return absl::OkStatus();
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
  return absl::OkStatus();
}

absl::StatusOr<ListedDataFile> parse_data_file(const Field& f, ForgeVariant variant) {
  if (!f.present() || !f.value().IsObject()) return f.error("must be an object");
  ListedDataFile d;
  ANVIL_CHECK(parse_names(f, variant, d));
  ANVIL_CHECK(parse_stored(f, d));
  d.stored.variant = variant;
  ANVIL_CHECK(parse_prefix(f, variant, d));
  ANVIL_CHECK(parse_raw_size(f, d));
  ANVIL_CHECK(f.member("name_entry_kept").kept(d.name_kept, variant));
  if (f.member("header_name").present())
    ANVIL_ASSIGN(d.header_name, f.member("header_name").name());
  else
    d.header_name = d.name_entry;
  if (d.header_name.size() > kNameBytes) return f.member("header_name").error("longer than the header's 128 bytes");
  ANVIL_CHECK(f.member("header_kept").kept(d.header_kept, variant));
  return d;
}

// The kept runs of `value`, each from the member of `f` that `member_of(its name)` names (optional: zeros).
template <class T, class MemberOf>
absl::Status parse_kept_runs(const Field& f, T& value, ForgeVariant variant, MemberOf member_of) {
  absl::Status status = absl::OkStatus();
  for_each_kept(value, variant, [&](std::string_view name, std::span<u8> run) {
    if (status.ok()) status = f.member(member_of(name).c_str()).run(run);
  });
  return status;
}

// The archive's own fields ("archive"): its header, the file-data header's kept runs and the table sections.
absl::Status parse_archive(const Field& archive, ForgeList& list) {
  if (!archive.present() || !archive.value().IsObject()) return archive.error("must be an object");
  u64 v = 0;
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
  const ForgeVariant variant{list.head.header.version, list.layout};
  ANVIL_CHECK(parse_kept_runs(archive, list.head.data_header, variant, data_header_member));
  Field sections = archive.member("sections");
  if (sections.present()) {
    if (!sections.value().IsArray()) return sections.error("must be an array");
    for (rapidjson::SizeType k = 0; k < sections.value().Size(); ++k) {
      Field f(&sections.value()[k], absl::StrFormat("%s[%d]", sections.path(), k));
      if (!f.value().IsObject()) return f.error("must be an object");
      TableSection section;
      u64 count = 0;
      ANVIL_ASSIGN(count, f.member("count").number(std::numeric_limits<i32>::max()));
      section.count = static_cast<i32>(count);
      ANVIL_CHECK(parse_kept_runs(f, section, variant, [](std::string_view name) { return std::string(name); }));
      list.head.sections.push_back(section);
    }
  }
  return absl::OkStatus();
}
}  // namespace

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
  ANVIL_CHECK(parse_archive(root.member("archive"), list));
  const ForgeVariant variant{list.head.header.version, list.layout};
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
