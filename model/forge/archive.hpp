// A `.forge` archive as read (FORGE.md 1): its header, the file-data header at H, the table sections
// in chain order, and each data file's index and name entries and 440-byte header, with the archive
// offset each was read at. The data files' stored bytes are not held here: they stay in the mapped
// file, read one at a time (reader/forge/data_files.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/archive_header.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/data_header.hpp"
#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "model/forge/table_section.hpp"

namespace anvil::forge {

struct SectionAt {
  u64 offset = 0;
  TableSection table;
};

struct DataFileAt {
  std::size_t section = 0;  // which of Archive::sections lists it
  u64 index_entry_offset = 0;
  u64 name_entry_offset = 0;
  IndexEntry index;
  NameEntry name;
  DataFileHeader header;  // at index.offset

  u64 stored_offset() const { return index.offset + DataFileHeader::wire_size; }
  u64 end() const { return stored_offset() + index.size; }
};

struct Archive {
  ArchiveHeader header;
  DataHeader data_header;  // at header.first_header
  std::vector<SectionAt> sections;
  std::vector<DataFileAt> files;  // in section order, then table order
  u64 size = 0;                   // the archive's bytes
};

// The name a data file is shown and selected by: its name entry's text up to the first NUL.
std::string_view data_file_name(const DataFileAt& file);

// A data file's name as every command prints it (ls, verify, dump, patch, errors) and as the "datafiles"
// document spells it: bytes outside printable ASCII, and `\`, are written "\xNN" (lower-case hex), so
// that a name never reaches a terminal as a control sequence or a line break, and is ASCII, thus valid
// UTF-8 in JSON. A name from the archive is bytes, not text: this spelling is one-to-one.
std::string printable_name(std::string_view name);

// The algorithm of a block set's compression id (FORGE.md 2: 0 and 1 LZO1X, 2 LZO2A, 5 LZO1C).
enum class Compression { plain, lzo1x, lzo2a, lzo1c };
std::optional<Compression> compression_of(u8 id);
std::string_view compression_name(Compression c);

// How a block's checksum is computed (FORGE.md 2): Adler-32 started at 0 or 1, over the stored
// (compressed) or the decompressed bytes. The reader finds which hold for every block of an archive.
enum class ChecksumRule : u8 {
  adler32_0_stored = 1,
  adler32_1_stored = 2,
  adler32_0_decoded = 4,
  adler32_1_decoded = 8,
};
// A set of rules, as a bit mask of ChecksumRule; kAllRules before any block was seen.
using ChecksumRules = u8;
inline constexpr ChecksumRules kAllRules = 15;
inline constexpr ChecksumRule kChecksumRules[] = {ChecksumRule::adler32_0_stored, ChecksumRule::adler32_1_stored,
                                                  ChecksumRule::adler32_0_decoded, ChecksumRule::adler32_1_decoded};
std::string_view checksum_rule_name(ChecksumRule rule);
// The first rule of the set (in kChecksumRules order), if any.
std::optional<ChecksumRule> first_rule(ChecksumRules rules);
// "adler32-0/stored", or "none" for an empty set, "n/a" when no block carries a checksum (blocks == 0).
std::string describe_rules(ChecksumRules rules, std::size_t blocks);

}  // namespace anvil::forge
