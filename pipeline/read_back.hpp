// The one read-back check of everything anvilrt writes (docs/design.md): bytes just written are carved
// again, as the level they were written from was carved, and proven to be what was meant to be written:
// the same pieces (offsets, lengths, kinds), every object that must re-read parsing to its expected model,
// and every other byte unchanged. `build` (its output against the dump's objects), `patch` (the output
// streamed to a temporary, check_written of pipeline/patch_output.hpp), the patch of an archive (each
// re-encoded data file), the tests and the fuzz invariants all prove their outputs with it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/level.hpp"
#include "model/object.hpp"
#include "model/release.hpp"

namespace anvil {

// An object whose expected model is not the one of the expected bytes (an edited object): the object
// carved at pieces[piece] must parse to `object` (same class, same fields to the bit).
struct ExpectedObject {
  std::size_t piece = 0;  // index into ExpectedLevel::pieces
  const Object* object = nullptr;
};

// What written bytes must read back as.
struct ExpectedLevel {
  Game game = Game::ac2;
  // Carve only inside these (ascending: a decompressed data file's bodies); empty: the whole bytes.
  std::vector<Extent> regions;
  // The bytes expected (their size is the size expected), except inside the `changed` objects.
  std::span<const u8> bytes;
  // The pieces the written bytes must carve into, in file order, tiling them; the kind of a changed piece
  // is its object's.
  std::span<const Piece> pieces;
  // The objects that must parse to another model than the expected bytes hold, ascending by piece.
  std::span<const ExpectedObject> changed;
  // Every object, changed or not, must also re-read: parse and encode back to its expected bytes (what
  // `build` proves of its output; without it an unchanged piece is compared byte for byte only).
  bool reread_all = false;
};

// The expectation of writing `level` back unchanged: its bytes, carving into its pieces.
ExpectedLevel expect_unchanged(const Level& level);

// How written bytes failed to read back as expected: the first difference in file order.
struct ReadBackFailure {
  enum class What {
    kSize,        // the written bytes have another size (`found` bytes, `expected` bytes)
    kCarve,       // they carve differently from `offset` on (what starts there: `expected_kind`, `found_kind`)
    kPieceCount,  // into `found` pieces, not `expected` (all those in common being equal)
    kObject,      // the object at `offset` carves where expected but parses to another model
    kBytes,       // the bytes of the unchanged piece at `offset` differ
  };
  What what = What::kSize;
  std::size_t offset = 0;
  std::size_t expected = 0, found = 0;
  // kCarve: the kind of the piece each has at `offset` (Piece::kOpaque also inside an opaque piece).
  int expected_kind = Piece::kOpaque, found_kind = Piece::kOpaque;

  // "the output has 10 bytes, not 12", "the output carves differently at offset 0x2a", ...
  std::string message() const;
  // The same after a patch, which knows what it edited: "the object at offset 0x2a does not read back as
  // patched", "bytes at offset 0x2a changed that no operation edited".
  std::string after_patch_message() const;
};

struct ReadBackOptions {
  // Told, left to right, of the ranges of the expected bytes and of the written bytes the check is done
  // with (for mapped files: only a window of each stays in memory).
  ReleaseFn release_expected = {};
  ReleaseFn release_written = {};
};

// The offset of the first byte where `got` differs from `want` (where the shorter ends, if one is a
// prefix of the other), or nothing when they are equal.
std::optional<std::size_t> first_difference(std::span<const u8> want, std::span<const u8> got);

// Whether one object reads back as the bytes it stands for: the offset (within `bytes`) of the first byte
// where its encoding differs from them (an encoding of another length differs where the shorter ends), or
// nothing. read_back checks each object it re-reads with it; `verify`, which streams a reading object by
// object rather than checking a written level, checks each of its round trips with it too. `scratch` holds
// the encoding.
std::optional<std::size_t> object_difference(const Object& object, std::span<const u8> bytes, std::vector<u8>& scratch);

// Carves `written` as `expected` says (its game, its regions) and compares; nothing when the written
// bytes read back as expected.
std::optional<ReadBackFailure> read_back(std::span<const u8> written, const ExpectedLevel& expected,
                                         const ReadBackOptions& options = {});

}  // namespace anvil
