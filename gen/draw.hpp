// The generator's drawing helpers: bytes, ids and the few shapes (matrices, bounding volumes) every
// object needs, all drawn from one Rng (gen/random.hpp) so that the same seed gives the same bytes.
//
// Filler and opaque bodies use only bytes that occur in no top-level signature, and not 00
// (gen/generator.hpp); ids are drawn so that none holds a signature.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "gen/random.hpp"
#include "model/primitives.hpp"

namespace anvil::gen {

// numerator / denominator as an f32, exactly: |numerator| < 2^24 and the denominator a power of two.
inline f32 fraction(std::int64_t numerator, int denominator) {
  return static_cast<f32>(numerator) / static_cast<f32>(denominator);
}

// Instance matrix counts of a LODSelectorInstance, both dialects (chosen): it is often placed once by
// its owner (k = 0).
inline constexpr std::array<u64, 5> kLodMatrixWeights = {40, 50, 6, 3, 1};

// Whether any 4 bytes of p[0, n) are a top-level signature, as stored.
bool holds_signature(const u8* p, std::size_t n);

class Draw {
 public:
  explicit Draw(u64 seed);

  Rng& rng() { return rng_; }

  // n bytes that are neither 00 nor in any signature.
  void safe_bytes(u8* out, std::size_t n);

  // Unique (a bijection of a counter), non-zero, and holding no signature in its bytes.
  u64 id64();
  u32 id32();
  // Any non-zero value (hashes).
  u64 nonzero64();

  // A placement: a uniform scale (usually 1) and a translation.
  void matrix(Matrix& m);
  // A bounding volume: a box (min, max) around a centre and a radius, as 10 f32.
  void bounds(Opaque<40>& b);

 private:
  Rng rng_;
  u64 id_salt_ = 0;
  u64 id_counter_ = 0;
};

}  // namespace anvil::gen
