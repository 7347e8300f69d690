// Damaged data, run as the binary (FORGE.md 2): a block whose checksum does not match the archive's rule
// is an error in every command that reads it, naming the archive, the data file, the block, its offset
// and the rule with its count; `patch` carries an untouched damaged data file byte for byte and refuses to
// edit one; single flipped payload bits across the corpus never pass `verify`; and a file whose magic is
// `scimitar` but for a bit or two is said to look like a damaged archive.
#include <absl/strings/str_format.h>
#include <absl/strings/str_split.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "codec/checksums.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"

namespace anvil::forge {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

// The payload (the bytes after the checksum field, or after a chunk's header) of every block that
// carries a checksum: where a flipped bit must be caught.
struct Payload {
  std::size_t datafile = 0, set = 0, block = 0;
  u64 checksum_at = 0;  // the archive offset of the block (its checksum field, or a chunk's kind byte)
  u64 offset = 0, size = 0;
};

std::vector<Payload> checksummed_payloads(std::span<const u8> bytes) {
  std::vector<Payload> out;
  auto archive = read_archive(bytes);
  EXPECT_TRUE(archive.ok()) << archive.status();
  if (!archive.ok()) return out;
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    auto stored = read_stored(bytes, *archive, i);
    EXPECT_TRUE(stored.ok()) << stored.status();
    if (!stored.ok() || !stored->compressed) continue;
    const BlockSet* sets[] = {stored->first ? &*stored->first : nullptr, stored->second ? &*stored->second : nullptr};
    for (const BlockAt& b : block_layout(*stored, archive->files[i].stored_offset())) {
      const BlockSet& set = *sets[b.set];
      if (set.max_size != 0) {
        out.push_back(
            {i, b.set, b.block, b.stored_offset, b.stored_offset + 4, set.blocks[b.block].stored.bytes.size()});
      } else if (set.chunks[b.block].kind == Chunk::kCompressed) {
        out.push_back(
            {i, b.set, b.block, b.stored_offset, b.stored_offset + 13, set.chunks[b.block].stored.bytes.size()});
      }
    }
  }
  return out;
}

const char* const kDamageCorpus[] = {"forge/ac2_five_forms.forge", "forge/ac2_one_file.forge",
                                     "forge/sws_two_files.forge"};

// ac2_five_forms.forge with one bit flipped in the payload of data file 0's set 1 block 2.
struct Damaged {
  std::vector<u8> clean, bytes;
  Payload block;
  std::string rule;  // the verdict's description on the damaged archive
  std::string path;
};

Damaged damage(const test::TempDir& dir) {
  Damaged d;
  d.clean = test::read_file(test::corpus("forge/ac2_five_forms.forge"));
  d.bytes = d.clean;
  for (const Payload& p : checksummed_payloads(d.bytes))
    if (p.datafile == 0 && p.set == 1 && p.block == 2) d.block = p;
  EXPECT_GT(d.block.size, 0u);
  d.bytes[d.block.offset + d.block.size / 2] ^= 0x10;
  auto archive = read_archive(d.bytes);
  const ArchiveChecksums checksums = archive_checksums(d.bytes, *archive);
  EXPECT_TRUE(checksums.damaged(0));
  EXPECT_EQ(checksums.verdict.matched + 1, checksums.verdict.blocks);
  d.rule = checksums.describe();
  EXPECT_EQ(d.rule, absl::StrFormat("adler32-0/stored (%d of %d blocks)", checksums.verdict.blocks - 1,
                                    checksums.verdict.blocks));
  d.path = dir.path("damaged.forge");
  test::write_file(d.path, d.bytes);
  return d;
}

// The one line every command gives for the damaged block.
void expect_damage_line(const std::string& err, const Damaged& d) {
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_THAT(err, AllOf(HasSubstr("anvilrt: " + d.path + ": "),
                         HasSubstr(absl::StrFormat("offset 0x%x: data file 0 'DataFile_000' (0x6f3fae43): set 1 "
                                                   "block 2: damaged: ",
                                                   d.block.checksum_at)),
                         HasSubstr("the archive's checksum rule " + d.rule)))
      << err;
}

TEST(ForgeDamage, VerifySaysTheDataFileDoesNotReadAndVerifiesTheOthers) {
  test::TempDir dir;
  Damaged d = damage(dir);
  auto r = test::run_cli({"verify", d.path, "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 8u) << r.out;
  EXPECT_THAT(lines[1], HasSubstr(d.path + ": DataFile_000 (0x6f3fae43): "));
  // The line names the data file once, at its start; the error names the offset and the block.
  EXPECT_THAT(lines[1], HasSubstr(absl::StrFormat(": DOES NOT READ: offset 0x%x: set 1 block 2: damaged: ",
                                                  d.block.checksum_at)));
  EXPECT_EQ(lines[1].find("DataFile_000"), lines[1].rfind("DataFile_000")) << lines[1];
  EXPECT_THAT(lines[1], HasSubstr("the archive's checksum rule " + d.rule));
  for (std::size_t i = 2; i <= 5; ++i) EXPECT_THAT(lines[i], EndsWith(": identical"));
  EXPECT_EQ(lines[6], d.path + ": archive version 25, data-file layout 1, checksum rule " + d.rule +
                          ": 4 of 5 data files identical");
  EXPECT_EQ(lines[7], "verified 1 file: 0 identical, 0 differ, 0 missing, 1 unreadable");
}

TEST(ForgeDamage, LsAndLsObjectsRefuseTheDataFileInOneLine) {
  test::TempDir dir;
  Damaged d = damage(dir);
  for (bool objects : {false, true}) {
    std::vector<std::string> args = {"ls", d.path, "-q"};
    if (objects) args.push_back("--objects");
    auto r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    expect_damage_line(r.err, d);
    std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), 5u) << r.out;  // the four other data files and the archive's rule
    EXPECT_THAT(r.out, Not(HasSubstr("DataFile_000")));
    EXPECT_THAT(lines[0], HasSubstr("DataFile_001"));
    EXPECT_THAT(lines[0], HasSubstr("checksum adler32-0/stored"));
    EXPECT_EQ(lines.back(), "5 data files, archive version 25, checksum rule of the archive: " + d.rule);
  }
  auto json = test::run_cli({"ls", d.path, "--json", "-q"});
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_THAT(json.out, HasSubstr("\"checksum_rule\": \"adler32-0/stored\""));
  auto clean = test::run_cli({"ls", test::corpus("forge/ac2_five_forms.forge"), "-q"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_THAT(clean.out, HasSubstr("checksum rule of the archive: adler32-0/stored (48 of 48 blocks)"));
}

TEST(ForgeDamage, ExtractDumpAndStatsRefuseTheDataFile) {
  test::TempDir dir;
  Damaged d = damage(dir);
  const std::string out = dir.path("out");
  auto extract = test::run_cli({"extract", d.path, "DataFile_000", "-o", out, "-q"});
  EXPECT_EQ(extract.exit_code, 2) << extract.out << extract.err;
  expect_damage_line(extract.err, d);
  EXPECT_FALSE(std::filesystem::exists(out + "/DataFile_000.data"));

  auto dump = test::run_cli({"dump", d.path, "-q"});
  EXPECT_EQ(dump.exit_code, 2) << dump.err;
  expect_damage_line(dump.err, d);
  // The other data files still read.
  auto other = test::run_cli({"dump", d.path, "DataFile_001", "-q"});
  EXPECT_EQ(other.exit_code, 0) << other.err;
  EXPECT_THAT(other.out, HasSubstr("\"DataFile_001\""));

  auto stats = test::run_cli({"stats", d.path, "-q"});
  EXPECT_EQ(stats.exit_code, 2) << stats.err;
  expect_damage_line(stats.err, d);
  EXPECT_THAT(stats.out, HasSubstr(d.rule));
}

// The key of the first object of data file `name` in the clean archive.
std::string first_key(std::span<const u8> bytes, std::size_t datafile) {
  auto archive = read_archive(bytes);
  ArchiveLevels set(bytes, *archive, Game::ac2);
  auto level = set.level(datafile);
  EXPECT_TRUE(level.ok()) << level.status();
  if (!level.ok()) return "";
  for (const Piece& p : (*level)->pieces)
    if (p.is_object()) return object_key(p, Game::ac2);
  return "";
}

TEST(ForgeDamage, PatchCarriesAnUntouchedDamagedDataFileAndRefusesToEditOne) {
  test::TempDir dir;
  Damaged d = damage(dir);
  auto edit = [&](const std::string& name, std::size_t datafile) {
    std::string path = dir.path(name + ".json");
    std::string text = absl::StrFormat(R"([{"op":"replace","path":"/datafiles/%s/objects/%s/managed","value":1}])",
                                       name, first_key(d.clean, datafile));
    test::write_file(path, std::vector<u8>(text.begin(), text.end()));
    return path;
  };
  const std::string out = dir.path("patched.forge");
  auto r = test::run_cli({"patch", d.path, edit("DataFile_001", 1), "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_THAT(r.err, AllOf(HasSubstr("anvilrt: " + d.path + ": warning: data file 0 'DataFile_000' (0x6f3fae43)"),
                           HasSubstr("damaged"), HasSubstr(d.rule), HasSubstr("copied byte for byte")));
  std::vector<u8> written = test::read_file(out);
  auto before = read_archive(d.bytes);
  auto after = read_archive(written);
  ASSERT_TRUE(after.ok()) << after.status();
  const DataFileAt& a = before->files[0];
  const DataFileAt& b = after->files[0];
  ASSERT_EQ(a.index.size, b.index.size);
  EXPECT_TRUE(std::equal(d.bytes.begin() + a.index.offset, d.bytes.begin() + a.end(), written.begin() + b.index.offset,
                         written.begin() + b.end()));
  EXPECT_NE(
      std::vector<u8>(written.begin() + after->files[1].stored_offset(), written.begin() + after->files[1].end()),
      std::vector<u8>(d.bytes.begin() + before->files[1].stored_offset(), d.bytes.begin() + before->files[1].end()));

  const std::string refused = dir.path("refused.forge");
  auto no = test::run_cli({"patch", d.path, edit("DataFile_000", 0), "-o", refused, "-q"});
  EXPECT_EQ(no.exit_code, 2) << no.err;
  EXPECT_EQ(std::count(no.err.begin(), no.err.end(), '\n'), 1) << no.err;
  EXPECT_THAT(no.err,
              AllOf(HasSubstr("data file 0 'DataFile_000'"), HasSubstr("set 1 block 2: damaged"), HasSubstr(d.rule)));
  EXPECT_FALSE(std::filesystem::exists(refused));
}

// A set that checks each data file alone (ArchiveLevels::check_alone, as `mod check` reads): a data file's
// blocks are checked against the rule its own blocks vote, so the damaged block is still refused, another
// data file reads, and the archive never votes (the rest of it is not read).
TEST(ForgeDamage, ADataFileCheckedAloneIsCheckedByItsOwnBlocks) {
  test::TempDir dir;
  Damaged d = damage(dir);
  auto archive = read_archive(d.bytes);
  ASSERT_TRUE(archive.ok()) << archive.status();
  ArchiveLevels levels(d.bytes, *archive, Game::ac2);
  levels.check_alone();
  ASSERT_TRUE(read_stored(d.bytes, *archive, 1)->compressed);
  EXPECT_TRUE(levels.level(1).ok()) << levels.level(1).status();
  auto damaged = levels.level(0);
  ASSERT_FALSE(damaged.ok());
  EXPECT_THAT(damaged.status().message(), HasSubstr("set 1 block 2: damaged"));
  EXPECT_EQ(archive->checksums(), nullptr) << "no data file was checked against the archive's vote";
  // Once the archive has voted, its rule is the one checked, for that data file too.
  EXPECT_EQ(levels.checksums().verdict.describe(), d.rule);
  EXPECT_FALSE(levels.level(0).ok());
  levels.release(1);
  EXPECT_TRUE(levels.level(1).ok());
}

// ac2_five_forms.forge with every checksum recomputed as Adler-32 from 1 over the decompressed bytes: a
// rule no stored candidate can win, so the vote decompresses every block. With `spoil`, every checksum
// is that sum with bits flipped: no candidate matches any block.
std::vector<u8> checksummed_over_decoded(std::vector<u8> bytes, bool spoil = false) {
  auto archive = read_archive(bytes);
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    auto read = read_data_file(bytes, *archive, i, ChecksumVerdict{});
    EXPECT_TRUE(read.ok()) << read.status();
    if (!read.ok() || !read->stored.compressed) continue;
    const BlockSet* sets[] = {read->stored.first ? &*read->stored.first : nullptr,
                              read->stored.second ? &*read->stored.second : nullptr};
    // Skimmed: the blocks' sizes are those of the runs.
    for (const BlockAt& b : block_layout(read->stored, archive->files[i].stored_offset(), read->runs)) {
      const BlockSet& set = *sets[b.set];
      u64 at = b.stored_offset;
      if (set.max_size == 0) {
        if (set.chunks[b.block].kind == Chunk::kPlain) continue;
        at += 1 + 8;  // [kind][u32 compressed][u32 uncompressed], then the checksum
      }
      const u32 sum =
          (spoil ? 0xA5A5A5A5u : 0u) ^
          codec::adler32(1, std::span<const u8>(read->decoded.bytes).subspan(b.decoded_offset, b.decoded_size));
      std::memcpy(bytes.data() + at, &sum, sizeof sum);
    }
  }
  return bytes;
}

TEST(ForgeDamage, ARuleOverTheDecompressedBytesIsFoundAndChecked) {
  test::TempDir dir;
  std::vector<u8> bytes = checksummed_over_decoded(test::read_file(test::corpus("forge/ac2_five_forms.forge")));
  const std::string clean = dir.path("decoded.forge");
  test::write_file(clean, bytes);
  auto ls = test::run_cli({"ls", clean, "-q"});
  EXPECT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_THAT(ls.out, HasSubstr("checksum rule of the archive: adler32-1/decompressed (48 of 48 blocks)"));
  auto verify = test::run_cli({"verify", clean, "-q"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out;
  EXPECT_THAT(verify.out, HasSubstr(": archive version 25, data-file layout 1, checksum rule adler32-1/decompressed "
                                    "(48 of 48 blocks): 5 of 5 data files"));

  // A flipped bit in one block's payload: that block decompresses to other bytes, or not at all.
  Payload hit;
  for (const Payload& p : checksummed_payloads(bytes))
    if (p.datafile == 3 && p.set == 1 && p.block == 1) hit = p;
  ASSERT_GT(hit.size, 0u);
  bytes[hit.offset + hit.size / 3] ^= 0x02;
  const std::string damaged = dir.path("decoded-damaged.forge");
  test::write_file(damaged, bytes);
  verify = test::run_cli({"verify", damaged, "-q"});
  EXPECT_EQ(verify.exit_code, 2) << verify.out;
  EXPECT_THAT(verify.out, HasSubstr(absl::StrFormat("DataFile_003 (0x56d3eb83): 2004 bytes stored (lzo2a), 0 "
                                                    "decompressed, 0 entries, 0 objects carved, 0 bytes opaque, 0 "
                                                    "near misses: DOES NOT READ: offset 0x%x: set 1 block 1: ",
                                                    hit.checksum_at)));
  EXPECT_THAT(verify.out, HasSubstr(": archive version 25, data-file layout 1, checksum rule adler32-1/decompressed "
                                    "(47 of 48 blocks): 4 of 5 data files"));
  ls = test::run_cli({"ls", damaged, "-q"});
  EXPECT_EQ(ls.exit_code, 2);
  EXPECT_THAT(ls.err, HasSubstr("data file 3 'DataFile_003' (0x56d3eb83): set 1 block 1: "));
}

TEST(ForgeDamage, WithoutARuleEveryReportSaysNoneAndAnEditIsRefused) {
  test::TempDir dir;
  std::vector<u8> bytes = checksummed_over_decoded(test::read_file(test::corpus("forge/ac2_five_forms.forge")), true);
  const std::string path = dir.path("none.forge");
  test::write_file(path, bytes);
  const std::string none = "none (no candidate matches any of 48 blocks)";
  auto ls = test::run_cli({"ls", path, "-q"});
  EXPECT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_THAT(ls.out, HasSubstr("checksum rule of the archive: " + none));
  EXPECT_THAT(ls.out, HasSubstr("stored 825  decompressed 833  lzo2a  checksum none  layout 1\n"));
  auto verify = test::run_cli({"verify", path, "-q"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out;
  EXPECT_THAT(verify.out, HasSubstr(": archive version 25, data-file layout 1, checksum rule " + none +
                                    ": no block checked: 5 of 5 data files identical"));
  auto stats = test::run_cli({"stats", path, "-q"});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_THAT(stats.out, HasSubstr(none));
  const std::string patch = dir.path("edit.json");
  std::string text = absl::StrFormat(
      R"([{"op":"replace","path":"/datafiles/DataFile_001/objects/%s/managed","value":1}])", first_key(bytes, 1));
  test::write_file(patch, std::vector<u8>(text.begin(), text.end()));
  const std::string out = dir.path("out.forge");
  auto r = test::run_cli({"patch", path, patch, "-o", out, "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("data file 1 'DataFile_001' (0xccc177a5): the archive's checksum rule is " + none +
                               ", so a compressed data file cannot be changed"));
  EXPECT_FALSE(std::filesystem::exists(out));
}

// Single bits flipped in the payloads of checksummed blocks across the corpus archives: a sample of
// every block's middle bit, then evenly spaced bits of all payloads, 1,200 archives in all, verified in
// batches (each run takes many files). Not one may verify identical.
TEST(ForgeDamage, NoFlippedPayloadBitVerifies) {
  test::TempDir dir;
  struct Flip {
    std::size_t archive = 0;
    u64 bit = 0;  // archive offset * 8 + bit
  };
  std::vector<std::vector<u8>> archives;
  std::vector<Flip> flips;
  std::vector<std::pair<std::size_t, Payload>> all;
  u64 payload_bits = 0;
  for (std::size_t a = 0; a < std::size(kDamageCorpus); ++a) {
    archives.push_back(test::read_file(test::corpus(kDamageCorpus[a])));
    for (const Payload& p : checksummed_payloads(archives.back())) {
      if (p.size == 0) continue;
      all.push_back({a, p});
      payload_bits += 8 * p.size;
      flips.push_back({a, 8 * (p.offset + p.size / 2) + (flips.size() % 8)});  // every block once
    }
  }
  ASSERT_GE(all.size(), 90u);
  const std::size_t kSample = 1200;
  const u64 stride = payload_bits / (kSample - flips.size());
  u64 seen = 0;
  for (const auto& [a, p] : all)
    for (u64 bit = 0; bit < 8 * p.size; ++bit, ++seen)
      if ((seen + stride / 2) % stride == 0 && flips.size() < kSample) flips.push_back({a, 8 * p.offset + bit});
  ASSERT_EQ(flips.size(), kSample);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < flips.size(); ++k) {
    std::vector<u8> bytes = archives[flips[k].archive];
    bytes[flips[k].bit / 8] ^= static_cast<u8>(1u << (flips[k].bit % 8));
    names.push_back(dir.path(absl::StrFormat("flip%04d-%s-bit%d.forge", k,
                                             std::filesystem::path(kDamageCorpus[flips[k].archive]).stem().string(),
                                             flips[k].bit)));
    test::write_file(names.back(), bytes);
  }
  const std::size_t kBatch = 150;
  for (std::size_t from = 0; from < names.size(); from += kBatch) {
    std::vector<std::string> args = {"verify", "-q", "--no-json"};
    args.insert(args.end(), names.begin() + from, names.begin() + std::min(names.size(), from + kBatch));
    auto r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    // Per archive its last line ": K of N data files identical", K < N; and none counted identical.
    std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
    for (const std::string& line : lines) {
      if (line.find(": archive version 25, data-file layout 1, checksum rule ") == std::string::npos) continue;
      EXPECT_THAT(line, HasSubstr("checksum rule adler32-0/stored (")) << line;
      std::vector<std::string> words = absl::StrSplit(line.substr(line.rfind(": ") + 2), ' ');
      ASSERT_GE(words.size(), 3u) << line;
      EXPECT_NE(words[0], words[2]) << "a flipped bit verifies: " << line;
    }
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("verified %d files: 0 identical, 0 differ, 0 missing, %d unreadable",
                                                 args.size() - 3, args.size() - 3)))
        << r.out;
  }
}

TEST(ForgeDamage, AMagicABitOrTwoFromScimitarIsSaidToLookLikeADamagedArchive) {
  test::TempDir dir;
  std::vector<u8> bytes = test::read_file(test::corpus("forge/ac2_one_file.forge"));
  std::vector<u8> one = bytes, two = bytes, three = bytes;
  one[2] ^= 0x04;
  two[0] ^= 0x01;
  two[7] ^= 0x80;
  three[0] ^= 0x07;
  const std::string p1 = dir.path("one.forge"), p2 = dir.path("two.forge"), p3 = dir.path("three.forge");
  test::write_file(p1, one);
  test::write_file(p2, two);
  test::write_file(p3, three);
  const std::string looks = "warning: it looks like a damaged .forge archive (its first 8 bytes are the magic";
  for (const char* command : {"verify", "stats", "dump"}) {
    auto r = test::run_cli({command, p1, "-q"});
    EXPECT_THAT(r.err, HasSubstr("anvilrt: " + p1 + ": " + looks)) << command;
    EXPECT_THAT(r.err, HasSubstr("but for byte 2 bit 0x04), read as level data")) << command;
  }
  auto two_bits = test::run_cli({"verify", p2, "-q"});
  EXPECT_THAT(two_bits.err, HasSubstr("but for byte 0 bit 0x01, byte 7 bit 0x80), read as level data"));
  auto patch = dir.path("empty.json");
  test::write_file(patch, std::vector<u8>{'[', ']'});
  auto patched = test::run_cli({"patch", p1, patch, "--dry-run", "-q"});
  EXPECT_THAT(patched.err, HasSubstr(looks));
  auto diff = test::run_cli({"diff", p1, test::corpus("forge/ac2_one_file.forge"), "-q"});
  EXPECT_THAT(diff.err, HasSubstr("anvilrt: " + p1 + ": " + looks));
  // Three bits away, or a level file: nothing said.
  for (const std::string& path : {p3, test::corpus("ac2/lod_selector_slots.bin")}) {
    auto r = test::run_cli({"verify", path, "-q"});
    EXPECT_THAT(r.err, Not(HasSubstr("looks like a damaged"))) << path;
  }
}

}  // namespace
}  // namespace anvil::forge
