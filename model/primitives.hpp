// Field types of the Anvil formats: fixed-width integers, ids, matrices and opaque byte runs.
// Each type says how it is shown in JSON (FORMAT.md section 4): ids as fixed-width hex strings,
// opaque bytes as lowercase hex, matrices as arrays of 16 f32 in storage order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace anvil {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;  // container offsets where -1 means "none" (FORGE.md 1)
using f32 = float;

static_assert(sizeof(f32) == 4, "f32 must be IEEE-754 binary32");

// An object id: `ac2` ids are u64, `sws` ids u32. JSON: "0x" + 2*sizeof(T) lowercase hex digits.
template <class T>
struct Id {
  T value = 0;
};
using Id64 = Id<u64>;
using Id32 = Id<u32>;

// A run of N bytes whose meaning is unknown or irrelevant (bounds, unaccounted, ...): JSON hex.
template <std::size_t N>
struct Opaque {
  std::array<u8, N> bytes{};
};

// Whether T is an Opaque<N>: a run of bytes of fixed length (JSON: exactly 2N hex digits).
template <class T>
inline constexpr bool kIsOpaque = false;
template <std::size_t N>
inline constexpr bool kIsOpaque<Opaque<N>> = true;

// A fixed char[N] name, NUL-padded as stored (FORGE.md 1). Every byte is kept; JSON shows the text
// when the bytes are printable ASCII followed only by NULs, and 2N hex digits otherwise (a text of
// at most N characters cannot be mistaken for 2N hex digits).
template <std::size_t N>
struct FixedString {
  std::array<u8, N> bytes{};
};
template <class T>
inline constexpr bool kIsFixedString = false;
template <std::size_t N>
inline constexpr bool kIsFixedString<FixedString<N>> = true;

// A run of bytes whose length is set by the layout around it: JSON hex.
struct OpaqueBytes {
  std::vector<u8> bytes;
};

// A 4x4 matrix of f32, column-major as stored.
using Matrix = std::array<f32, 16>;
// Where an instance matrix holds its translation: elements 12, 13 and 14 are x, y and z (FORMAT.md 5,
// the `transform` operation). What moves an instance and what maps it both ask this.
inline constexpr std::size_t kMatrixTranslation = 12;

// The number of bytes a value of T takes on the wire; used to check a count against the bytes left
// before anything is allocated (FORMAT.md 2.6). Structures of fixed size declare `wire_size`;
// variable ones declare `min_wire_size`.
template <class T>
struct WireSize;
template <>
struct WireSize<Matrix> {
  static constexpr std::size_t value = 64;
};
template <std::size_t N>
struct WireSize<Opaque<N>> {
  static constexpr std::size_t value = N;
};
template <std::size_t N>
struct WireSize<FixedString<N>> {
  static constexpr std::size_t value = N;
};
template <class T>
requires requires { T::wire_size; }
struct WireSize<T> {
  static constexpr std::size_t value = T::wire_size;
};
template <class T>
requires requires { T::min_wire_size; }
struct WireSize<T> {
  static constexpr std::size_t value = T::min_wire_size;
};

}  // namespace anvil
