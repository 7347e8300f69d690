#include "writer/encode.hpp"

#include <stdexcept>

namespace anvil {

bool same_object(const Object& a, const Object& b) {
  if (a.index() != b.index()) return false;
  std::vector<u8> ea, eb;
  encode_object(a, ea);
  encode_object(b, eb);
  return ea == eb;
}

std::vector<u8> write_level(const Level& level, std::span<const Object> objects) {
  std::vector<u8> out;
  out.reserve(level.bytes.size());
  std::size_t next = 0;
  for (const Piece& piece : level.pieces) {
    if (piece.is_object()) {
      if (next == objects.size()) throw std::invalid_argument("write_level: fewer objects than pieces");
      encode_object(objects[next++], out);
    } else {
      out.insert(out.end(), level.bytes.begin() + piece.offset, level.bytes.begin() + piece.offset + piece.length);
    }
  }
  return out;
}

}  // namespace anvil
