// The streamed output of `anvilrt patch` (pipeline/patch_output.hpp): the written file is, byte for byte, the
// original with the edited objects' encodings overlaid; a failed check or write leaves no file and no
// temporary; the pages of mapped input may be released on the way without changing a byte.
#include "pipeline/patch_output.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "patch/patch.hpp"
#include "platform/file_stream.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;

// The file names in a folder (temporaries included).
std::vector<std::string> entries(const std::string& folder) {
  std::vector<std::string> names;
  for (auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// `bytes` with each object of `level` listed in `pieces` re-encoded from `objects` (an independent
// path: the typed model and the encoder, not the engine's overlays).
std::vector<u8> overlaid(std::vector<u8> bytes, const Level& level, const std::vector<std::size_t>& pieces,
                         const std::vector<Object>& objects) {
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = level.pieces[pieces[i]];
    std::vector<u8> encoded;
    encode_object(objects[i], encoded);
    EXPECT_EQ(encoded.size(), p.length);
    std::memcpy(bytes.data() + p.offset, encoded.data(), std::min(encoded.size(), p.length));
  }
  return bytes;
}

// The indices into level.pieces of its objects, in file order.
std::vector<std::size_t> object_pieces(const Level& level) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < level.pieces.size(); ++i)
    if (level.pieces[i].is_object()) out.push_back(i);
  return out;
}

class PatchOutput : public ::testing::Test {
 protected:
  test::TempDir dir_;
};

TEST_F(PatchOutput, StreamedFileIsTheOriginalWithTheEditedObjectsOverlaid) {
  std::vector<u8> bytes = test::read_file(test::corpus("ac2/back_to_back.bin"));
  Level level = carve_level(bytes, Game::ac2);
  std::vector<std::size_t> objects = object_pieces(level);
  ASSERT_EQ(objects.size(), 5u);
  auto out = patch::apply_patch_text(level, R"([
    {"op":"replace","path":"/objects/0x00000000000004d3/active","value":7},
    {"op":"replace","path":"/objects/0x00000000000004d5@816/active","value":9}])");
  ASSERT_FALSE(out.error) << out.error->message();
  ASSERT_EQ(out.result.edited, (std::vector<std::size_t>{objects[1], objects[4]}));

  Object second = parse_piece(level, level.pieces[objects[1]]);
  Object fifth = parse_piece(level, level.pieces[objects[4]]);
  std::get<ac2::Visual>(second).active = 7;
  std::get<ac2::Visual>(fifth).active = 9;
  std::vector<u8> expected = overlaid(bytes, level, {objects[1], objects[4]}, {second, fifth});
  ASSERT_NE(expected, bytes);

  std::string target = dir_.path("out.bin");
  absl::Status s = patch::write_patched(level, out.result, target);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(test::read_file(target), expected);
  EXPECT_EQ(patch::patched_bytes(level, out.result), expected);
  EXPECT_EQ(entries(dir_.path("")), std::vector<std::string>{"out.bin"});  // no temporary left

  // stream_patched alone writes the same bytes.
  std::FILE* sink = platform::anonymous_file();
  ASSERT_NE(sink, nullptr);
  ASSERT_TRUE(patch::stream_patched(level, out.result, sink, "memory").ok());
  ASSERT_EQ(std::fflush(sink), 0);
  std::rewind(sink);
  std::vector<u8> streamed(expected.size() + 1);
  streamed.resize(std::fread(streamed.data(), 1, streamed.size(), sink));
  std::fclose(sink);
  EXPECT_EQ(streamed, expected);
}

// A mapped file larger than the write chunk and the release step, edited past both: releasing the
// input's and the output's pages changes no byte of the output.
TEST_F(PatchOutput, LargeMappedInputReleasedOnTheWay) {
  std::vector<u8> visuals = test::read_file(test::corpus("ac2/back_to_back.bin"));
  std::vector<u8> bytes(std::size_t{19} << 20, 0x00);
  bytes.insert(bytes.begin() + (std::size_t{9} << 20) + 3, visuals.begin(), visuals.end());
  bytes.insert(bytes.end(), visuals.begin(), visuals.end());
  std::string source = dir_.path("in.bin");
  test::write_file(source, bytes);
  auto input = InputFile::open(source);
  ASSERT_TRUE(input.ok()) << input.status().message();
  Level level = carve_level(input->bytes(), Game::ac2);
  std::vector<std::size_t> objects = object_pieces(level);
  ASSERT_EQ(objects.size(), 10u);
  const Piece& late = level.pieces[objects[8]];  // the fourth Visual of the last copy
  std::string key = object_key(late, Game::ac2);
  auto out = patch::apply_patch_text(level, R"([{"op":"replace","path":"/objects/)" + key + R"(/active","value":5}])");
  ASSERT_FALSE(out.error) << out.error->message();
  input->release(0, bytes.size());  // as after carving: the level still reads the same bytes
  Object edited = parse_piece(level, late);
  std::get<ac2::Visual>(edited).active = 5;
  std::vector<u8> expected = overlaid(bytes, level, {objects[8]}, {edited});

  std::string target = dir_.path("out.bin");
  absl::Status s = patch::write_patched(level, out.result, target, &*input);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(test::read_file(target) == expected);
  EXPECT_TRUE(std::equal(input->bytes().begin(), input->bytes().end(), bytes.begin(), bytes.end()));
}

// A bulk operation over every object reports the input it has passed (PatchOptions::release_input);
// dropping those pages of a mapped file changes nothing it computes.
TEST_F(PatchOutput, BulkOperationReleasesThePassedInput) {
  std::vector<u8> visual = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  std::vector<u8> bytes(std::size_t{19} << 20, 0x00);
  bytes.insert(bytes.begin() + (std::size_t{9} << 20) + 5, visual.begin(), visual.end());
  bytes.insert(bytes.end(), visual.begin(), visual.end());
  std::string source = dir_.path("in.bin");
  test::write_file(source, bytes);
  auto input = InputFile::open(source);
  ASSERT_TRUE(input.ok()) << input.status().message();
  Level level = carve_mapped(*input, Game::ac2);
  ASSERT_EQ(level.object_count(), 2u);
  const std::string swap = R"([{"op":"swap_material","from":"0x3333333333333334","to":"0x00000000deadbeef"}])";
  auto plain = patch::apply_patch_text(level, swap);
  ASSERT_FALSE(plain.error) << plain.error->message();

  std::vector<std::pair<std::size_t, std::size_t>> released;
  patch::PatchOptions options;
  options.release_input = [&](std::size_t offset, std::size_t length) {
    released.emplace_back(offset, length);
    input->release(offset, length);
  };
  auto out = patch::apply_patch_text(level, swap, options);
  ASSERT_FALSE(out.error) << out.error->message();
  ASSERT_FALSE(released.empty());
  std::size_t end = 0;
  for (auto [offset, length] : released) {
    EXPECT_EQ(offset, end);  // left to right, without gaps or overlaps
    end = offset + length;
  }
  EXPECT_LE(end, level.pieces.back().offset);
  EXPECT_EQ(out.result.edited, plain.result.edited);
  EXPECT_EQ(out.result.overlays, plain.result.overlays);

  std::string target = dir_.path("out.bin");
  absl::Status s = patch::write_patched(level, out.result, target, &*input);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(test::read_file(target) == patch::patched_bytes(level, plain.result));
}

TEST_F(PatchOutput, FailedCheckLeavesNoFile) {
  std::vector<u8> bytes = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  Level level = carve_level(bytes, Game::ac2);
  auto out =
      patch::apply_patch_text(level, R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":3}])");
  ASSERT_FALSE(out.error) << out.error->message();
  ASSERT_EQ(out.result.edited_objects.size(), 1u);
  // The patched model says 4, the overlay holds 3: the read-back check must refuse the output.
  std::get<ac2::Visual>(out.result.edited_objects[0]).active = 4;
  std::string target = dir_.path("out.bin");
  absl::Status s = patch::write_patched(level, out.result, target);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(s.message(), target +
                             ": the written output does not read back as the patched model: the object at offset 0xe "
                             "does not read back as patched");
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(entries(dir_.path("")).empty());
}

TEST_F(PatchOutput, FailedCheckLeavesAnExistingTargetAlone) {
  std::vector<u8> bytes = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  Level level = carve_level(bytes, Game::ac2);
  auto out =
      patch::apply_patch_text(level, R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":3}])");
  ASSERT_FALSE(out.error) << out.error->message();
  // An overlay byte outside the object's fields' checks but inside its bytes: flip a byte of its id.
  out.result.overlays[0][0] ^= 0x01;
  std::string target = dir_.path("out.bin");
  std::vector<u8> before = {1, 2, 3};
  test::write_file(target, before);
  absl::Status s = patch::write_patched(level, out.result, target);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("does not read back as the patched model"), std::string::npos) << s.message();
  EXPECT_EQ(test::read_file(target), before);
  EXPECT_EQ(entries(dir_.path("")), std::vector<std::string>{"out.bin"});
}

TEST_F(PatchOutput, FailedWriteLeavesNoFile) {
  std::vector<u8> bytes = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  Level level = carve_level(bytes, Game::ac2);
  auto out =
      patch::apply_patch_text(level, R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":3}])");
  ASSERT_FALSE(out.error) << out.error->message();
  std::string target = dir_.path("out.bin");

  // An overlay that does not fit its piece is refused while streaming.
  patch::PatchResult short_overlay = out.result;
  short_overlay.overlays[0].pop_back();
  absl::Status s = patch::write_patched(level, short_overlay, target);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find("does not fit its piece"), std::string::npos) << s.message();
  EXPECT_TRUE(entries(dir_.path("")).empty());

  // No folder to write in.
  s = patch::write_patched(level, out.result, dir_.path("missing/out.bin"));
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(entries(dir_.path("")).empty());
}

}  // namespace
}  // namespace anvil
