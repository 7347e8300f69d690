// The LZO codecs of `.forge` block sets (FORGE.md 2), behind one small interface over liblzo2: the safe
// decoders and the -999 compressors (the checksums of the blocks: codec/checksums.hpp).
#pragma once

#include <absl/status/statusor.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace anvil::codec {

enum class Algorithm { lzo1x, lzo2a, lzo1c };

// "lzo1x", "lzo2a", "lzo1c".
std::string_view algorithm_name(Algorithm algorithm);

// The most bytes `compressed_size` bytes of LZO can decode to (a run costs at least one byte per 255
// bytes it makes, plus a constant): a claimed size above it cannot be honest, and is refused before
// anything is allocated for it.
std::size_t max_decompressed_size(std::size_t compressed_size);

// Decodes `in` with the safe decoder. Errors (InvalidArgument): a size above max_decompressed_size(),
// a decoder error, or an output that is not exactly `out_size` bytes (or input left over).
absl::StatusOr<std::vector<std::uint8_t>> decompress(Algorithm algorithm, std::span<const std::uint8_t> in,
                                                     std::size_t out_size);

// The same into `out`, whose size is the stated size (nothing is allocated).
absl::Status decompress_into(Algorithm algorithm, std::span<const std::uint8_t> in, std::span<std::uint8_t> out);

// Encodes `in` with the algorithm's -999 compressor (deterministic).
std::vector<std::uint8_t> compress(Algorithm algorithm, std::span<const std::uint8_t> in);

// compress() of each of `parts`, on up to `threads` workers (0: thread_budget(), model/parallel.hpp). The blocks of a
// data file are compressed independently, and -999 is slow (a few MB/s), so a put or a resize that re-compresses many
// blocks takes all cores.
std::vector<std::vector<std::uint8_t>> compress_all(Algorithm algorithm,
                                                    std::span<const std::span<const std::uint8_t>> parts,
                                                    unsigned threads = 0);

}  // namespace anvil::codec
