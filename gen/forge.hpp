// Synthetic `.forge` archives (`anvilrt gen --forge`): generated level data (gen::generate) in the
// bodies of data files' entry tables (FORGE.md 3), stored in every form of FORGE.md 2 in turn: LZO1X in
// two block sets, LZO2A in chunks, plain, LZO2A in two sets (the second in chunks), LZO1X in chunks;
// two table sections; padding between data files. Checksums are Adler-32 started at 0 over the stored
// bytes. Archive version 25, 26 or 27 (FORGE.md 7). The same options give the same bytes on every machine.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/object.hpp"
#include "writer/forge/stored_form.hpp"

namespace anvil::gen {

struct ForgeOptions {
  Game game = Game::ac2;
  u64 datafiles = 5;  // data files, cycling through the stored forms
  u64 visuals = 8;    // Visuals per entry body
  u64 seed = 1;
  u64 block_size = 0x8000;  // decompressed bytes per block or chunk (the last of a set may be shorter)
  u32 version = forge::ForgeVariant::kFirst;  // the archive version (FORGE.md 7; forge::known_versions())
  u8 layout = 1;  // the data-file layout (FORGE.md 7; forge::known_layouts()): AC2's unless told
};

// How a generated data file is stored (gen writes every form but `empty`).
using forge::stored_form_name;
using forge::StoredForm;

struct ForgeRecord {
  struct DataFile {
    std::string name;
    u64 file_id = 0;  // 64-bit in version 27
    forge::Compression compression = forge::Compression::plain;
    StoredForm form = StoredForm::plain;
    u64 header_offset = 0;  // where its index entry points: the 440-byte header (version 27: the stored bytes)
    u64 stored_size = 0;
    std::size_t entries = 0;
    u64 visuals = 0;          // Visuals carved from its bodies
    std::vector<u8> decoded;  // the data file decompressed
  };
  std::vector<DataFile> files;  // in table order
  u64 size = 0;
  u64 first_header = 0;       // H
  std::vector<u64> sections;  // table section offsets, in chain order
  forge::ChecksumRule rule = forge::ChecksumRule::adler32_0_stored;
};

absl::Status validate(const ForgeOptions& options);

// The archive in memory. Options that fail validate(): std::invalid_argument.
std::vector<u8> generate_forge(const ForgeOptions& options, ForgeRecord* record = nullptr);

// Writes it atomically.
absl::StatusOr<ForgeRecord> generate_forge_file(const ForgeOptions& options, const std::string& path);

}  // namespace anvil::gen
