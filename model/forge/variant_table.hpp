// Every fact that differs between the archive versions and the data-file layouts of `.forge` archives
// (FORGE.md 2, 7), each stated once, as LLVM's ELFType states an ELF class's: one row per version, one per
// layout, one per compression id. The declarations (model/forge/*.hpp) ask ForgeVariant
// (model/forge/variant.hpp), whose predicates read these rows; the readers, writers, layout detection and
// the schema writers ask the same rows, and every message that lists versions, layouts or compression ids,
// and every condition a schema prints, is built from them. A new archive version is a row here, plus the
// fields its declarations gain (docs/design.md: "Adding an archive version").
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "model/primitives.hpp"

namespace anvil::forge {

// What a data file's stored form starts with before its block sets (FORGE.md 7).
enum class StoredPrefix : u8 {
  none,
  pairs,  // [u32 n][8n bytes]
  bytes,  // [u32 b][b bytes]
};

// The facts of one archive version.
struct VersionRow {
  u32 version = 0;
  bool wide_ids = false;          // an index entry's file_id: a u64 (a u32 otherwise)
  bool file_header = true;        // the 440-byte DataFileHeader before each data file's stored form (the index
                                  // entry's offset is that header's; without it, the stored bytes')
  bool kept_27 = false;           // 4 more kept bytes at the end of the file-data header (S at H + 36) and of each
                                  // name entry (192 bytes)
  bool version_tail = false;      // [u32 x][x bytes] right after a data file's entries' table, in the layouts
                                  // that have one (LayoutRow::version_tail)
  std::array<u8, 4> likeliest{};  // its data-file layouts, the likeliest first (pyUbiForge2's game classes)
  std::string_view games;         // the games known to write it, as the help texts name them ("" when none is)
};

inline constexpr VersionRow kVersionRows[] = {
    // AC1 (layout 0), AC2 to Revelations (layout 1), and the rest after.
    {.version = 25, .likeliest = {1, 0, 2, 3}, .games = "AC1 to Revelations"},
    {.version = 26, .version_tail = true, .likeliest = {1, 2, 3, 0}, .games = ""},
    // Unity (layout 3).
    {.version = 27,
     .wide_ids = true,
     .file_header = false,
     .kept_27 = true,
     .likeliest = {3, 2, 1, 0},
     .games = "Unity"},
};

// The facts of one data-file layout (pyUbiForge2's DataFileFormat 0-3): not in the file, found by content
// or named by the user. Its row's index is its number.
struct LayoutRow {
  StoredPrefix prefix = StoredPrefix::none;
  bool wide_counts = false;   // a block set's block count and a plain chunk's size: u32 (u16 otherwise)
  bool extra = false;         // an entry's i16 after its data_size
  bool wide_entries = false;  // an entry's id a u64, and e pairs of 2 bytes after its i16 e when e > 0
  bool table_tail = false;    // [u32 m][m bytes] after the entries' table
  bool version_tail = false;  // the version's tail (VersionRow::version_tail) is there
  std::string_view games;     // the games whose data files are laid out so, as the help texts name them
};

inline constexpr LayoutRow kLayoutRows[] = {
    {.games = "AC1"},
    {.prefix = StoredPrefix::pairs, .extra = true, .table_tail = true, .version_tail = true, .games = "AC2"},
    {.prefix = StoredPrefix::bytes, .extra = true, .wide_entries = true, .version_tail = true, .games = "AC3, AC4"},
    {.wide_counts = true, .extra = true, .wide_entries = true, .version_tail = true, .games = "Unity"},
};

// The bytes of one element of a stored prefix: 8, 1, or 0 without one.
constexpr std::size_t prefix_unit(StoredPrefix prefix) {
  return prefix == StoredPrefix::pairs ? 8 : prefix == StoredPrefix::bytes ? 1 : 0;
}

// The algorithm of a block set (FORGE.md 2), and how a data file without block sets is named.
enum class Compression { plain, lzo1x, lzo2a, lzo1c };

struct CompressionRow {
  Compression algorithm;
  std::string_view name;  // as `ls` prints it and forge.json spells it
  u8 written_id;          // the id a block set of it is written with
};
inline constexpr CompressionRow kCompressionRows[] = {
    {Compression::plain, "plain", 1},  // a plain data file has no block set: a chunk compressed in it is LZO1X
    {Compression::lzo1x, "lzo1x", 1},
    {Compression::lzo2a, "lzo2a", 2},
    {Compression::lzo1c, "lzo1c", 5},
};

// A block set's compression id, read: the algorithm it names.
struct CompressionId {
  u8 id;
  Compression algorithm;
};
inline constexpr CompressionId kCompressionIds[] = {
    {0, Compression::lzo1x}, {1, Compression::lzo1x}, {2, Compression::lzo2a}, {5, Compression::lzo1c}};
// The ids of later games' Oodle compression (Blacksmith's Compression.cs), which no Debian library decodes:
// said apart, so that such an archive is not taken for a damaged one.
inline constexpr u8 kOodleIds[] = {4, 7, 8};

// The archive version as the schema's descriptions name it: the Kaitai one defines it as the instance
// `_root.as<forge_archive>.header.version` in each type whose fields depend on it, the ImHex one as a global
// that the archive's header sets (schema/ksy.cpp, schema/hexpat_forge.cpp).
inline constexpr const char* kArchiveVersionName = "archive_version";
// The data-file layout as the schema's descriptions name it: not in the file, so the Kaitai description
// declares it a param-like instance and the ImHex one a global, both 1 (AC2) until the user changes them.
inline constexpr const char* kDataLayoutName = "data_layout";

namespace variant_table {

inline constexpr u32 kFirst = kVersionRows[0].version;
inline constexpr u32 kLast = kVersionRows[std::size(kVersionRows) - 1].version;
static_assert(kLast - kFirst + 1 == std::size(kVersionRows), "one row per version, ascending, none left out");

// The row of `version`: the first's for a version not read (which the archive header refuses).
constexpr const VersionRow& row(u32 version) {
  return version >= kFirst && version <= kLast ? kVersionRows[version - kFirst] : kVersionRows[0];
}
constexpr const LayoutRow& layout_row(unsigned layout) {
  return layout < std::size(kLayoutRows) ? kLayoutRows[layout] : kLayoutRows[0];
}

constexpr const CompressionRow& compression_row(Compression c) {
  for (const CompressionRow& r : kCompressionRows)
    if (r.algorithm == c) return r;
  return kCompressionRows[0];
}

// A NUL-ended text built at compile time from the rows (the messages that list them, the schema conditions).
struct Text {
  std::array<char, 160> chars{};
  std::size_t size = 0;
  constexpr Text& add(std::string_view s) {
    for (char c : s) chars[size++] = c;
    return *this;
  }
  constexpr Text& number(u32 n) {
    char digits[10];
    int k = 0;
    for (u32 rest = n; k == 0 || rest != 0; rest /= 10) digits[k++] = static_cast<char>('0' + rest % 10);
    while (k) chars[size++] = digits[--k];
    return *this;
  }
  constexpr Text& upper(std::string_view s) {
    for (char c : s) chars[size++] = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    return *this;
  }
  // The joint before item i of n: "", ", " or `last`.
  constexpr Text& joint(std::size_t i, std::size_t n, std::string_view last) {
    return add(i == 0 ? "" : i + 1 == n ? last : ", ");
  }
  constexpr const char* c_str() const { return chars.data(); }
  constexpr std::string_view view() const { return {chars.data(), size}; }
};

// The condition under which `value` is one of those `has` marks, in the schema's terms ("data_layout >= 2"):
// one value "v == a", all but one "v != b", a run to the last "v >= a", else "v == a or v == b".
template <std::size_t N>
constexpr Text condition(std::string_view variable, const std::array<u32, N>& values, const std::array<bool, N>& has) {
  std::size_t count = 0, first = N, missing = N;
  for (std::size_t i = 0; i < N; ++i) {
    if (has[i] && first == N) first = i;
    if (!has[i]) missing = i;
    count += has[i];
  }
  Text t;
  if (count == 1) return t.add(variable).add(" == ").number(values[first]);
  if (count + 1 == N) return t.add(variable).add(" != ").number(values[missing]);
  bool run = count > 0;
  for (std::size_t i = first; i < N; ++i) run = run && has[i];
  if (run) return t.add(variable).add(" >= ").number(values[first]);
  for (std::size_t i = 0, k = 0; i < N; ++i)
    if (has[i]) t.add(k++ ? " or " : "").add(variable).add(" == ").number(values[i]);
  return t;
}

// The condition on the archive version under which `flag` is `value`.
constexpr Text version_condition(bool VersionRow::*flag, bool value = true) {
  std::array<u32, std::size(kVersionRows)> values{};
  std::array<bool, std::size(kVersionRows)> has{};
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = kVersionRows[i].version;
    has[i] = kVersionRows[i].*flag == value;
  }
  return condition(kArchiveVersionName, values, has);
}
// The condition on the data-file layout under which `flag` holds (or the prefix is `prefix`).
constexpr Text layout_condition(bool LayoutRow::*flag) {
  std::array<u32, std::size(kLayoutRows)> values{};
  std::array<bool, std::size(kLayoutRows)> has{};
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<u32>(i);
    has[i] = kLayoutRows[i].*flag;
  }
  return condition(kDataLayoutName, values, has);
}
constexpr Text prefix_condition(StoredPrefix prefix) {
  std::array<u32, std::size(kLayoutRows)> values{};
  std::array<bool, std::size(kLayoutRows)> has{};
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<u32>(i);
    has[i] = kLayoutRows[i].prefix == prefix;
  }
  return condition(kDataLayoutName, values, has);
}

// The first version whose `flag` is `value` (the row a schema writer measures a form by).
constexpr u32 first_version(bool VersionRow::*flag, bool value = true) {
  for (const VersionRow& r : kVersionRows)
    if (r.*flag == value) return r.version;
  return kFirst;
}

// "0, 1, 2 or 3": the layouts.
constexpr Text layouts_text() {
  Text t;
  for (std::size_t i = 0; i < std::size(kLayoutRows); ++i) t.joint(i, std::size(kLayoutRows), " or ").number(i);
  return t;
}
// "0, 1, 2 or 5": the compression ids read; with `named`, "0, 1 (LZO1X), 2 (LZO2A) or 5 (LZO1C)".
constexpr Text compression_ids_text(bool named) {
  Text t;
  constexpr std::size_t n = std::size(kCompressionIds);
  for (std::size_t i = 0; i < n; ++i) {
    t.joint(i, n, " or ").number(kCompressionIds[i].id);
    const Compression c = kCompressionIds[i].algorithm;
    if (named && (i + 1 == n || kCompressionIds[i + 1].algorithm != c))
      t.add(" (").upper(compression_row(c).name).add(")");
  }
  return t;
}
// "plain, lzo1x, lzo2a or lzo1c": the compressions' names.
constexpr Text compression_names_text() {
  Text t;
  for (std::size_t i = 0; i < std::size(kCompressionRows); ++i)
    t.joint(i, std::size(kCompressionRows), " or ").add(kCompressionRows[i].name);
  return t;
}
// "25|26|27" and "0|1|2|3": the versions and the layouts as a usage line offers them.
constexpr Text version_choices() {
  Text t;
  for (std::size_t i = 0; i < std::size(kVersionRows); ++i) t.add(i == 0 ? "" : "|").number(kVersionRows[i].version);
  return t;
}
constexpr Text layout_choices() {
  Text t;
  for (std::size_t i = 0; i < std::size(kLayoutRows); ++i) t.add(i == 0 ? "" : "|").number(static_cast<u32>(i));
  return t;
}
// "25 (AC1 to Revelations), 26 or 27 (Unity: 64-bit ids, no data file headers)": each version with the games
// known to write it and what sets it apart from the first version.
constexpr Text versions_with_games() {
  Text t;
  constexpr std::size_t n = std::size(kVersionRows);
  for (std::size_t i = 0; i < n; ++i) {
    const VersionRow& r = kVersionRows[i];
    t.joint(i, n, " or ").number(r.version);
    const bool differs = r.wide_ids || !r.file_header;
    if (r.games.empty() && !differs) continue;
    t.add(" (").add(r.games).add(r.games.empty() || !differs ? "" : ": ");
    if (r.wide_ids) t.add("64-bit ids").add(r.file_header ? "" : ", ");
    if (!r.file_header) t.add("no data file headers");
    t.add(")");
  }
  return t;
}
// "0 (AC1), 1 (AC2, the default), 2 (AC3, AC4) or 3 (Unity)": each layout with the games that use it;
// `default_layout` marked.
constexpr Text layouts_with_games(unsigned default_layout) {
  Text t;
  constexpr std::size_t n = std::size(kLayoutRows);
  for (std::size_t i = 0; i < n; ++i)
    t.joint(i, n, " or ")
        .number(static_cast<u32>(i))
        .add(" (")
        .add(kLayoutRows[i].games)
        .add(i == default_layout ? ", the default)" : ")");
  return t;
}
// "LZO1X, LZO2A or LZO1C": the algorithms of compressed data files, as prose names them.
constexpr Text compressed_names_text() {
  static_assert(kCompressionRows[0].algorithm == Compression::plain, "the first row is plain's");
  Text t;
  constexpr std::size_t n = std::size(kCompressionRows) - 1;  // the first row is "plain"
  for (std::size_t i = 0; i < n; ++i) t.joint(i, n, " or ").upper(kCompressionRows[i + 1].name);
  return t;
}

// "4, 7 and 8": the Oodle ids.
constexpr Text oodle_ids_text() {
  Text t;
  for (std::size_t i = 0; i < std::size(kOodleIds); ++i) t.joint(i, std::size(kOodleIds), " and ").number(kOodleIds[i]);
  return t;
}

}  // namespace variant_table

}  // namespace anvil::forge
