// `forge.json`: what `extract` writes beside the data files and `pack` builds an archive from
// (docs/forge-json.md). It lists the archive's own fields and, per data file in archive order, its names,
// id, type, how it is stored (compression, form, block size) and the table bytes anvilrt keeps without
// knowing them; the data files' bytes are the NAME.data files beside it.
#pragma once

#include <absl/status/statusor.h>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/archive.hpp"
#include "writer/forge/new_archive.hpp"
#include "writer/forge/stored_form.hpp"

namespace anvil::forge {

inline constexpr std::string_view kListFile = "forge.json";
inline constexpr int kListFormat = 1;

// A name entry's raw_size (FORGE.md 1): the index size (usually), the decompressed size, or a number kept.
struct RawSize {
  enum Kind { stored, decompressed, kept } kind = stored;
  u32 value = 0;  // kept only
};

struct ListedDataFile {
  std::string name;        // the unique name (data_file_names)
  std::string file;        // the file name in the folder (file_name_of + ".data")
  u64 file_id = 0;         // 32 bits before archive version 27
  std::string name_entry;  // the name entry's text, as bytes (JSON: printable_name's spelling)
  u32 file_type = 0;
  Compression compression = Compression::plain;
  StoredSpec stored;  // form, prefix, block size, first set's size, the sets' header fields
  RawSize raw_size;
  // Kept as they are: the kept runs of the name entry and of the 440-byte header (model/forge/kept_bytes.hpp;
  // their other fields are the members above).
  NameEntry name_kept;
  std::string header_name;  // as bytes
  DataFileHeader header_kept;
};

struct ForgeList {
  bool complete = true;       // every data file of the archive is listed (and was written)
  u64 archive_datafiles = 0;  // how many the archive has
  NewArchiveHead head;        // version, kept header bytes, file-data header, sections (counts of the archive)
  u8 layout = 1;              // the data-file layout (FORGE.md 7) every data file is stored and read in
  std::string checksum_rule;  // the verdict's name: "adler32-0/stored"..., "none" or "n/a"
  std::vector<ListedDataFile> datafiles;
};

// The entry of data file `index` of `archive`, whose stored form (as read_stored() gives it: `runs` when
// skimmed, none when copied) and decompressed size are known; `name` is its unique name.
ListedDataFile listed_data_file(const Archive& archive, std::size_t index, const std::string& name,
                                const StoredDataFile& stored, std::span<const std::span<const u8>> runs,
                                u64 decoded_size);

// The archive's own fields: the header, the file-data header and the sections as the archive has them.
ForgeList list_head(const Archive& archive, const ChecksumVerdict& checksums);

// The JSON text (pipeline/forge_list_json.cpp).
std::string list_json(const ForgeList& list);

// Parses forge.json's text (pipeline/forge_list_parse.cpp). Errors are one line naming the field
// ("datafiles[3].file_id: ...").
absl::StatusOr<ForgeList> parse_list(std::string_view text);

// forge.json's member for a kept run of the file-data header (model/forge/kept_bytes.hpp): "data_header_kept"
// and what follows "unknown" in the declaration's name ("unknown_27": "data_header_kept_27").
std::string data_header_member(std::string_view name);

// The bytes a name spelled by printable_name() stand for ("\xNN" escapes decoded); none when the
// spelling is not one printable_name() makes.
std::optional<std::string> name_bytes(std::string_view printable);

}  // namespace anvil::forge
