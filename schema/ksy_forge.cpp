#include "schema/ksy_forge.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <vector>

#include "model/describe.hpp"
#include "model/forge/archive.hpp"
#include "model/forge/block_set.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/variant.hpp"
#include "model/forge/variant_table.hpp"

namespace anvil::schema {

void ksy_forge_navigation(std::map<std::string, std::string>& types) {
  types["forge_archive"] =
      "    doc: A whole .forge archive; its data-file layout (0-3) is in no file, anvilrt ls names it.\n"
      "    params:\n"
      "      - id: data_layout\n        type: u1\n"
      "    seq:\n"
      "      - id: header\n        type: forge_archive_header\n"
      "    instances:\n"
      "      data_header:\n        pos: header.first_header\n        type: forge_data_header\n"
      "      first_section:\n        pos: data_header.first_section\n        type: forge_table_section_at\n";
  types["forge_table_section_at"] =
      "    doc: A table section, its entries, and the next section.\n"
      "    seq:\n"
      "      - id: section\n        type: forge_table_section\n"
      "    instances:\n"
      "      index_entries:\n        pos: section.index_table\n        type: forge_index_entry_at\n"
      "        repeat: expr\n        repeat-expr: section.count\n"
      "      name_entries:\n        pos: section.name_table\n        type: forge_name_entry\n"
      "        repeat: expr\n        repeat-expr: section.count\n"
      "      next:\n        pos: section.next\n        type: forge_table_section_at\n"
      "        if: section.next != -1\n";
  const std::size_t file_header_size = forge::TableLayout::of({}).file_header;
  const forge::TableLayout& headless =
      forge::TableLayout::of({forge::variant_table::first_version(&forge::VersionRow::file_header, false)});
  types["forge_index_entry_at"] =
      absl::StrCat("    doc: An index entry, the data file's ", file_header_size,
                   "-byte header at its offset (none when ", forge::kNoFileHeader,
                   ") and its stored bytes after it.\n"
                   "    seq:\n"
                   "      - id: entry\n        type: forge_index_entry\n"
                   "    instances:\n"
                   "      header:\n        pos: entry.offset\n        type: forge_data_file_header\n        if: not (",
                   forge::kNoFileHeader,
                   ")\n"
                   "      stored:\n        pos: 'entry.offset + (",
                   forge::kNoFileHeader, " ? ", headless.file_header, " : ",
                   *describe::fixed_size(describe::describe_struct<forge::DataFileHeader>()),
                   ")'\n        size: entry.size\n        type: forge_stored_data_file\n        if: entry.size != 0\n",
                   "      ", forge::kArchiveVersionName, ":\n        value: _root.as<forge_archive>.header.version\n");
  // Whether block sets follow the prefix is the next 8 bytes, not a field (reader/forge/data_files.cpp looks).
  const u64 magic = forge::BlockSet::kMagic;
  std::vector<std::string> magic_bytes;
  for (int i = 0; i < 8; ++i) magic_bytes.push_back(absl::StrFormat("0x%02x", (magic >> (8 * i)) & 0xff));
  types["forge_stored_data_file"] = absl::StrCat(
      "    doc: A data file's stored bytes, its prefix by the data-file layout (model/forge/stored_data_file.hpp).\n"
      "    seq:\n"
      "      - id: num_prefix\n        type: u4\n        if: ",
      forge::kPrefixPairs,
      "\n"
      "      - id: prefix\n        size: ",
      forge::prefix_unit(forge::StoredPrefix::pairs),
      "\n        repeat: expr\n        repeat-expr: num_prefix\n        if: ", forge::kPrefixPairs, "\n",
      "      - id: num_prefix_bytes\n        type: u4\n        if: ", forge::kPrefixBytes,
      "\n"
      "      - id: prefix_bytes\n        size: num_prefix_bytes\n        if: ",
      forge::kPrefixBytes, "\n",
      "      - id: first\n        type: forge_block_set\n        if: compressed\n"
      "      - id: second\n        type: forge_block_set\n        if: compressed and first.max_size != 0\n"
      "      - id: plain\n        size-eos: true\n        if: not compressed\n"
      "    instances:\n"
      "      ",
      forge::kDataLayoutName, ":\n        value: _root.as<forge_archive>.", forge::kDataLayoutName, "\n",
      "      prefix_size:\n        value: '", forge::kPrefixPairs, " ? 4 + ",
      forge::prefix_unit(forge::StoredPrefix::pairs), " * num_prefix : ", forge::kPrefixBytes,
      " ? 4 + num_prefix_bytes : 0'\n",
      "      next_8:\n        pos: prefix_size\n        size: 8\n        if: _io.size >= prefix_size + 8\n"
      "      compressed:\n        value: '_io.size >= prefix_size + 8 and next_8 == [",
      absl::StrJoin(magic_bytes, ", "), "]'\n");
}

}  // namespace anvil::schema
