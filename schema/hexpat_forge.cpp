// `anvilrt schema --hexpat`: the navigation of a whole `.forge` archive (FORGE.md 1) in ImHex's pattern
// language. The parts (header, tables, entries, block sets, data files) are the types schema/hexpat.cpp
// writes from their declarations; these types only place them, with `@`, at the offsets their fields
// give. Every field named here is looked up in its declaration, and every size and constant comes from
// the model, so a renamed field or a changed size fails `anvilrt schema` instead of writing a wrong
// pattern.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <stdexcept>

#include "model/forge/archive.hpp"
#include "model/forge/archive_header.hpp"
#include "model/forge/block_set.hpp"
#include "model/forge/data_file.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/data_header.hpp"
#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "model/forge/stored_data_file.hpp"
#include "model/forge/table_section.hpp"
#include "schema/hexpat.hpp"
#include "schema/schema.hpp"

namespace anvil::schema::hexpat {

namespace {

using describe::Kind;
using describe::Node;

// The field `name` of a declaration (searched through its either() forms), or an error naming it.
const Node* find_declared(const std::vector<Node>& fields, const std::string& name) {
  for (const Node& f : fields) {
    if (f.name == name) return &f;
    if (f.kind == Kind::kEither || f.kind == Kind::kGroup)
      if (const Node* found = find_declared(f.children, name)) return found;
  }
  return nullptr;
}
const Node& declared(const Node& s, const std::string& name) {
  if (const Node* found = find_declared(s.children, name)) return *found;
  throw std::logic_error(absl::StrCat("schema --hexpat: ", s.type, " declares no field ", name));
}

// The field of kind `kind` of a declaration (the first one), or an error.
const Node& declared(const Node& s, Kind kind) {
  for (const Node& f : s.children)
    if (f.kind == kind) return f;
  throw std::logic_error(absl::StrCat("schema --hexpat: ", s.type, " changed its layout"));
}

template <class T>
std::string type_of() {
  return kaitai_type_name(describe::type_name<T>());
}

}  // namespace

std::vector<PatternType> forge_navigation(const FieldLines& field_lines) {
  using describe::describe_struct;
  const Node archive = describe_struct<forge::ArchiveHeader>();
  const Node data_header = describe_struct<forge::DataHeader>();
  const Node section = describe_struct<forge::TableSection>();
  const Node index = describe_struct<forge::IndexEntry>();
  const Node stored = describe_struct<forge::StoredDataFile>();
  const Node block_set = describe_struct<forge::BlockSet>();
  const std::size_t file_header_size = *describe::fixed_size(describe_struct<forge::DataFileHeader>());
  std::vector<PatternType> out;

  // The stored bytes: the prefix as declared, then the block sets when the compression magic follows
  // (reader/forge/data_files.cpp looks at those 8 bytes), else the plain data file up to the end.
  {
    // The layout's prefix (FORGE.md 7): every field declared before the block sets.
    std::vector<std::string> prefix_lines;
    for (const Node& f : stored.children) {
      if (f.name == "first") break;
      for (std::string& l : field_lines(f)) prefix_lines.push_back(std::move(l));
    }
    if (prefix_lines.empty()) declared(stored, Kind::kCounted);  // the prefix is gone: say the layout changed
    PatternType t{type_of<forge::StoredDataFile>(), std::move(prefix_lines),
                  absl::StrCat("A data file's stored bytes, ending at ", kEnd, "."), false};
    const Node& first = declared(stored, "first");
    const Node& second = declared(stored, "second");
    const std::size_t magic_size = sizeof forge::BlockSet::kMagic;
    t.lines.push_back("bool compressed = false;");
    t.lines.push_back(absl::StrFormat(
        "if ($ + %d <= %s) compressed = std::mem::read_unsigned($, %d, std::mem::Endian::Little) == 0x%016x;",
        magic_size, kEnd, magic_size, forge::BlockSet::kMagic));
    t.lines.push_back("if (compressed) {");
    t.lines.push_back(absl::StrCat("    ", kaitai_type_name(first.children[0].type), " ", first.name, ";"));
    t.lines.push_back(absl::StrCat("    if (", first.name, ".", declared(block_set, "max_size").name, " != 0) ",
                                   kaitai_type_name(second.children[0].type), " ", second.name, ";"));
    t.lines.push_back("} else {");
    for (const std::string& l : field_lines(declared(stored, "plain"))) t.lines.push_back("    " + l);
    t.lines.push_back("}");
    out.push_back(std::move(t));
  }
  const std::string entry_offset = absl::StrCat("entry.", declared(index, "offset").name);
  const std::string entry_size = absl::StrCat("entry.", declared(index, "size").name);
  const std::size_t headless_size =
      forge::TableLayout::of({forge::variant_table::first_version(&forge::VersionRow::file_header, false)}).file_header;
  out.push_back(
      {"forge_index_entry_at",
       {absl::StrCat(type_of<forge::IndexEntry>(), " entry;"),
        absl::StrCat("u64 header_size = ", file_header_size, ";"), absl::StrCat("if (", forge::kNoFileHeader, ") {"),
        absl::StrCat("    header_size = ", headless_size, ";"), "} else {",
        absl::StrCat("    ", type_of<forge::DataFileHeader>(), " header @ ", entry_offset, ";"), "}",
        absl::StrCat("if (", entry_size, " != 0) {"),
        absl::StrCat("    ", kEnd, " = ", entry_offset, " + header_size + ", entry_size, ";"),
        absl::StrCat("    ", type_of<forge::StoredDataFile>(), " stored @ ", entry_offset, " + header_size;"), "}"},
       absl::StrCat("An index entry, the data file's ", file_header_size, "-byte header at its offset (none when ",
                    forge::kNoFileHeader, ") and its stored bytes after it."),
       false});
  const std::string count = absl::StrCat("section.", declared(section, "count").name);
  const std::string next = absl::StrCat("section.", declared(section, "next").name);
  out.push_back(
      {"forge_table_section_at",
       {absl::StrCat(type_of<forge::TableSection>(), " section;"),
        absl::StrCat("forge_index_entry_at index_entries[", count, "] @ section.",
                     declared(section, "index_table").name, ";"),
        absl::StrCat(type_of<forge::NameEntry>(), " name_entries[", count, "] @ section.",
                     declared(section, "name_table").name, ";"),
        absl::StrCat("if (", next, " != ", forge::TableSection::kLast, ") forge_table_section_at next @ ", next, ";")},
       "A table section, its entries, and the next section.",
       true});
  out.push_back({"forge_archive",
                 {absl::StrCat(type_of<forge::ArchiveHeader>(), " header;"),
                  absl::StrCat(forge::kArchiveVersionName, " = header.", declared(archive, "version").name, ";"),
                  absl::StrCat(type_of<forge::DataHeader>(), " data_header @ header.",
                               declared(archive, "first_header").name, ";"),
                  absl::StrCat("forge_table_section_at first_section @ data_header.",
                               declared(data_header, "first_section").name, ";")},
                 "A whole .forge archive.",
                 false});
  return out;
}

std::vector<std::string> forge_placements() {
  return {"forge_archive archive @ 0x00;  // a whole .forge archive",
          absl::StrCat(type_of<forge::DataFile>(),
                       " data_file @ 0x00;  // a decompressed data file, as `anvilrt extract` writes it"),
          absl::StrCat(type_of<forge::StoredDataFile>(), " stored @ 0x00;  // a data file's stored bytes alone")};
}

}  // namespace anvil::schema::hexpat
