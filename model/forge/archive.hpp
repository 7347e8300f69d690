// A `.forge` archive as read (FORGE.md 1): its header, the file-data header at H, the table sections
// in chain order, and each data file's index and name entries and 440-byte header (none in version 27:
// FORGE.md 7), with the archive
// offset each was read at. The data files' stored bytes are not held here: they stay in the mapped
// file, read one at a time (reader/forge/data_files.hpp).
#pragma once

#include <array>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/archive_header.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/data_header.hpp"
#include "model/forge/forge_error.hpp"
#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "model/forge/table_section.hpp"

namespace anvil::forge {

// The sizes and offsets of the tables of one archive version, each taken from its declaration.
struct TableLayout {
  ForgeVariant variant;
  std::size_t data_header = 0;       // DataHeader
  std::size_t section = 0;           // TableSection
  std::size_t index_entry = 0;       // IndexEntry
  std::size_t name_entry = 0;        // NameEntry
  std::size_t file_header = 0;       // DataFileHeader before each data file's stored bytes; 0 in version 27
  std::size_t first_section_at = 0;  // where S lies in DataHeader
  std::size_t index_table_at = 0, next_at = 0, name_table_at = 0;  // where a section's offsets lie

  static const TableLayout& of(ForgeVariant variant);
};

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
  DataFileHeader header;  // at index.offset, when the archive's version has one (header_size != 0)
  u64 header_size = 0;    // TableLayout::file_header of the archive

  u64 stored_offset() const { return index.offset + header_size; }
  u64 end() const { return stored_offset() + index.size; }
};

struct Archive {
  ArchiveHeader header;    // its version is the context every structure after it is read with
  DataHeader data_header;  // at header.first_header
  std::vector<SectionAt> sections;
  std::vector<DataFileAt> files;  // in section order, then table order
  u64 size = 0;                   // the archive's bytes

  // The version and data-file layout (FORGE.md 7) its data files are read in: the header's version, and the
  // layout resolve_layout() set, once (reader/forge/variant_resolver.hpp: named by the user or found by
  // content); until then the version's likeliest, for a command that reads the tables alone.
  ForgeVariant variant() const {
    return {header.version, layout_ ? *layout_ : plausible_layouts(header.version).front()};
  }
  bool resolved() const { return layout_.has_value(); }
  const TableLayout& layout() const { return TableLayout::of(variant()); }

 private:
  friend void resolve_layout(Archive& archive, u8 layout);
  std::optional<u8> layout_;
};

// Sets the archive's data-file layout: once, by the resolver (reader/forge/variant_resolver.hpp) or a caller
// that wrote the archive in a known one. A second call is a logic error (std::logic_error): a layout is
// tried by passing a candidate ForgeVariant to the read functions, not by setting it.
void resolve_layout(Archive& archive, u8 layout);

// Data file `index` as an error names it (ForgeError::DataFile), and that name as text:
// "data file 3 'level_01' (0x0001a2b3)".
ForgeError::DataFile data_file_ref(const Archive& archive, std::size_t index);
std::string data_file_label(const Archive& archive, std::size_t index);

// A data file's name entry's text up to the first NUL, as stored: what data_file_names() starts from.
std::string_view data_file_name(const DataFileAt& file);

// A data file's name as every command prints it (ls, verify, dump, patch, errors) and as the "datafiles"
// document spells it: bytes outside printable ASCII, and `\`, are written "\xNN" (lower-case hex), so
// that a name never reaches a terminal as a control sequence or a line break, and is ASCII, thus valid
// UTF-8 in JSON. A name from the archive is bytes, not text: this spelling is one-to-one.
std::string printable_name(std::string_view name);

// The name of every data file of the archive (its unique name), which every command shows and takes: `ls`,
// the keys of the "datafiles" document (`dump`, `patch`'s /datafiles/NAME/...), `extract NAME` and its
// file NAME.data (as file_name_of() writes it). It is the name entry's text, spelled by printable_name; a
// data file whose name an earlier one has (ASCII case ignored, as some file systems ignore it) is named
// "<name>@0x<file_id>", and "<name>@0x<file_id>@<index>" when that is taken too.
std::vector<std::string> data_file_names(const Archive& archive);

// The file name (without ".data") a unique name is written as: the name itself, except that the characters
// some file system refuses or changes are spelled "%NN" (lowercase hex of the byte): '/', '\', ':', '*',
// '?', '"', '<', '>', '|' and '%' itself; each "\xNN" escape (a byte that is not printable ASCII) becomes
// "%NN"; a leading '.' (a hidden file), and the last letter of a name Windows reserves for a device
// (CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM1-9, LPT1-9, ASCII case ignored, alone or before spaces or a
// '.') are spelled "%NN" too.
// An empty name is "%".
// A result over 240 characters is cut to 200 (never inside a "%NN") and ends "%-<index>" (`index`: the
// data file's), so that it fits any file system; no other name has "%-". Distinct unique names give file
// names that differ even when case is ignored.
std::string file_name_of(std::string_view unique_name, std::size_t index);

// The data files a selector names, ascending: the one whose unique name it is (`names`: data_file_names());
// else the one whose file name (file_name_of) it is; else, for "0x" and 1 to 8 hex digits, every data file
// with that file_id. Empty when it names none.
std::vector<std::size_t> find_data_files(const Archive& archive, std::span<const std::string> names,
                                         std::string_view selector);

// How a block's checksum is computed (FORGE.md 2): Adler-32 started at 0 or 1, over the stored
// (compressed) or the decompressed bytes. Which one an archive uses is not known in advance: the
// archive's blocks vote (ChecksumVote) and the verdict (judge) is its rule.
enum class ChecksumRule : u8 {
  adler32_0_stored = 1,
  adler32_1_stored = 2,
  adler32_0_decoded = 4,
  adler32_1_decoded = 8,
};
// A set of rules, as a bit mask of ChecksumRule: the candidates one block's checksum matches.
using ChecksumRules = u8;
inline constexpr ChecksumRules kAllRules = 15;
inline constexpr ChecksumRules kStoredRules = 3;  // the two candidates over the stored bytes
// The candidates in the order that breaks a tie.
inline constexpr ChecksumRule kChecksumRules[] = {ChecksumRule::adler32_0_stored, ChecksumRule::adler32_1_stored,
                                                  ChecksumRule::adler32_0_decoded, ChecksumRule::adler32_1_decoded};
inline constexpr std::size_t kCandidates = std::size(kChecksumRules);
std::string_view checksum_rule_name(ChecksumRule rule);
// The position of `rule` in kChecksumRules.
std::size_t candidate_index(ChecksumRule rule);

// How many checksummed blocks (blocks and chunks that carry a checksum) match each candidate. Votes of
// data files add up to the archive's, so they can be counted one data file at a time, in any order.
struct ChecksumVote {
  std::array<std::size_t, kCandidates> matched{};  // per candidate, in kChecksumRules order
  std::size_t blocks = 0;                          // checksummed blocks counted
  // Whether the candidates over the decompressed bytes were counted (a vote over the stored bytes alone
  // leaves them at 0).
  bool decoded = false;

  // One block, matching the candidates `rules`.
  void count(ChecksumRules rules);
  ChecksumVote& operator+=(const ChecksumVote& other);
  // Whether every block counted matches `rule`.
  bool all_match(ChecksumRule rule) const { return matched[candidate_index(rule)] == blocks; }
};

// The archive's checksum rule (FORGE.md 2): the candidate the most blocks match, provided it matches more
// than half of them; every block it does not match is damaged. Without one (`rule` empty and blocks > 0)
// the rule is "none": nothing is checked, and a compressed block cannot be given a checksum.
struct ChecksumVerdict {
  std::optional<ChecksumRule> rule;
  std::size_t matched = 0;           // blocks the rule matches; with no rule, the best candidate's
  std::optional<ChecksumRule> best;  // with no rule: the candidate `matched` counts (none when no block matched any)
  std::size_t blocks = 0;            // checksummed blocks of the archive

  // "adler32-0/stored (41 of 42 blocks)", "none (the best candidate, adler32-0/stored, matches 20 of 42
  // blocks)", "none (no candidate matches any of 42 blocks)", or "n/a" when no block carries a checksum.
  std::string describe() const;
  // The rule's name alone: "adler32-0/stored", "none" or "n/a".
  std::string name() const;
  // Whether a block whose checksum matches `rules` is damaged: never without a rule.
  bool damaged(ChecksumRules rules) const { return rule && (rules & static_cast<u8>(*rule)) == 0; }
  // Whether a vote over the stored bytes alone is final: it found a rule, or there was nothing to check.
  // Otherwise the blocks are decompressed and the rules over the decompressed bytes vote too (FORGE.md 2).
  bool settled() const { return blocks == 0 || rule.has_value(); }
};

// The verdict of a vote: among the candidates it counted (the two over the stored bytes unless
// vote.decoded), the one most blocks match, ties going to the first in kChecksumRules; a rule only when
// it matches more than half of vote.blocks.
ChecksumVerdict judge(const ChecksumVote& vote);

}  // namespace anvil::forge
