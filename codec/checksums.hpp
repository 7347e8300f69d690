// The checksums of `.forge` archives and of anvilrt's own files: Adler-32 (the candidates of the checksum
// rules, FORGE.md 2) and CRC-32 (content prints), both libdeflate's, vectorised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace anvil::codec {

// Adler-32 of `bytes` continuing from `start` (1 is the standard start). libdeflate's, vectorised: about
// 7 x liblzo2's lzo_adler32 (24 against 3.5 GB/s on an AMD EPYC), and every block of an archive is
// checksummed by the vote (FORGE.md 2), so it is on the path of every command that reads an archive.
std::uint32_t adler32(std::uint32_t start, std::span<const std::uint8_t> bytes);

// The Adler-32 of `size` bytes started at 1, from theirs started at 0 (`from_zero`): the start adds 1 to
// the low sum and `size` to the high one, so both candidate rules of FORGE.md 2 cost one pass.
std::uint32_t adler32_started_at_1(std::uint32_t from_zero, std::size_t size);

// The CRC-32 (ISO-HDLC, zlib's) of `bytes` continuing from `start` (0 is the standard start), libdeflate's,
// vectorised: with Adler-32, the fingerprint of a data file's content that the key cache
// (pipeline/folder_key_cache.hpp) knows it by.
std::uint32_t crc32(std::uint32_t start, std::span<const std::uint8_t> bytes);

}  // namespace anvil::codec
