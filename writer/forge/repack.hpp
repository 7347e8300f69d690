// The stored form of an edited data file (FORGE.md 4 and 5): its new decompressed bytes re-split set by
// set. A set whose decompressed length stays is re-split on its original block boundaries; an unchanged
// block keeps its stored bytes and checksum, a changed one is re-compressed with its set's algorithm
// (-999), stored plain when that is not smaller, and given a checksum by the archive's rule. With two
// sets, the first keeps its length and the second takes the rest; in a set whose length changes, the
// blocks before the one holding its first changed byte are kept and the rest is cut into blocks of the
// set's largest uncompressed block size. A plain data file stays plain.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <span>

#include "model/forge/archive.hpp"
#include "model/forge/stored_data_file.hpp"

namespace anvil::forge {

struct RepackReport {
  std::size_t blocks = 0;        // blocks and chunks of the data file
  std::size_t recompressed = 0;  // changed or new blocks re-compressed (or stored plain)
};

// `old_decoded` is what `original` decompresses to; `new_decoded` may have any size (a plain data file's
// must not hold the compression magic). `checksums` is the archive's verdict (FORGE.md 2): a re-compressed block gets
// its checksum by its rule; without one (none, or n/a), changing a compressed block is refused with that reason.
absl::StatusOr<StoredDataFile> repack(const StoredDataFile& original, std::span<const u8> old_decoded,
                                      std::span<const u8> new_decoded, const ChecksumVerdict& checksums,
                                      RepackReport* report = nullptr);

// A new data file's stored form, shaped like `like` (an archive's data file): plain when `like` is plain or
// the archive has no checksum rule to give a compressed block (`checksums`); otherwise with its sets'
// headers (algorithm, block size field, blocks or chunks), no prefix, blocks of its largest uncompressed
// block size (0x8000 when it has none), and with two sets the first holding one block, as `like`'s
// first set does in every archive anvilrt has seen described. A plain one must not hold the compression magic.
absl::StatusOr<StoredDataFile> pack_like(const StoredDataFile& like, std::span<const u8> decoded,
                                         const ChecksumVerdict& checksums, RepackReport* report = nullptr);

// A stored data file's bytes, from its declaration.
std::vector<u8> encode_stored(const StoredDataFile& stored);

}  // namespace anvil::forge
