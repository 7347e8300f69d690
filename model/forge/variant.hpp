// Which archive version a container declaration reads (FORGE.md 1 and 7): the context of the forge
// declarations, given to their serialize as its `unsigned version` (the way Boost.Serialization passes
// a class version) and carried by every archive to the structures it nests (model/layout.hpp
// ArchiveContext). Each structure states its versions once, in its own declaration; the sizes and
// offsets other code needs are taken from the declarations by wire_size() and field_offset() below,
// never typed again.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "model/forge/variant_table.hpp"
#include "model/json_text.hpp"
#include "model/layout.hpp"

namespace anvil::forge {

struct ForgeVariant {
  // The archive versions read (those pyUbiForge2 reads): the rows of model/forge/variant_table.hpp.
  static constexpr u32 kFirst = variant_table::kFirst, kLast = variant_table::kLast;

  u32 archive = kFirst;
  // The data-file layout (FORGE.md 7: pyUbiForge2's DataFileFormat 0-3): not in the file, found by content
  // (the layout whose entry tables parse exactly) or named by the user. 1 is AC2's (FORGE.md 2-3).
  u8 layout = 1;
  static constexpr u8 kLayouts = static_cast<u8>(std::size(kLayoutRows));

  // The `unsigned version` of the declarations: 0 for version 25 with layout 1, so that a declaration run
  // without a context (every object's, and every caller that predates the versions) reads AC2's form.
  constexpr unsigned code() const { return (archive - kFirst) * kLayouts + (layout ^ 1u); }
  static constexpr ForgeVariant of(unsigned code) {
    return {kFirst + code / kLayouts, static_cast<u8>((code % kLayouts) ^ 1u)};
  }
  static constexpr bool known(u32 version) { return version >= kFirst && version <= kLast; }
  static constexpr bool known_layout(unsigned layout) { return layout < kLayouts; }

  constexpr const VersionRow& version_row() const { return variant_table::row(archive); }
  constexpr const LayoutRow& layout_row() const { return variant_table::layout_row(layout); }

  // The version's facts (VersionRow): 64-bit ids; the 440-byte data file header before each stored form;
  // the 4 more kept bytes of the file-data header and of each name entry.
  constexpr bool wide_ids() const { return version_row().wide_ids; }
  constexpr bool file_header() const { return version_row().file_header; }
  constexpr bool kept_27() const { return version_row().kept_27; }
  // The hex digits of an id of this version's index entries: 8, or 16 with 64-bit ids.
  constexpr int id_digits() const { return wide_ids() ? 16 : 8; }

  // The layout's facts (LayoutRow). The stored prefix: [u32 n][8n] (pairs) or [u32 b][b bytes] (bytes).
  constexpr StoredPrefix prefix() const { return layout_row().prefix; }
  constexpr bool prefix_pairs() const { return prefix() == StoredPrefix::pairs; }
  constexpr bool prefix_bytes() const { return prefix() == StoredPrefix::bytes; }
  constexpr bool wide_counts() const { return layout_row().wide_counts; }
  constexpr bool extra() const { return layout_row().extra; }
  constexpr bool wide_entries() const { return layout_row().wide_entries; }
  constexpr bool table_tail() const { return layout_row().table_tail; }
  // Both the version's and the layout's: [u32 x][x bytes] right after the entries' table.
  constexpr bool version_tail() const { return version_row().version_tail && layout_row().version_tail; }

  friend constexpr bool operator==(ForgeVariant, ForgeVariant) = default;
};

// The data-file layouts of an archive version, the likeliest first: the order in which detection tries them.
constexpr std::span<const u8> plausible_layouts(u32 archive_version) {
  return variant_table::row(archive_version).likeliest;
}

// The algorithm of a block set's compression id (FORGE.md 2), and the id one is written with.
constexpr std::optional<Compression> compression_of(u8 id) {
  for (const CompressionId& c : kCompressionIds)
    if (c.id == id) return c.algorithm;
  return std::nullopt;
}
constexpr u8 compression_id(Compression c) { return variant_table::compression_row(c).written_id; }
constexpr std::string_view compression_name(Compression c) { return variant_table::compression_row(c).name; }
// The compression whose name is `name` ("lzo1x"), if any.
constexpr std::optional<Compression> compression_named(std::string_view name) {
  for (const CompressionRow& r : kCompressionRows)
    if (r.name == name) return r.algorithm;
  return std::nullopt;
}
constexpr bool is_oodle(u8 id) {
  for (u8 oodle : kOodleIds)
    if (oodle == id) return true;
  return false;
}

namespace variant_text {
// `prefix` followed by the versions kFirst..kLast as a sentence names them ("25, 26 or 27", with `last`
// " or "), NUL-ended: built from the range, so that a new version changes every message that lists them.
template <std::size_t N>
constexpr std::array<char, N + 64> versions_after(const char (&prefix)[N], const char* last = " or ") {
  std::array<char, N + 64> text{};
  std::size_t n = 0;
  for (std::size_t i = 0; i + 1 < N; ++i) text[n++] = prefix[i];
  for (u32 v = ForgeVariant::kFirst; v <= ForgeVariant::kLast; ++v) {
    const char* joint = v == ForgeVariant::kFirst ? "" : v == ForgeVariant::kLast ? last : ", ";
    while (*joint) text[n++] = *joint++;
    char digits[10];
    int k = 0;
    for (u32 rest = v; k == 0 || rest != 0; rest /= 10) digits[k++] = static_cast<char>('0' + rest % 10);
    while (k) text[n++] = digits[--k];
  }
  return text;
}
inline constexpr auto kVersions = versions_after("");
inline constexpr auto kVersionsAll = versions_after("", " and ");
inline constexpr auto kVersionMustBe = versions_after("version must be ");
}  // namespace variant_text

// "25, 26 or 27": the archive versions read, for every message that lists them.
constexpr const char* known_versions() { return variant_text::kVersions.data(); }
// "25, 26 and 27".
constexpr const char* all_known_versions() { return variant_text::kVersionsAll.data(); }

// A data file's id as every command prints it and every document spells it: the JSON spelling of an id
// (model/json_text.hpp) at the version's width, 8 hex digits or 16 (ForgeVariant::id_digits).
inline std::string format_id(u64 id, ForgeVariant variant) {
  return json_text::format_id(id, static_cast<std::size_t>(variant.id_digits() / 2));
}

// The conditions the declarations name for their forms, in those terms, built from the rows
// (variant_table.hpp), so that the schemas print what the readers do.
namespace variant_text {
using namespace variant_table;
inline constexpr Text kWideIds = version_condition(&VersionRow::wide_ids);
inline constexpr Text kNoFileHeader = version_condition(&VersionRow::file_header, false);
inline constexpr Text kKept27 = version_condition(&VersionRow::kept_27);
inline constexpr Text kVersionTail = [] {
  Text t = version_condition(&VersionRow::version_tail);
  return t.add(" and ").add(layout_condition(&LayoutRow::version_tail).view());
}();
inline constexpr Text kPrefixPairs = prefix_condition(StoredPrefix::pairs);
inline constexpr Text kPrefixBytes = prefix_condition(StoredPrefix::bytes);
inline constexpr Text kWideCounts = layout_condition(&LayoutRow::wide_counts);
inline constexpr Text kWideEntries = layout_condition(&LayoutRow::wide_entries);
inline constexpr Text kExtra = layout_condition(&LayoutRow::extra);
inline constexpr Text kTableTail = layout_condition(&LayoutRow::table_tail);
inline constexpr Text kLayoutList = layouts_text();                      // "0, 1, 2 or 3"
inline constexpr Text kCompressionIdList = compression_ids_text(false);  // "0, 1, 2 or 5"
inline constexpr Text kCompressionNameList = compression_names_text();   // "plain, lzo1x, lzo2a or lzo1c"
inline constexpr Text kCompressedNames = compressed_names_text();        // "LZO1X, LZO2A or LZO1C"
inline constexpr Text kVersionChoices = version_choices();               // "25|26|27"
inline constexpr Text kLayoutChoices = layout_choices();                 // "0|1|2|3"
inline constexpr Text kVersionsWithGames = versions_with_games();  // "25 (AC1 to Revelations), 26 or 27 (Unity: ...)"
inline constexpr Text kCompressionMustBe = [] {
  Text t;
  return t.add("compression must be ").add(compression_ids_text(true).view());
}();
inline constexpr Text kOodle = [] {
  Text t;
  return t.add("compression ")
      .add(oodle_ids_text().view())
      .add(" are Oodle (later games), which anvilrt does not decompress");
}();
}  // namespace variant_text
inline constexpr const char* kWideIds = variant_text::kWideIds.c_str();            // "archive_version == 27"
inline constexpr const char* kNoFileHeader = variant_text::kNoFileHeader.c_str();  // "archive_version == 27"
inline constexpr const char* kKept27 = variant_text::kKept27.c_str();              // "archive_version == 27"
// "archive_version == 26 and data_layout != 0"
inline constexpr const char* kVersionTail = variant_text::kVersionTail.c_str();
inline constexpr const char* kPrefixPairs = variant_text::kPrefixPairs.c_str();  // "data_layout == 1"
inline constexpr const char* kPrefixBytes = variant_text::kPrefixBytes.c_str();  // "data_layout == 2"
inline constexpr const char* kWideCounts = variant_text::kWideCounts.c_str();    // "data_layout == 3"
inline constexpr const char* kWideEntries = variant_text::kWideEntries.c_str();  // "data_layout >= 2"
inline constexpr const char* kExtra = variant_text::kExtra.c_str();              // "data_layout != 0"
inline constexpr const char* kTableTail = variant_text::kTableTail.c_str();      // "data_layout == 1"
// "0, 1, 2 or 3", "0, 1, 2 or 5", "plain, lzo1x, lzo2a or lzo1c": for the messages that list them.
inline constexpr const char* known_layouts() { return variant_text::kLayoutList.c_str(); }
inline constexpr const char* known_compression_ids() { return variant_text::kCompressionIdList.c_str(); }
inline constexpr const char* known_compression_names() { return variant_text::kCompressionNameList.c_str(); }
// The help texts' lists, from the same rows: "LZO1X, LZO2A or LZO1C"; "25|26|27" and "0|1|2|3" (usage
// lines); the versions and the layouts with the games that write them.
inline constexpr const char* compressed_names() { return variant_text::kCompressedNames.c_str(); }
inline constexpr const char* version_choices() { return variant_text::kVersionChoices.c_str(); }
inline constexpr const char* layout_choices() { return variant_text::kLayoutChoices.c_str(); }
inline constexpr const char* versions_with_games() { return variant_text::kVersionsWithGames.c_str(); }
inline std::string layouts_with_games(unsigned default_layout) {
  return std::string(variant_table::layouts_with_games(default_layout).view());
}

// Walks a declaration as the byte writer would, adding up the bytes of its fields and noting where the
// field named `wanted` starts: on a default value, the fixed sizes and offsets of the tables of FORGE.md 1;
// on a value read, where a data file's or a block set's parts lie (its table ends where the bodies or the
// chunks begin: `bodies_at`, where the walk ends). So no size or offset is stated beside the declaration that has it.
class FieldWalker : public ArchiveContext {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  explicit FieldWalker(unsigned version) { version_ = version; }

  std::size_t size = 0;
  std::string_view wanted;               // the field whose offset is looked for
  std::optional<std::size_t> wanted_at;  // where it starts
  std::optional<std::size_t> bodies_at;  // where the first bodies() or until_end() run starts: the walk
                                         // stops there

  template <class T>
  FieldWalker& operator&(const boost::serialization::nvp<T>& f) {
    if (!wanted_at && f.name() == wanted) wanted_at = size;
    add(f.value());
    return *this;
  }
  template <class T>
  FieldWalker& operator&(const Expect<T>&) {
    size += sizeof(T);
    return *this;
  }
  FieldWalker& operator&(const Require&) { return *this; }
  FieldWalker& operator&(const SizedBytes& s) {
    at(s.name);
    size += s.length;
    return *this;
  }
  template <class Count>
  FieldWalker& operator&(const SizeOf<Count>& s) {
    at(s.name);
    size += sizeof(Count);
    return *this;
  }
  template <class Count>
  FieldWalker& operator&(const CountedBytes<Count>& c) {
    at(c.name);
    size += sizeof(Count) + c.data.bytes.size();
    return *this;
  }
  template <class Count, class T>
  FieldWalker& operator&(const Counted<Count, T>& c) {
    at(c.name);
    size += sizeof(Count);
    for (const T& item : c.items) add(item);
    return *this;
  }
  template <class Count, class T>
  FieldWalker& operator&(const Heads<Count, T>& h) {
    at(h.name);
    size += sizeof(Count);
    for (T& item : h.items) item.serialize_head(*this);
    return *this;
  }
  template <class T>
  FieldWalker& operator&(const Bodies<T>& b) {
    if (bodies_at) return *this;
    at(b.name);
    bodies_at = size;
    return *this;
  }
  template <class T>
  FieldWalker& operator&(const UntilEnd<T>& u) {  // a block set's chunks: a run of its own, as bodies are
    if (bodies_at) return *this;
    at(u.name);
    bodies_at = size;
    return *this;
  }

 private:
  void at(Key name) {
    if (!wanted_at && name.text != nullptr && std::string_view(name.text, name.size) == wanted) wanted_at = size;
  }
  template <class T>
  void add(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      size += sizeof v;
    } else if constexpr (requires { v.value; }) {
      size += sizeof v.value;
    } else if constexpr (requires { v.bytes.size(); }) {
      size += v.bytes.size();
    } else {
      static_assert(std::is_arithmetic_v<T>, "FieldWalker: a field of numbers or bytes");
    }
  }
};

// The bytes a T of `variant` takes on the wire (its fixed size, from its declaration).
template <class T>
std::size_t wire_size(ForgeVariant variant = {}) {
  FieldWalker walker(variant.code());
  T value{};
  value.serialize(walker, variant.code());
  return walker.size;
}

// Where the field named `name` starts in a T of `variant`, from its declaration: the offsets errors
// name (where S lies in the file-data header, where a section's tables lie).
template <class T>
std::size_t field_offset(std::string_view name, ForgeVariant variant = {}) {
  FieldWalker walker(variant.code());
  walker.wanted = name;
  T value{};
  value.serialize(walker, variant.code());
  if (!walker.wanted_at) throw std::logic_error("field_offset: no such field in the declaration");
  return *walker.wanted_at;
}

}  // namespace anvil::forge
