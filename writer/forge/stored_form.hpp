// A data file compressed from scratch into one of the stored forms of FORGE.md 2, for `pack` and
// `gen --forge`: cut into blocks (or chunks) of a given decompressed size, each compressed with its set's
// algorithm at -999 and stored plain when that is not smaller, and given its checksum by the rule.
#pragma once

#include <absl/status/statusor.h>

#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/forge/stored_data_file.hpp"

namespace anvil::forge {

// The forms a stored data file takes (FORGE.md 2): the data file as it is; one chunk stream (a block set
// with max_size 0); two block sets with block tables; a block set with a table, then a chunk stream. A
// stored size of 0 (`empty`) is an empty data file.
enum class StoredForm { plain, chunks, two_block_sets, block_set_then_chunks, empty };
std::string_view stored_form_name(StoredForm form);  // "plain", "chunks", "two block sets", ...
std::optional<StoredForm> stored_form_named(std::string_view name);
// The form a stored data file has.
StoredForm stored_form_of(const StoredDataFile& stored);

// The header fields of a block set that are not derived from its blocks.
struct SetFields {
  u8 compression = 1;
  u16 block_size = 0x8000;  // the header's field, kept (not what the blocks are cut by)
  u16 max_size = 0;         // a set with a block table: written as is when not 0, else the cut size
};

struct StoredSpec {
  StoredForm form = StoredForm::plain;
  ForgeVariant variant;                 // the data-file layout it is stored in (FORGE.md 7)
  std::vector<Opaque<8>> prefix;        // layout 1: [u32 n][8n bytes]
  std::vector<Opaque<1>> prefix_bytes;  // layout 2: [u32 b][b bytes]
  u64 cut = 0x8000;                     // decompressed bytes per block or chunk (the last of a set may be shorter)
  u64 first_set_size = 0;               // two-set forms: the first set's decompressed bytes (at most the data file's)
  std::array<SetFields, 2> sets;        // the first and the second block set
};

// `decoded` stored as `spec` says; compressed blocks and chunks get their checksum by `rule`. Errors: a
// cut of 0, or above 65535 for a block table (its sizes are u16); an empty form for a data file that is
// not empty.
absl::StatusOr<StoredDataFile> compress_stored(std::span<const u8> decoded, const StoredSpec& spec, ChecksumRule rule);

}  // namespace anvil::forge
