// Re-encoding objects and whole level files from the model.
#pragma once

#include <span>
#include <vector>

#include "model/level.hpp"
#include "model/object.hpp"
#include "writer/byte_writer.hpp"

namespace anvil {

// Appends the bytes of `value` (any structure with a layout declaration) to `out`; `version`: the
// context of its declaration (a container's archive version, model/forge/variant.hpp).
template <class T>
void encode(const T& value, std::vector<u8>& out, unsigned version = 0) {
  ByteWriter writer(out);
  serialize_root(writer, const_cast<T&>(value), version);
}

// The bytes of `value` alone.
template <class T>
std::vector<u8> encoded(const T& value, unsigned version = 0) {
  std::vector<u8> out;
  encode(value, out, version);
  return out;
}

inline void encode_object(const Object& object, std::vector<u8>& out) {
  std::visit([&](const auto& o) { encode(o, out); }, object);
}

// Writes the bytes of `object` over the start of `scratch` (grown when too short) and returns them:
// for loops that encode object after object into one buffer.
inline std::span<const u8> encode_object_over(const Object& object, std::vector<u8>& scratch) {
  return std::visit(
      [&](const auto& o) {
        ByteWriter writer(scratch, ByteWriter::Over{});
        const_cast<std::decay_t<decltype(o)>&>(o).serialize(writer, 0);
        return std::span<const u8>(scratch.data(), writer.written());
      },
      object);
}

// Whether two objects are the same to the bit (NaN payloads and -0.0 included): the encoding stores
// every field, so equal bytes are equal objects.
bool same_object(const Object& a, const Object& b);

// The file of `level` with its opaque spans copied and every object re-encoded from `objects` (one per
// object piece, in file order).
std::vector<u8> write_level(const Level& level, std::span<const Object> objects);

}  // namespace anvil
