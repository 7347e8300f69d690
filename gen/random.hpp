// The generator's fixed pseudo-random source: xoshiro256** seeded through splitmix64, with its own
// integer distributions (uniform, chance, weighted choice). The standard library's distributions differ
// between implementations; these give the same numbers on every machine, and no choice depends on
// floating-point rounding.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>

#include "model/primitives.hpp"

namespace anvil::gen {

// splitmix64 step: also a bijective 64-bit mixer (finalizer), used to make unique ids from counters.
inline u64 splitmix64(u64& state) {
  u64 z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A bijective 32-bit mixer (lowbias32).
inline u32 mix32(u32 x) {
  x ^= x >> 16;
  x *= 0x7FEB352DU;
  x ^= x >> 15;
  x *= 0x846CA68BU;
  x ^= x >> 16;
  return x;
}

class Rng {
 public:
  explicit Rng(u64 seed) {
    u64 s = seed;
    for (u64& word : state_) word = splitmix64(s);
  }

  // xoshiro256** (Blackman and Vigna).
  u64 next() {
    const u64 result = rotl(state_[1] * 5, 7) * 9;
    const u64 t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n), n > 0, without bias: Lemire's multiply-shift with rejection (one division only in
  // the rare rejection case).
  u64 uniform(u64 n) {
    __extension__ typedef unsigned __int128 u128;
    u128 m = static_cast<u128>(next()) * n;
    u64 low = static_cast<u64>(m);
    if (low < n) {
      const u64 threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<u128>(next()) * n;
        low = static_cast<u64>(m);
      }
    }
    return static_cast<u64>(m >> 64);
  }

  // Uniform in [lo, hi].
  u64 between(u64 lo, u64 hi) { return lo + uniform(hi - lo + 1); }
  std::int64_t between_signed(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(uniform(static_cast<u64>(hi - lo) + 1));
  }

  // True with probability num / den.
  bool chance(u64 num, u64 den) { return uniform(den) < num; }

  // An index into `weights`, each chosen with probability weight / sum.
  std::size_t pick(std::span<const u64> weights) {
    u64 total = 0;
    for (u64 w : weights) total += w;
    u64 r = uniform(total);
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return weights.size() - 1;  // unreachable
  }
  std::size_t pick(std::initializer_list<u64> weights) {
    return pick(std::span<const u64>(weights.begin(), weights.size()));
  }

 private:
  static u64 rotl(u64 x, int k) { return (x << k) | (x >> (64 - k)); }
  u64 state_[4];
};

}  // namespace anvil::gen
