// New blocks and chunks of a block set (FORGE.md 2, 4, 5), made one way for every writer of stored data
// files (an edit's repack, a new archive's stored forms): the parts compressed on every core with the
// set's -999 compressor; a block stored plain when LZO does not make it smaller; a chunk plain (00) when
// that is not smaller and its size fits a plain chunk's u16, compressed (01) otherwise; every block and
// every compressed chunk checksummed by the archive's rule.
#pragma once

#include <optional>
#include <span>

#include "codec/forge_compression.hpp"
#include "model/forge/block_set.hpp"

namespace anvil::forge {

// The set's algorithm (LZO1X when its compression id names none).
codec::Algorithm set_algorithm(const BlockSet& set);

// Appends a block (a chunk, when `set` has no block table: max_size 0) holding each of `parts`. False,
// with `set` unchanged, when one needs a checksum and `rule` is none.
bool append_new_blocks(BlockSet& set, std::optional<ChecksumRule> rule, std::span<const std::span<const u8>> parts);

// `data` cut into parts of `cut` bytes (the last one shorter).
std::vector<std::span<const u8>> cut_into(std::span<const u8> data, u64 cut);

}  // namespace anvil::forge
