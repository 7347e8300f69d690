// `verify` of a `.forge` archive and of a decompressed data file (FORGE.md): the proof that reading them
// is lossless, every structure re-encoded from its fields. Per archive: the tables and the bytes between
// data files written back over nothing but their fields and compared byte for byte. Per data file, on
// its own (so that data files verify in parallel): its stored form re-encoded from its declaration and
// compared, every block decompressed to its stated size and its checksum checked against the archive's
// rule (a damaged block: the data file does not read),
// its entry table re-encoded and compared, and the objects of each body round-tripped as `verify` does
// for a level file; optionally every compressed block re-compressed and compared with the stored one.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>

#include "model/forge/archive.hpp"
#include "pipeline/verify.hpp"

namespace anvil::forge {

struct TablesVerify {
  std::optional<u64> first_difference;  // archive offset
};

// Writes the archive back with no data file changed (every table re-encoded from its fields, every data
// file and padding copied) into a sink that compares as it goes, so memory stays flat.
TablesVerify verify_tables(std::span<const u8> bytes, const Archive& archive);

struct Recompressed {
  std::size_t blocks = 0;     // compressed blocks and chunks
  std::size_t identical = 0;  // that re-compress (-999) to exactly their stored bytes
};

struct DataFileVerify {
  // The data file does not read: one line naming the offset and what failed, for a line that names the
  // data file (verify_data_file(): not named again; verify_decompressed(): the caller names its file).
  std::string error;
  Compression compression = Compression::plain;
  u64 stored_size = 0;
  u64 decompressed_size = 0;
  std::size_t checked_blocks = 0;  // blocks and chunks that carry a checksum
  std::size_t entries = 0;
  VerifyReport objects;                              // over the bodies; offsets in the decompressed data file
  std::optional<u64> stored_difference;              // archive offset where the stored form re-encodes differently
  std::optional<u64> table_difference;               // decompressed offset where the entry table re-encodes differently
  std::map<Compression, Recompressed> recompressed;  // with `recompress`, per algorithm

  bool identical() const { return error.empty() && !stored_difference && !table_difference && objects.identical(); }
};

struct VerifyOptions {
  Game game = Game::ac2;
  bool json = true;         // the objects' JSON round trip too
  bool recompress = false;  // re-compress every compressed block
  unsigned threads = 1;     // per body, the objects' round trips on this many threads (verify_bytes)
};

// Data file `index` of the archive, its blocks checked against the archive's rule `checksums`
// (archive_checksums() of reader/forge/data_files.hpp).
DataFileVerify verify_data_file(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                const VerifyOptions& options, const ChecksumVerdict& checksums);

// A decompressed data file on its own (its entry table and bodies); `error` when it does not parse.
DataFileVerify verify_decompressed(std::span<const u8> decoded, const VerifyOptions& options);

}  // namespace anvil::forge
