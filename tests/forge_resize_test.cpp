// Resizing a stored data file (FORGE.md 5): repack() of new decompressed bytes of another size, in every
// stored form and at several block sizes. What it writes decompresses to the new bytes, every block
// checksummed by the archive's rule; the blocks before the one holding the first changed byte keep their
// stored bytes and checksums; with two block sets the first keeps its length; a re-cut set is cut into
// blocks of its largest uncompressed block size; a plain data file stays plain.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "fuzz/forge_invariants.hpp"
#include "gen/forge.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "writer/forge/repack.hpp"

namespace anvil::forge {
namespace {

// One block or chunk, flattened: where its bytes start in the data file, and what it stores.
struct Flat {
  std::size_t set = 0;
  u64 decoded_offset = 0;
  u64 decoded_size = 0;
  std::vector<u8> stored;
  u32 checksum = 0;
  bool operator==(const Flat&) const = default;
};

std::vector<Flat> flatten(const StoredDataFile& s) {
  std::vector<Flat> out;
  u64 at = 0;
  std::size_t k = 0;
  for (const std::optional<BlockSet>* set : {&s.first, &s.second}) {
    if (set->has_value()) {
      for (const Block& b : (*set)->blocks) {
        out.push_back({k, at, b.uncompressed_size, b.stored.bytes, b.checksum});
        at += b.uncompressed_size;
      }
      for (const Chunk& c : (*set)->chunks) {
        out.push_back({k, at, c.decoded_size(), c.stored.bytes, c.checksum});
        at += c.decoded_size();
      }
    }
    ++k;
  }
  return out;
}

u64 set_length(const BlockSet& s) {
  u64 n = 0;
  for (const Block& b : s.blocks) n += b.uncompressed_size;
  for (const Chunk& c : s.chunks) n += c.decoded_size();
  return n;
}

u64 largest_block(const BlockSet& s) {
  u64 n = 0;
  for (const Block& b : s.blocks) n = std::max<u64>(n, b.uncompressed_size);
  for (const Chunk& c : s.chunks) n = std::max<u64>(n, c.decoded_size());
  return n;
}

// The size a re-cut set is cut into: its largest block's, or, for a set that held none, the data file's.
u64 cut_size(const StoredDataFile& s, const BlockSet& set) {
  if (u64 n = largest_block(set)) return n;
  return std::max(largest_block(*s.first), s.second ? largest_block(*s.second) : 0);
}

std::vector<u8> noise(std::size_t n, u64 seed) {
  std::vector<u8> out(n);
  u64 x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (u8& b : out) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b = static_cast<u8>(x);
  }
  return out;
}

struct Case {
  std::vector<u8> archive_bytes;
  Archive archive;
  ChecksumVerdict verdict;
  gen::ForgeRecord record;
};

Case make(Game game, u64 block_size, u64 seed) {
  Case c;
  c.archive_bytes = gen::generate_forge({game, 5, 6, seed, block_size}, &c.record);
  c.archive = *read_archive(c.archive_bytes);
  c.verdict = archive_checksums(c.archive_bytes, c.archive).verdict;
  return c;
}

// Repacks data file i of `c` to `now` and checks every rule of FORGE.md 5 on the result.
void check_resize(const Case& c, std::size_t i, const std::vector<u8>& now, const std::string& what) {
  SCOPED_TRACE(what + ", data file " + std::to_string(i) + " (" +
               std::string(gen::stored_form_name(c.record.files[i].form)) + ")");
  auto original = read_stored(c.archive_bytes, c.archive, i);
  ASSERT_TRUE(original.ok()) << original.status();
  const std::vector<u8>& before = c.record.files[i].decoded;
  RepackReport report;
  auto packed = repack(*original, before, now, c.verdict, &report);
  ASSERT_TRUE(packed.ok()) << packed.status();
  // Read back from its encoding: the new bytes, every checksum by the archive's rule (decode refuses a
  // block the rule does not match).
  std::vector<u8> encoded = encode_stored(*packed);
  Archive fake = c.archive;
  fake.files[i].index.size = static_cast<u32>(encoded.size());
  std::vector<u8> bytes = c.archive_bytes;
  bytes.resize(c.archive.files[i].stored_offset());
  bytes.insert(bytes.end(), encoded.begin(), encoded.end());
  auto reread = read_stored(bytes, fake, i);
  ASSERT_TRUE(reread.ok()) << reread.status();
  auto decoded = decode(*reread, 0, c.verdict);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_TRUE(std::ranges::equal(decoded->bytes, now));
  EXPECT_EQ(reread->compressed, original->compressed) << "the stored form is kept";
  if (!original->compressed) return;
  ASSERT_EQ(packed->first.has_value(), original->first.has_value());
  ASSERT_EQ(packed->second.has_value(), original->second.has_value());
  EXPECT_EQ(packed->first->max_size != 0, original->first->max_size != 0);
  // The blocks before the one holding the first changed byte keep their stored bytes and checksums.
  const std::size_t changed = static_cast<std::size_t>(
      std::mismatch(before.begin(), before.begin() + static_cast<std::ptrdiff_t>(std::min(before.size(), now.size())),
                    now.begin())
          .first -
      before.begin());
  std::vector<Flat> was = flatten(*original), is = flatten(*packed);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < was.size() && was[k].decoded_offset + was[k].decoded_size <= changed; ++k) {
    ASSERT_LT(k, is.size());
    EXPECT_EQ(was[k], is[k]) << "block " << k << " is before the first change";
    ++kept;
  }
  EXPECT_EQ(report.blocks, is.size());
  EXPECT_EQ(report.recompressed, is.size() - kept) << "every block from the first change on is new";
  // Two sets: the first keeps its length when it can; the second takes the rest.
  if (original->second) {
    const u64 first = set_length(*original->first);
    EXPECT_EQ(set_length(*packed->first), std::min<u64>(first, now.size()));
  }
  // A re-cut set: blocks of its largest uncompressed block size, the last of it perhaps shorter.
  for (const std::optional<BlockSet>* set : {&packed->first, &packed->second}) {
    if (!set->has_value()) continue;
    const BlockSet& old_set = set == &packed->first ? *original->first : *original->second;
    EXPECT_LE(largest_block(**set), cut_size(*original, old_set));
  }
  for (std::size_t k = kept; k + 1 < is.size(); ++k)
    if (is[k].set == is[k + 1].set) {
      const BlockSet& s = is[k].set == 0 ? *original->first : *original->second;
      EXPECT_EQ(is[k].decoded_size, cut_size(*original, s)) << "block " << k;
    }
}

TEST(ForgeResize, GrowAndShrinkInEveryFormAndBlockSize) {
  for (Game game : {Game::ac2, Game::sws})
    for (u64 block_size : {64u, 300u, 4096u}) {
      Case c = make(game, block_size, 11 + block_size);
      for (std::size_t i = 0; i < c.archive.files.size(); ++i) {
        const std::vector<u8>& d = c.record.files[i].decoded;
        for (u64 n : {u64{1}, block_size + 7, 3 * block_size}) {
          for (u64 at : {u64{0}, u64{d.size() / 3}, u64{d.size() / 2 + 5}, u64{d.size()}}) {
            at = std::min<u64>(at, d.size());
            std::vector<u8> grown = d;
            std::vector<u8> more = noise(n, at + n);
            grown.insert(grown.begin() + static_cast<std::ptrdiff_t>(at), more.begin(), more.end());
            check_resize(c, i, grown, "grow by " + std::to_string(n) + " at " + std::to_string(at));
            if (at + n <= d.size()) {
              std::vector<u8> shrunk = d;
              shrunk.erase(shrunk.begin() + static_cast<std::ptrdiff_t>(at),
                           shrunk.begin() + static_cast<std::ptrdiff_t>(at + n));
              check_resize(c, i, shrunk, "shrink by " + std::to_string(n) + " at " + std::to_string(at));
            }
          }
        }
        // Below the first of two sets, and to nothing.
        check_resize(c, i, std::vector<u8>(d.begin(), d.begin() + 10), "cut to 10 bytes");
        check_resize(c, i, {}, "cut to nothing");
      }
    }
}

TEST(ForgeResize, EqualSizeKeepsTheOriginalBoundaries) {
  Case c = make(Game::ac2, 256, 5);
  for (std::size_t i = 0; i < c.archive.files.size(); ++i) {
    std::vector<u8> d = c.record.files[i].decoded;
    d[d.size() - 2] ^= 0x55;
    auto original = read_stored(c.archive_bytes, c.archive, i);
    ASSERT_TRUE(original.ok());
    RepackReport report;
    auto packed = repack(*original, c.record.files[i].decoded, d, c.verdict, &report);
    ASSERT_TRUE(packed.ok()) << packed.status();
    std::vector<Flat> was = flatten(*original), is = flatten(*packed);
    ASSERT_EQ(was.size(), is.size());
    for (std::size_t k = 0; k < was.size(); ++k) {
      EXPECT_EQ(was[k].decoded_size, is[k].decoded_size);
      if (k + 1 < was.size()) {
        EXPECT_EQ(was[k], is[k]);
      }
    }
    if (original->compressed) {
      EXPECT_EQ(report.recompressed, 1u) << "a one-byte edit re-compresses one block";
    }
  }
}

TEST(ForgeResize, UnchangedBytesGiveTheSameStoredForm) {
  Case c = make(Game::sws, 300, 9);
  for (std::size_t i = 0; i < c.archive.files.size(); ++i) {
    auto original = read_stored(c.archive_bytes, c.archive, i);
    ASSERT_TRUE(original.ok());
    auto packed = repack(*original, c.record.files[i].decoded, c.record.files[i].decoded, c.verdict);
    ASSERT_TRUE(packed.ok());
    EXPECT_EQ(encode_stored(*packed), encode_stored(*original));
  }
}

TEST(ForgeResize, APlainDataFileRefusesTheCompressionMagic) {
  Case c = make(Game::ac2, 300, 3);
  const std::size_t i = 2;  // plain
  ASSERT_EQ(c.record.files[i].form, gen::StoredForm::plain);
  std::vector<u8> d = c.record.files[i].decoded;
  const u8 magic[] = {0x33, 0xAA, 0xFB, 0x57, 0x99, 0xFA, 0x04, 0x10};
  d.insert(d.begin() + 20, std::begin(magic), std::end(magic));
  auto original = read_stored(c.archive_bytes, c.archive, i);
  auto packed = repack(*original, c.record.files[i].decoded, d, c.verdict);
  ASSERT_FALSE(packed.ok());
  EXPECT_THAT(std::string(packed.status().message()),
              testing::AllOf(testing::HasSubstr("0x14"), testing::HasSubstr("compression magic")));
}

TEST(ForgeResize, WithoutARuleAGrownCompressedDataFileIsRefused) {
  Case c = make(Game::ac2, 300, 4);
  auto original = read_stored(c.archive_bytes, c.archive, 0);
  std::vector<u8> d = c.record.files[0].decoded;
  std::vector<u8> more = noise(900, 1);
  d.insert(d.end(), more.begin(), more.end());
  auto packed = repack(*original, c.record.files[0].decoded, d, ChecksumVerdict{});
  ASSERT_FALSE(packed.ok());
  EXPECT_THAT(std::string(packed.status().message()), testing::HasSubstr("cannot be given a checksum"));
}

}  // namespace
}  // namespace anvil::forge

namespace anvil::forge {
namespace {

// The forge harness's invariant (its put included) on generated archives and on copies with a few bytes
// changed, of every stored form: a short deterministic campaign in the unit tests.
TEST(ForgeResize, TheForgeInvariantHoldsOnMutatedArchives) {
  u64 x = 0x2545F4914F6CDD1Dull;
  auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  for (Game game : {Game::ac2, Game::sws})
    for (u64 block_size : {64u, 1000u}) {
      const std::vector<u8> archive = gen::generate_forge({game, 5, 2, block_size, block_size});
      EXPECT_EQ(fuzz::check_forge(archive), "");
      for (int round = 0; round < 15; ++round) {
        std::vector<u8> bytes = archive;
        for (u64 k = 1 + next() % 4; k > 0; --k) bytes[next() % bytes.size()] ^= static_cast<u8>(1 + next() % 255);
        if (round % 7 == 0) bytes.resize(next() % bytes.size());
        EXPECT_EQ(fuzz::check_forge(bytes), "") << "round " << round;
      }
    }
}

}  // namespace
}  // namespace anvil::forge
