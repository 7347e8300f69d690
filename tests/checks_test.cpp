// Failed checks leave a structure opaque: every checked byte of a carved object (constants, counts,
// pointer tags, class ids) altered in turn, and every truncation; the file still round-trips.
#include <gtest/gtest.h>

#include "model/check_locator.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

struct Sample {
  const char* file;
  Game game;
};

const Sample kSamples[] = {
    {"ac2/lod_selector_slots.bin", Game::ac2}, {"ac2/direct_mesh.bin", Game::ac2},
    {"ac2/light_instance.bin", Game::ac2},     {"ac2/unknown_instance.bin", Game::ac2},
    {"ac2/visual_no_instance.bin", Game::ac2}, {"sws/lod_selector.bin", Game::sws},
    {"sws/visual_mesh.bin", Game::sws},        {"sws/visual_lod_selector_instance.bin", Game::sws},
};

bool object_at(std::span<const u8> bytes, Game game, std::size_t offset) {
  for (const Piece& p : carve_level(bytes, game).pieces)
    if (p.is_object() && p.offset == offset) return true;
  return false;
}

void expect_write_read_identity(std::span<const u8> bytes, Game game) {
  Level level = carve_level(bytes, game);
  EXPECT_EQ(write_level(level, parse_objects(level)), std::vector<u8>(bytes.begin(), bytes.end()));
}

// The first byte pattern that must fail the check of `field`.
void spoil(std::vector<u8>& bytes, std::size_t at, const CheckedField& field) {
  switch (field.kind) {
    case CheckedField::kCount:
      for (std::size_t i = 0; i < field.size; ++i) bytes[at + i] = 0xFF;
      break;
    case CheckedField::kPointerTag:
      bytes[at] = 0x07;
      break;
    default:
      bytes[at] ^= 0x5A;
  }
}

class Checks : public ::testing::TestWithParam<Sample> {};

TEST_P(Checks, EveryCheckedByteAlteredLeavesTheObjectOpaque) {
  auto bytes = test::read_file(test::corpus(GetParam().file));
  Game game = GetParam().game;
  Level level = carve_level(bytes, game);
  std::size_t tested = 0;
  for (const Piece& piece : level.pieces) {
    if (!piece.is_object()) continue;
    Object object = parse_piece(level, piece);
    auto fields = std::visit([](const auto& o) { return checked_fields(o); }, object);
    ASSERT_FALSE(fields.empty());
    for (const auto& field : fields) {
      auto spoiled = bytes;
      spoil(spoiled, piece.offset + field.offset, field);
      SCOPED_TRACE(field.what + " at +" + std::to_string(field.offset));
      EXPECT_FALSE(object_at(spoiled, game, piece.offset));
      expect_write_read_identity(spoiled, game);
      ++tested;
    }
  }
  EXPECT_GT(tested, 0u);
}

TEST_P(Checks, EveryTruncationLeavesTheObjectOpaque) {
  auto bytes = test::read_file(test::corpus(GetParam().file));
  Game game = GetParam().game;
  Level level = carve_level(bytes, game);
  const Piece* first = nullptr;
  for (const Piece& p : level.pieces)
    if (p.is_object() && !first) first = &p;
  ASSERT_NE(first, nullptr);
  std::span<const u8> object(bytes.data() + first->offset, first->length);
  for (std::size_t n = 0; n < object.size(); ++n) {
    auto prefix = object.first(n);
    auto pieces = carve_level(prefix, game).pieces;
    ASSERT_TRUE(pieces.empty() || !pieces.front().is_object()) << "carved a truncation to " << n << " bytes";
    EXPECT_LE(pieces.size(), 1u);
    expect_write_read_identity(prefix, game);
  }
  EXPECT_EQ(carve_level(object, game).object_count(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Checks, ::testing::ValuesIn(kSamples), [](const auto& info) {
  std::string name = info.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

// Each near miss of the corpus fails the check its .md names.
TEST(NearMisses, Ac2CorpusCandidatesFailTheirChecks) {
  auto bytes = test::read_file(test::corpus("ac2/near_misses.bin"));
  std::vector<std::pair<std::size_t, std::string>> misses;
  carve_level(bytes, Game::ac2, {}, [&](const NearMiss& m) { misses.emplace_back(m.offset, m.failure.kind()); });
  std::vector<std::pair<std::size_t, std::string>> want = {
      {0x10, "instance: pointer tag must be 00 or 03"},
      {0xac, "instance/compiled: streams count must be 0x00000000"},
      {0x1d5, "instance/materials: material info class must be 0x995bfbf5"},
      {0x452, "instance: shader_constants must be 0x03"},
      {0x533, "tail: VisualShaderConstants class must be 0xbff5df99"},
      {0x5cf, "instance/instances: count must fit in the bytes left (64 each)"},
      {0x60e, "instance/instances: count must fit in the bytes left (64 each)"},
  };
  ASSERT_GE(misses.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(misses[i], want[i]) << i;
  EXPECT_EQ(misses.back().first, 0x74fu) << "the truncated Visual at the end";
}

}  // namespace
}  // namespace anvil
