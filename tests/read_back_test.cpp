// pipeline/read_back.hpp: the one check that written bytes read back as what was meant to be written.
#include "pipeline/read_back.hpp"

#include <absl/strings/str_format.h>
#include <gtest/gtest.h>

#include "model/ac2/visual.hpp"
#include "patch/patch.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using What = ReadBackFailure::What;

class ReadBack : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
    level_ = carve_level(bytes_, Game::ac2);
    ASSERT_GE(level_.object_count(), 1u);
    for (std::size_t i = 0; i < level_.pieces.size(); ++i) {
      if (level_.pieces[i].is_object() && !object_) object_ = i;
      if (!level_.pieces[i].is_object() && !opaque_) opaque_ = i;
    }
    ASSERT_TRUE(object_ && opaque_);
  }

  std::vector<u8> bytes_;
  Level level_;
  std::optional<std::size_t> object_, opaque_;  // the first object piece, the first opaque piece
};

TEST(FirstDifference, NamesTheFirstDifferingByteOrWhereTheShorterEnds) {
  const std::vector<u8> want = {1, 2, 3, 4};
  EXPECT_EQ(first_difference(want, std::vector<u8>{1, 2, 3, 4}), std::nullopt);
  EXPECT_EQ(first_difference(want, std::vector<u8>{1, 2, 9, 4}), 2u);
  EXPECT_EQ(first_difference(want, std::vector<u8>{1, 2}), 2u);
  EXPECT_EQ(first_difference(want, std::vector<u8>{1, 2, 3, 4, 5}), 4u);
  EXPECT_EQ(first_difference({}, {}), std::nullopt);
}

TEST_F(ReadBack, IdenticalBytesReadBack) {
  std::vector<u8> written = bytes_;  // another buffer: compared byte for byte
  EXPECT_FALSE(read_back(written, expect_unchanged(level_)));
  ExpectedLevel every_object = expect_unchanged(level_);
  every_object.reread_all = true;
  auto failure = read_back(written, every_object);
  EXPECT_FALSE(failure) << failure->message();
}

TEST_F(ReadBack, AChangedOpaqueByteIsFound) {
  std::vector<u8> written = bytes_;
  const Piece& p = level_.pieces[*opaque_];
  written[p.offset + p.length / 2] ^= 0x01;
  auto failure = read_back(written, expect_unchanged(level_));
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->what, What::kBytes);
  EXPECT_EQ(failure->offset, p.offset);
}

TEST_F(ReadBack, AChangedObjectByteIsFound) {
  std::vector<u8> written = bytes_;
  const Piece& p = level_.pieces[*object_];
  written[p.offset + p.length - 1] ^= 0x40;
  auto failure = read_back(written, expect_unchanged(level_));
  ASSERT_TRUE(failure);
  // Whether the object still carves (other bytes) or not (another piece), the difference is found there.
  EXPECT_TRUE(failure->what == What::kBytes || failure->what == What::kCarve) << failure->message();
  EXPECT_LE(failure->offset, p.offset);
}

TEST_F(ReadBack, ATruncatedOutputIsFound) {
  std::vector<u8> written(bytes_.begin(), bytes_.end() - 1);
  auto failure = read_back(written, expect_unchanged(level_));
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->what, What::kSize);
  EXPECT_EQ(failure->expected, bytes_.size());
  EXPECT_EQ(failure->found, bytes_.size() - 1);
  EXPECT_EQ(failure->message(), absl::StrFormat("the output has %d bytes, not %d", bytes_.size() - 1, bytes_.size()));
}

TEST_F(ReadBack, AnObjectTooManyIsFound) {
  // Expected: the first object as opaque bytes (merged with its opaque neighbours, as a carve lays them).
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < level_.pieces.size(); ++i) {
    Piece p = level_.pieces[i];
    if (i == *object_) p.kind = Piece::kOpaque;
    if (!p.is_object() && !pieces.empty() && !pieces.back().is_object())
      pieces.back().length += p.length;
    else
      pieces.push_back(p);
  }
  ExpectedLevel expected = expect_unchanged(level_);
  expected.pieces = pieces;
  auto failure = read_back(bytes_, expected);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->what, What::kCarve);
  EXPECT_EQ(failure->offset, level_.pieces[*object_].offset);
  EXPECT_EQ(failure->expected_kind, Piece::kOpaque);
  EXPECT_EQ(failure->found_kind, level_.pieces[*object_].kind);
}

TEST_F(ReadBack, AMissingObjectIsFound) {
  // The written bytes lose the object (zeroed): it carves no more.
  std::vector<u8> written = bytes_;
  const Piece& p = level_.pieces[*object_];
  std::fill(written.begin() + p.offset, written.begin() + p.offset + p.length, 0);
  auto failure = read_back(written, expect_unchanged(level_));
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->what, What::kCarve);
  EXPECT_EQ(failure->offset, p.offset);
  EXPECT_EQ(failure->expected_kind, p.kind);
  EXPECT_EQ(failure->found_kind, Piece::kOpaque);
}

TEST_F(ReadBack, AWrongObjectCountIsFound) {
  // Expected pieces that stop short of the written ones (the last piece missing): the count differs.
  ExpectedLevel expected = expect_unchanged(level_);
  expected.pieces = std::span(level_.pieces).first(level_.pieces.size() - 1);
  auto failure = read_back(bytes_, expected);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->what, What::kPieceCount);
  EXPECT_EQ(failure->expected, level_.pieces.size() - 1);
  EXPECT_EQ(failure->found, level_.pieces.size());
}

TEST_F(ReadBack, AChangedObjectMustReadBackAsItsModel) {
  auto out =
      patch::apply_patch_text(level_, R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":3}])");
  ASSERT_FALSE(out.error) << out.error->message();
  ASSERT_EQ(out.result.edited.size(), 1u);
  std::vector<u8> written = patch::patched_bytes(level_, out.result);
  ExpectedLevel expected = expect_unchanged(level_);
  std::vector<ExpectedObject> changed{{out.result.edited[0], &out.result.edited_objects[0]}};
  expected.changed = changed;
  auto failure = read_back(written, expected);
  EXPECT_FALSE(failure) << failure->message();

  // Unchanged, the edited bytes differ from the expected ones.
  failure = read_back(written, expect_unchanged(level_));
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->what, What::kBytes);
  EXPECT_EQ(failure->offset, level_.pieces[out.result.edited[0]].offset);

  // The expected model says 4 where the bytes hold 3.
  Object other = out.result.edited_objects[0];
  std::get<ac2::Visual>(other).active = 4;
  changed[0].object = &other;
  failure = read_back(written, expected);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->what, What::kObject);
  EXPECT_EQ(failure->offset, level_.pieces[out.result.edited[0]].offset);
}

TEST_F(ReadBack, ObjectDifferenceNamesTheFirstDifferentByte) {
  const Piece& p = level_.pieces[*object_];
  Object object = parse_piece(level_, p);
  std::vector<u8> scratch;
  std::vector<u8> same(bytes_.begin() + p.offset, bytes_.begin() + p.offset + p.length);
  EXPECT_FALSE(object_difference(object, same, scratch));
  std::vector<u8> changed = same;
  changed[p.length / 2] ^= 0x01;
  EXPECT_EQ(object_difference(object, changed, scratch), p.length / 2);
  std::vector<u8> longer = same;
  longer.push_back(0);
  EXPECT_EQ(object_difference(object, longer, scratch), p.length);
  std::vector<u8> shorter(same.begin(), same.end() - 1);
  EXPECT_EQ(object_difference(object, shorter, scratch), p.length - 1);
}

TEST_F(ReadBack, ReleasesEveryByteOfBoth) {
  std::vector<u8> written = bytes_;
  std::size_t expected_released = 0, written_released = 0;
  ReadBackOptions options{[&](std::size_t, std::size_t n) { expected_released += n; },
                          [&](std::size_t, std::size_t n) { written_released += n; }};
  EXPECT_FALSE(read_back(written, expect_unchanged(level_), options));
  EXPECT_EQ(expected_released, bytes_.size());
  EXPECT_EQ(written_released, bytes_.size());
}

}  // namespace
}  // namespace anvil
