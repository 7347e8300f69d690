#include "pipeline/read_back.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <cstring>

#include "model/counted.hpp"
#include "reader/level.hpp"
#include "writer/encode.hpp"

namespace anvil {

ExpectedLevel expect_unchanged(const Level& level) {
  ExpectedLevel expected;
  expected.game = level.game;
  expected.regions = level.regions;
  expected.bytes = level.bytes;
  expected.pieces = level.pieces;
  return expected;
}

std::string ReadBackFailure::message() const {
  switch (what) {
    case What::kSize:
      return absl::StrFormat("the output has %s, not %d", counted(found, "byte"), expected);
    case What::kCarve:
      return absl::StrFormat("the output carves differently at offset 0x%x", offset);
    case What::kPieceCount:
      return absl::StrFormat("the output carves into %s, not %d", counted(found, "piece"), expected);
    case What::kObject:
      return absl::StrFormat("the object at offset 0x%x does not read back as expected", offset);
    case What::kBytes:
      return absl::StrFormat("bytes at offset 0x%x changed", offset);
  }
  return "";
}

std::string ReadBackFailure::after_patch_message() const {
  switch (what) {
    case What::kObject:
      return absl::StrFormat("the object at offset 0x%x does not read back as patched", offset);
    case What::kBytes:
      return absl::StrFormat("bytes at offset 0x%x changed that no operation edited", offset);
    default:
      return message();
  }
}

std::optional<std::size_t> first_difference(std::span<const u8> want, std::span<const u8> got) {
  // memcmp only on bytes: an empty span may have no pointer, which memcmp must not be given.
  if (want.size() == got.size() && (want.empty() || std::memcmp(want.data(), got.data(), want.size()) == 0))
    return std::nullopt;
  auto [w, g] = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
  if (w == want.end() && g == got.end()) return std::nullopt;
  return static_cast<std::size_t>(w - want.begin());
}

std::optional<std::size_t> object_difference(const Object& object, std::span<const u8> bytes,
                                             std::vector<u8>& scratch) {
  return first_difference(bytes, encode_object_over(object, scratch));
}

std::optional<ReadBackFailure> read_back(std::span<const u8> written, const ExpectedLevel& expected,
                                         const ReadBackOptions& options) {
  using What = ReadBackFailure::What;
  if (written.size() != expected.bytes.size())
    return ReadBackFailure{What::kSize, 0, expected.bytes.size(), written.size(), Piece::kOpaque, Piece::kOpaque};
  const std::span<const Piece> pieces = expected.pieces;
  const std::span<const ExpectedObject> changed = expected.changed;
  auto kind_of = [&](std::size_t i, std::size_t& next_changed) {
    while (next_changed < changed.size() && changed[next_changed].piece < i) ++next_changed;
    bool is_changed = next_changed < changed.size() && changed[next_changed].piece == i;
    return is_changed ? static_cast<int>(changed[next_changed].object->index()) : pieces[i].kind;
  };

  // The objects are re-read as they are carved: each one that must re-read is checked there, against the
  // expected piece at its offset (a structural difference is found below, in file order).
  std::optional<std::size_t> bad_object;  // the offset of the first object that does not re-read
  std::size_t at = 0, at_changed = 0;
  std::vector<u8> scratch, want;
  Releaser carved(options.release_written);
  auto on_object = [&](const Piece& p, const Object& object) {
    carved.done_before(p.offset);
    if (bad_object) return;
    while (at < pieces.size() && pieces[at].offset < p.offset) ++at;
    if (at == pieces.size() || pieces[at].offset != p.offset || pieces[at].length != p.length ||
        kind_of(at, at_changed) != p.kind)
      return;
    bool is_changed = at_changed < changed.size() && changed[at_changed].piece == at;
    if (!is_changed && !expected.reread_all) return;
    std::span<const u8> expected_encoding = expected.bytes.subspan(p.offset, p.length);
    if (is_changed) {
      want.clear();
      encode_object(*changed[at_changed].object, want);
      expected_encoding = want;
    }
    if (object_difference(object, expected_encoding, scratch)) bad_object = p.offset;
  };
  Level reread = expected.regions.empty() ? carve_level(written, expected.game, on_object)
                                          : carve_regions(written, expected.game, expected.regions, on_object);

  Releaser written_done(options.release_written), expected_done(options.release_expected);
  const std::size_t common = std::min(pieces.size(), reread.pieces.size());
  std::size_t next_changed = 0;
  for (std::size_t i = 0; i < common; ++i) {
    const Piece& a = pieces[i];
    const Piece& b = reread.pieces[i];
    int kind = kind_of(i, next_changed);
    bool is_changed = next_changed < changed.size() && changed[next_changed].piece == i;
    if (a.offset != b.offset || a.length != b.length || kind != b.kind) {
      // Where they first differ: here, unless both are opaque and one ends first (an object starts there).
      ReadBackFailure failure{What::kCarve, a.offset, 0, 0, kind, b.kind};
      if (kind == Piece::kOpaque && b.kind == Piece::kOpaque) {
        failure.offset = a.offset + std::min(a.length, b.length);
        std::size_t n = next_changed;
        if (a.length < b.length && i + 1 < pieces.size()) failure.expected_kind = kind_of(i + 1, n);
        if (b.length < a.length && i + 1 < reread.pieces.size()) failure.found_kind = reread.pieces[i + 1].kind;
      }
      return failure;
    }
    if (bad_object == a.offset) return ReadBackFailure{What::kObject, a.offset, 0, 0, Piece::kOpaque, Piece::kOpaque};
    if (!is_changed && written.data() != expected.bytes.data() &&
        std::memcmp(expected.bytes.data() + a.offset, written.data() + b.offset, a.length) != 0)
      return ReadBackFailure{What::kBytes, a.offset, 0, 0, Piece::kOpaque, Piece::kOpaque};
    expected_done.done_before(a.offset);
    written_done.done_before(a.offset);
  }
  if (pieces.size() != reread.pieces.size())
    return ReadBackFailure{What::kPieceCount, 0, pieces.size(), reread.pieces.size(), Piece::kOpaque, Piece::kOpaque};
  expected_done.done_all(expected.bytes.size());
  written_done.done_all(written.size());
  return std::nullopt;
}

}  // namespace anvil
