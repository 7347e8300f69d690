#include "gen/draw.hpp"

#include <cstring>

#include "model/dialect.hpp"

namespace anvil::gen {

namespace {

// What the reader searches for (the kinds' signatures and the ac2 tail class), as stored.
constexpr const auto& kSignatures = dialect::kSearchedClassIds;

// Whether a byte occurs in any signature: such bytes never appear in filler or opaque bodies. Nor does
// 00, so that the 00 before an object is always the inline-pointer tag the generator put there.
constexpr std::array<bool, 256> make_signature_bytes() {
  std::array<bool, 256> table{};
  table[0] = true;
  for (u32 sig : kSignatures)
    for (int i = 0; i < 4; ++i) table[(sig >> (8 * i)) & 0xFF] = true;
  return table;
}
constexpr std::array<bool, 256> kSignatureByte = make_signature_bytes();

}  // namespace

bool holds_signature(const u8* p, std::size_t n) {
  for (std::size_t i = 0; i + 4 <= n; ++i) {
    u32 w;
    std::memcpy(&w, p + i, 4);
    for (u32 sig : kSignatures)
      if (w == sig) return true;
  }
  return false;
}

Draw::Draw(u64 seed) : rng_(seed) {
  u64 s = seed ^ 0xA5A5A5A5DEADBEEFULL;
  id_salt_ = splitmix64(s);
}

void Draw::safe_bytes(u8* out, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    u64 r = rng_.next();
    for (int b = 0; b < 8 && i < n; ++b, r >>= 8) {
      u8 byte = static_cast<u8>(r);
      if (!kSignatureByte[byte]) out[i++] = byte;
    }
  }
}

u64 Draw::id64() {
  for (;;) {
    u64 s = id_salt_ + (id_counter_++) * 0x9E3779B97F4A7C15ULL;
    u64 id = splitmix64(s);
    if (id != 0 && !holds_signature(reinterpret_cast<const u8*>(&id), 8)) return id;
  }
}

u32 Draw::id32() {
  for (;;) {
    u32 id = mix32(static_cast<u32>(id_salt_) + static_cast<u32>(id_counter_++));
    if (id != 0 && !holds_signature(reinterpret_cast<const u8*>(&id), 4)) return id;
  }
}

u64 Draw::nonzero64() {
  for (;;)
    if (u64 v = rng_.next(); v != 0) return v;
}

void Draw::matrix(Matrix& m) {
  m = {};
  std::int64_t scale = rng_.chance(80, 100) ? 8 : static_cast<std::int64_t>(rng_.between(2, 32));
  m[0] = m[5] = m[10] = fraction(scale, 8);
  m[12] = fraction(rng_.between_signed(-65536, 65536), 16);
  m[13] = fraction(rng_.between_signed(-65536, 65536), 16);
  m[14] = fraction(rng_.between_signed(-4096, 4096), 16);
  m[15] = 1.0f;
}

void Draw::bounds(Opaque<40>& b) {
  std::array<f32, 10> v{};
  for (int i = 0; i < 3; ++i) {
    std::int64_t centre = rng_.between_signed(-65536, 65536), half = rng_.between_signed(1, 4096);
    v[i] = fraction(centre - half, 16);
    v[3 + i] = fraction(centre + half, 16);
  }
  v[9] = fraction(rng_.between_signed(1, 8192), 16);
  std::memcpy(b.bytes.data(), v.data(), 40);
}

}  // namespace anvil::gen
