// A level file as carved: its bytes and the pieces they split into, opaque spans and objects in file
// order. Model types only (the reader carves them, reader/level.hpp; the writer re-encodes them,
// writer/encode.hpp): objects are re-parsed from their bytes on demand, so a level costs little more
// than its file.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "model/forge/variant.hpp"
#include "model/object.hpp"

namespace anvil {

class FileTails;  // reader/file_tails.hpp

// Where a carved object lies.
struct Extent {
  std::size_t offset = 0;
  std::size_t length = 0;
};

struct Piece {
  static constexpr int kOpaque = -1;

  std::size_t offset = 0;
  std::size_t length = 0;
  int kind = kOpaque;        // the Object alternative, or kOpaque
  u64 id = 0;                // the object's id
  bool repeated_id = false;  // an earlier object has this id: its key is "<id>@<offset>"

  bool is_object() const { return kind != kOpaque; }
};

struct Level {
  Game game = Game::ac2;
  std::span<const u8> bytes;
  std::vector<Piece> pieces;
  std::shared_ptr<FileTails> tails;  // serves re-parsing objects with unknown instance bodies
  // Where objects were looked for: the bodies of a decompressed data file (FORGE.md 3: an object never
  // spans two); empty for a level file, carved whole. Everything outside them is opaque.
  std::vector<Extent> regions;
  forge::ForgeVariant variant;  // a data file's version and layout, in which its regions were found

  std::size_t object_count() const {
    std::size_t n = 0;
    for (const Piece& p : pieces) n += p.is_object();
    return n;
  }
  std::size_t opaque_bytes() const {
    std::size_t n = 0;
    for (const Piece& p : pieces) n += p.is_object() ? 0 : p.length;
    return n;
  }
};

}  // namespace anvil
