// Archives read and written back byte for byte (FORGE.md 4): every generated shape and seed and every
// corpus archive; each data file decompresses to what the generator recorded, its entry table
// re-encodes to those bytes, and its bodies carve into the Visuals the generator put there.
#include <absl/strings/str_format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "gen/forge.hpp"
#include "model/dialect.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil::forge {
namespace {

struct Shape {
  Game game;
  u64 datafiles, visuals, block_size;
};

const Shape kShapes[] = {
    {Game::ac2, 1, 1, 0x8000}, {Game::ac2, 5, 4, 256}, {Game::ac2, 7, 10, 1000},
    {Game::sws, 5, 6, 300},    {Game::ac2, 10, 0, 64}, {Game::ac2, 6, 3, 0xFFFF},
};

// Everything a test can say about one archive from its bytes alone.
void expect_reads_and_round_trips(std::span<const u8> bytes, const std::string& what) {
  auto back = round_trip(bytes);
  ASSERT_TRUE(back.ok()) << what << ": " << back.status();
  ASSERT_EQ(back->size(), bytes.size()) << what;
  EXPECT_TRUE(std::equal(back->begin(), back->end(), bytes.begin())) << what;
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok());
  const ChecksumVerdict checksums = archive_checksums(bytes, *archive).verdict;
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    auto read = read_data_file(bytes, *archive, i, checksums);
    ASSERT_TRUE(read.ok()) << what << ": " << read.status();
    const std::vector<u8> decoded(read->decoded.bytes.begin(), read->decoded.bytes.end());
    auto file = parse_data_file(decoded, archive->variant());
    ASSERT_TRUE(file.ok()) << what << ": " << file.status();
    EXPECT_EQ(encoded(*file, archive->variant().code()), decoded) << what << " data file " << i;
    // Read in place, the same table with its bodies where the copying read finds them.
    auto view = view_data_file(read->decoded.bytes, archive->variant());
    ASSERT_TRUE(view.ok()) << what << ": " << view.status();
    ASSERT_EQ(view->file.entries.size(), file->entries.size());
    std::vector<BodyAt> copied = body_layout(*file, archive->variant()), viewed = body_layout(*view);
    ASSERT_EQ(viewed.size(), copied.size());
    for (std::size_t e = 0; e < copied.size(); ++e) {
      EXPECT_EQ(viewed[e].offset, copied[e].offset) << what << " data file " << i << " entry " << e;
      EXPECT_EQ(viewed[e].size, copied[e].size);
      EXPECT_TRUE(std::ranges::equal(view->body(e), file->entries[e].body.bytes));
      EXPECT_TRUE(std::ranges::equal(view->name(e), file->entries[e].name.bytes));
    }
  }
}

TEST(ForgeRoundTrip, EveryGeneratedShapeAndSeed) {
  for (const Shape& shape : kShapes)
    for (u64 seed : {1, 2, 3}) {
      gen::ForgeOptions opt{shape.game, shape.datafiles, shape.visuals, seed, shape.block_size};
      gen::ForgeRecord record;
      std::vector<u8> bytes = gen::generate_forge(opt, &record);
      std::string what = absl::StrFormat("%d data files, %d visuals, block %d, seed %d", shape.datafiles, shape.visuals,
                                         shape.block_size, seed);
      expect_reads_and_round_trips(bytes, what);

      auto archive = read_archive(bytes);
      ASSERT_TRUE(archive.ok()) << what << ": " << archive.status();
      ASSERT_EQ(archive->files.size(), record.files.size());
      const ChecksumVerdict checksums = archive_checksums(bytes, *archive).verdict;
      EXPECT_EQ(checksums.name(), "adler32-0/stored") << what;
      EXPECT_EQ(checksums.matched, checksums.blocks) << what;
      for (std::size_t i = 0; i < record.files.size(); ++i) {
        const auto& want = record.files[i];
        EXPECT_EQ(archive->files[i].index.file_id.value, want.file_id);
        EXPECT_EQ(data_file_name(archive->files[i]), want.name);
        EXPECT_EQ(archive->files[i].index.offset, want.header_offset);
        auto read = read_data_file(bytes, *archive, i, checksums);
        ASSERT_TRUE(read.ok()) << read.status();
        EXPECT_TRUE(std::ranges::equal(read->decoded.bytes, want.decoded)) << what << " data file " << i;
        EXPECT_EQ(read->decoded.compression, want.compression);
        EXPECT_EQ(read->stored.compressed, want.form != gen::StoredForm::plain);
        EXPECT_EQ(read->stored.second.has_value(),
                  want.form == gen::StoredForm::two_block_sets || want.form == gen::StoredForm::block_set_then_chunks);
        auto file = parse_data_file(read->decoded.bytes);
        ASSERT_TRUE(file.ok());
        EXPECT_EQ(file->entries.size(), want.entries);
        u64 visuals = 0;
        for (const Entry& e : file->entries) {
          const Level level = carve_level(e.body.bytes, shape.game);
          for (const Piece& p : level.pieces)
            if (p.is_object()) visuals += class_name(parse_piece(level, p)) == "Visual";
        }
        EXPECT_EQ(visuals, want.visuals) << what << " data file " << i;
      }
    }
}

TEST(ForgeRoundTrip, GenerationIsDeterministic) {
  gen::ForgeOptions opt{Game::ac2, 5, 3, 7, 200};
  EXPECT_EQ(gen::generate_forge(opt), gen::generate_forge(opt));
  gen::ForgeOptions other = opt;
  other.seed = 8;
  EXPECT_NE(gen::generate_forge(opt), gen::generate_forge(other));
}

TEST(ForgeRoundTrip, EveryFormIsGenerated) {
  gen::ForgeRecord record;
  gen::generate_forge({Game::ac2, 5, 4, 1, 256}, &record);
  std::set<std::pair<gen::StoredForm, Compression>> forms;
  for (const auto& f : record.files) forms.insert({f.form, f.compression});
  EXPECT_TRUE(forms.count({gen::StoredForm::two_block_sets, Compression::lzo1x}));
  EXPECT_TRUE(forms.count({gen::StoredForm::chunks, Compression::lzo2a}));
  EXPECT_TRUE(forms.count({gen::StoredForm::chunks, Compression::lzo1x}));
  EXPECT_TRUE(forms.count({gen::StoredForm::plain, Compression::plain}));
  EXPECT_TRUE(forms.count({gen::StoredForm::block_set_then_chunks, Compression::lzo2a}));
  EXPECT_EQ(record.sections.size(), 2u);
}

TEST(ForgeRoundTrip, EveryCorpusArchive) {
  std::size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::corpus("forge"))) {
    if (entry.path().extension() != ".forge") continue;
    ++seen;
    expect_reads_and_round_trips(test::read_file(entry.path().string()), entry.path().filename().string());
  }
  EXPECT_GE(seen, 2u);
}

// read_archive given the input file reads the tables with pread: the same archive, and, cut short
// anywhere in its tables, the same error.
TEST(ForgeRoundTrip, TablesReadWithPreadAreTheSame) {
  test::TempDir dir;
  for (const auto& entry : std::filesystem::directory_iterator(test::corpus("forge"))) {
    if (entry.path().extension() != ".forge") continue;
    std::vector<u8> bytes = test::read_file(entry.path().string());
    Archive viewed = *read_archive(bytes);
    for (u64 cut : {u64{0}, u64{10}, u64{30}, viewed.header.first_header + 20, viewed.files.back().index.offset + 100,
                    u64{bytes.size()}}) {
      std::string path = dir.path("cut.forge");
      test::write_file(path, std::vector<u8>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut)));
      auto file = InputFile::open(path);
      ASSERT_TRUE(file.ok()) << file.status();
      auto a = read_archive(file->bytes()), b = read_archive(file->bytes(), &*file);
      ASSERT_EQ(a.ok(), b.ok()) << entry.path() << " cut at " << cut;
      if (!a.ok()) {
        EXPECT_EQ(a.status(), b.status()) << entry.path() << " cut at " << cut;
        continue;
      }
      ASSERT_EQ(a->files.size(), b->files.size());
      EXPECT_EQ(a->header.first_header, b->header.first_header);
      for (std::size_t i = 0; i < a->files.size(); ++i) {
        EXPECT_EQ(a->files[i].index.offset, b->files[i].index.offset);
        EXPECT_EQ(a->files[i].index.size, b->files[i].index.size);
        EXPECT_EQ(data_file_name(a->files[i]), data_file_name(b->files[i]));
        EXPECT_EQ(a->files[i].header.unknown.bytes, b->files[i].header.unknown.bytes);
      }
    }
  }
}

}  // namespace
}  // namespace anvil::forge
