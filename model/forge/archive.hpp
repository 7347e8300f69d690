// A `.forge` archive as read (FORGE.md 1): its header, the file-data header at H, the table sections
// in chain order, and each data file's index and name entries and 440-byte header (none in version 27:
// FORGE.md 7), with the archive
// offset each was read at. The data files' stored bytes are not held here: they stay in the mapped
// file, read one at a time (reader/forge/data_files.hpp).
#pragma once

#include <array>
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/archive_header.hpp"
#include "model/forge/checksum_rule.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/data_header.hpp"
#include "model/forge/forge_error.hpp"
#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "model/forge/table_section.hpp"
#include "model/set_once.hpp"

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

  // The archive's checksum vote (FORGE.md 2), the last part of its resolved variant: nothing until a
  // command that checks blocks asks the resolver for it (reader/forge/variant_resolver.hpp checksum_rule(),
  // which votes over every block once), then the same for every reader of this archive. A copy of the
  // archive starts without it (a copy may be changed into another archive).
  const ArchiveChecksums* checksums() const { return checksums_.get(); }

 private:
  friend void resolve_layout(Archive& archive, u8 layout);

  // Sets the archive's checksum vote: once, as resolve_layout() sets the layout (a second set, or one after
  // the vote, is a std::logic_error). For a caller that voted in a pass of its own (ls reads the tables in
  // the voting pass) or knows the votes (a key cache's).
  void resolve_checksums(const Archive& archive, ArchiveChecksums checksums);
  // The archive's checksum vote, from `vote` on the first call: one caller votes, any other waits for it
  // (reader/forge/variant_resolver.hpp checksum_rule() is the one caller).
  const ArchiveChecksums& checksums_or_vote(const Archive& archive, const std::function<ArchiveChecksums()>& vote);
  friend void resolve_checksums(const Archive& archive, ArchiveChecksums checksums);
  friend const ArchiveChecksums& checksums_or_vote(const Archive& archive,
                                                   const std::function<ArchiveChecksums()>& vote);
  std::optional<u8> layout_;
  SetOnce<ArchiveChecksums> checksums_;
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
// The same of a name held as bytes (a resource's name in a data file's entry).
std::string printable_name(std::span<const u8> name);

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
}  // namespace anvil::forge
