// Forge errors as values (model/forge/forge_error.hpp): one line formatted in one place, carried through an
// absl::Status as a payload and read back, context added by filling fields (never by cutting the text); an
// archive whose header says version 27 over a version 25 body says it was read as version 27; a damaged
// block names its data file, block, offset and rule once each.
#include "model/forge/forge_error.hpp"

#include <absl/status/status.h>
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"

namespace anvil::forge {
namespace {

using ::testing::HasSubstr;

// Every field set.
ForgeError full_error() {
  return {.code = absl::StatusCode::kDataLoss,
          .archive = "dir/a.forge",
          .offset = 0x1a2b,
          .data_file = ForgeError::DataFile{3, "level_01", "0x0001a2b3"},
          .block = ForgeError::Block{1, 2},
          .entry = ForgeError::Entry{4, "Mesh"},
          .reason = "damaged: its checksum 0x00000001 does not match its bytes",
          .rule = "adler32-0/stored (41 of 42 blocks)",
          .read_as = ForgeError::ReadAs{25, 1, "ac2"}};
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

TEST(ForgeError, FormatsEachPartOnceInOneOrder) {
  EXPECT_EQ(full_error().message(),
            "dir/a.forge: offset 0x1a2b: data file 3 'level_01' (0x0001a2b3): set 1 block 2: entry 4 'Mesh': "
            "damaged: its checksum 0x00000001 does not match its bytes under the archive's checksum rule "
            "adler32-0/stored (41 of 42 blocks) (read as version 25, layout 1, game ac2)");
  // An offset in the decompressed data file follows the data file that holds it; the tables are read as a
  // version alone.
  ForgeError e{.offset = 0x40,
               .offset_in = ForgeError::OffsetIn::data_file,
               .data_file = ForgeError::DataFile{0, "x", "0x00000007"},
               .block = ForgeError::Block{0, 5},
               .reason = "entries: count must fit",
               .read_as = ForgeError::ReadAs{27, std::nullopt, ""}};
  EXPECT_EQ(e.message(),
            "data file 0 'x' (0x00000007): decompressed offset 0x40: set 0 block 5: entries: count must fit "
            "(read as version 27)");
  EXPECT_EQ(ForgeError{.reason = "not a .forge archive"}.message(), "not a .forge archive");
}

TEST(ForgeError, RoundTripsThroughAStatusPayload) {
  const ForgeError e = full_error();
  const absl::Status s = e.status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(s.message(), e.message());
  std::optional<ForgeError> back = ForgeError::of(s);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, e);
  // A minimal one too, and none from an error of elsewhere or from OK.
  const ForgeError bare{.reason = "r"};
  EXPECT_EQ(ForgeError::of(bare.status()), bare);
  EXPECT_EQ(ForgeError::of(absl::InvalidArgumentError("offset 0x1: r")), std::nullopt);
  EXPECT_EQ(ForgeError::of(absl::OkStatus()), std::nullopt);
}

TEST(ForgeError, ContextIsAddedByFillingFields) {
  ForgeError e{.offset = 0x44, .block = ForgeError::Block{0, 1}, .reason = "it fails: here"};
  e.read_as = ForgeError::ReadAs{25, 1, ""};
  const ForgeError::DataFile file{2, "a: b", "0x00000010"};
  absl::Status s = with_archive(with_data_file(e.status(), file), "p.forge");
  EXPECT_EQ(s.message(),
            "p.forge: offset 0x44: data file 2 'a: b' (0x00000010): set 0 block 1: it fails: here (read as "
            "version 25, layout 1)");
  ForgeError expected = e;
  expected.data_file = file;
  expected.archive = "p.forge";
  EXPECT_EQ(ForgeError::of(s), expected);
  // A field already set is kept: the data file and the archive are named once.
  s = with_archive(with_data_file(s, {9, "other", "0x00000009"}), "q.forge");
  EXPECT_EQ(ForgeError::of(s), expected);
  EXPECT_EQ(occurrences(std::string(s.message()), "data file"), 1u);
  // An error from elsewhere is prefixed; OK stays OK.
  EXPECT_EQ(with_data_file(absl::NotFoundError("gone"), file).message(), "data file 2 'a: b' (0x00000010): gone");
  EXPECT_EQ(with_archive(absl::NotFoundError("gone"), "p.forge").message(), "p.forge: gone");
  EXPECT_TRUE(with_archive(absl::OkStatus(), "p.forge").ok());
}

// The archive of the issue: ac2_one_file.forge with its header's version set to 27 (its body is version 25's).
std::vector<u8> version_27_header(const std::vector<u8>& clean) {
  std::vector<u8> bytes = clean;
  const u32 version = 27;
  const std::size_t at = field_offset<ArchiveHeader>("version", ForgeVariant{});
  std::memcpy(bytes.data() + at, &version, sizeof version);
  return bytes;
}

TEST(ForgeError, AnArchiveReadAsVersion27SaysSo) {
  const std::vector<u8> clean = test::read_file(test::corpus("forge/ac2_one_file.forge"));
  auto archive = read_archive(clean);
  ASSERT_TRUE(archive.ok()) << archive.status();
  // The offset of the first section is read where version 27's file-data header keeps it.
  const u64 pointer_at = archive->header.first_header + TableLayout::of({27, 3}).first_section_at;
  test::TempDir dir;
  const std::string path = dir.path("b27.forge");
  test::write_file(path, version_27_header(clean));
  auto r = test::run_cli({"verify", path});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr(absl::StrFormat("anvilrt: %s: offset 0x%x: ", path, pointer_at)));
  EXPECT_THAT(r.err, HasSubstr(" (read as version 27)\n"));
  EXPECT_EQ(occurrences(r.err, "\n"), 1u) << r.err;
  EXPECT_EQ(occurrences(r.err, path), 1u) << r.err;
}

// The archive offset of data file 0's set 1 block 2 in ac2_five_forms.forge, and a bit of its payload flipped.
struct DamagedBlock {
  std::vector<u8> bytes;
  u64 block_at = 0;
};
DamagedBlock damage_block() {
  DamagedBlock d;
  d.bytes = test::read_file(test::corpus("forge/ac2_five_forms.forge"));
  auto archive = read_archive(d.bytes);
  EXPECT_TRUE(archive.ok()) << archive.status();
  auto stored = read_stored(d.bytes, *archive, 0);
  EXPECT_TRUE(stored.ok()) << stored.status();
  for (const BlockAt& b : block_layout(*stored, archive->files[0].stored_offset()))
    if (b.set == 1 && b.block == 2) d.block_at = b.stored_offset;
  EXPECT_NE(d.block_at, 0u);
  const u64 payload = d.block_at + 4 + stored->second->blocks[2].stored.bytes.size() / 2;  // past its checksum
  d.bytes[payload] ^= 0x10;
  return d;
}

TEST(ForgeError, ADamagedBlockNamesEachThingOnce) {
  DamagedBlock d = damage_block();
  auto archive = read_archive(d.bytes);
  ASSERT_TRUE(archive.ok()) << archive.status();
  const ArchiveChecksums checksums = archive_checksums(d.bytes, *archive);
  auto read = read_data_file(d.bytes, *archive, 0, checksums.verdict);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), absl::StatusCode::kDataLoss);
  std::optional<ForgeError> e = ForgeError::of(read.status());
  ASSERT_TRUE(e.has_value()) << read.status();
  EXPECT_EQ(e->offset, d.block_at);
  EXPECT_EQ(e->offset_in, ForgeError::OffsetIn::archive);
  EXPECT_EQ(e->data_file, data_file_ref(*archive, 0));
  EXPECT_EQ(e->block, (ForgeError::Block{1, 2}));
  EXPECT_EQ(e->rule, checksums.describe());
  EXPECT_EQ(e->read_as, (ForgeError::ReadAs{25, 1, ""}));
  const std::string message(read.status().message());
  for (const std::string& part : {std::string("data file 0 'DataFile_000' (0x6f3fae43)"), std::string("set 1 block 2"),
                                  absl::StrFormat("offset 0x%x", d.block_at), checksums.describe()})
    EXPECT_EQ(occurrences(message, part), 1u) << part << " in " << message;
  // The same line from the binary, the archive's path before it.
  test::TempDir dir;
  const std::string path = dir.path("damaged.forge");
  test::write_file(path, d.bytes);
  auto r = test::run_cli({"ls", path, "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err, "anvilrt: " + path + ": " + message + "\n");
}

TEST(ForgeError, DataFilesAreNamedByTheOneFormatter) {
  const std::vector<u8> bytes = test::read_file(test::corpus("forge/ac2_five_forms.forge"));
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok()) << archive.status();
  EXPECT_EQ(data_file_label(*archive, 1), data_file_text(data_file_ref(*archive, 1)));
  EXPECT_EQ(data_file_label(*archive, 1), "data file 1 'DataFile_001' (0xccc177a5)");
}

}  // namespace
}  // namespace anvil::forge
