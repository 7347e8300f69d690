// The data-file layouts 0-3 (FORGE.md 7) in every archive version: for each pair, a generated archive
// round-trips byte for byte, is found by content, extracts to the generator's data files, refuses a wrong
// layout named with one line, takes a patch of one object addressed through its data file, and the same
// patch on the extracted data file, put back, gives the same archive byte for byte.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <filesystem>
#include <functional>
#include <string>
#include <utility>

#include "gen/forge.hpp"
#include "model/forge/variant.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;

gen::ForgeOptions layout_options(u8 layout, u32 version = 25) {
  gen::ForgeOptions o;
  o.version = version;
  o.layout = layout;
  o.visuals = 3;
  o.datafiles = 5;
  o.seed = 7;
  o.block_size = 300;  // several blocks and chunks per data file
  return o;
}

// The first object of the first data file holding one, as `dump` of the archive lists it: (name, key).
std::pair<std::string, std::string> first_object(const std::string& forge) {
  auto r = test::run_cli({"dump", forge, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const rapidjson::Document dump = test::parse_json(r.out);
  // Depth first, in the document's order: the first member named DataFile_* whose "objects" has one.
  std::function<std::pair<std::string, std::string>(const rapidjson::Value&)> find =
      [&](const rapidjson::Value& v) -> std::pair<std::string, std::string> {
    if (!v.IsObject()) return {};
    for (const auto& m : v.GetObject()) {
      const std::string name = m.name.GetString();
      if (name.starts_with("DataFile_") && m.value.IsObject() && m.value.HasMember("objects") &&
          m.value["objects"].IsObject() && m.value["objects"].MemberCount() > 0)
        return {name, m.value["objects"].MemberBegin()->name.GetString()};
      if (auto found = find(m.value); !found.first.empty()) return found;
    }
    return {};
  };
  return find(dump);
}

void write_text(const std::string& path, const std::string& text) {
  test::write_file(path, std::vector<u8>(text.begin(), text.end()));
}

TEST(ForgeLayouts, VariantCodeZeroIsVersion25Layout1AndOfInvertsCode) {
  EXPECT_EQ(forge::ForgeVariant{}.code(), 0u);
  for (u32 v = forge::ForgeVariant::kFirst; v <= forge::ForgeVariant::kLast; ++v)
    for (u8 l = 0; l < forge::ForgeVariant::kLayouts; ++l) {
      const forge::ForgeVariant x{v, l};
      EXPECT_EQ(forge::ForgeVariant::of(x.code()), x);
    }
}

// Every archive version with every data-file layout.
std::vector<forge::ForgeVariant> every_pair() {
  std::vector<forge::ForgeVariant> pairs;
  for (u32 v = forge::ForgeVariant::kFirst; v <= forge::ForgeVariant::kLast; ++v)
    for (u8 l = 0; l < forge::ForgeVariant::kLayouts; ++l) pairs.push_back({v, l});
  return pairs;
}

// An archive of every pair written into `dir` as TAG.forge (TAG: "v25-l0"...), given to `check` with its
// tag and the generator's record, under a trace naming the pair.
void for_each_pair_file(test::TempDir& dir,
                        const std::function<void(forge::ForgeVariant, const std::string&, const std::string&,
                                                 const gen::ForgeRecord&)>& check) {
  for (const forge::ForgeVariant pair : every_pair()) {
    const std::string tag = absl::StrFormat("v%d-l%d", pair.archive, pair.layout);
    SCOPED_TRACE(tag);
    const std::string forge = dir.path(tag + ".forge");
    auto rec = gen::generate_forge_file(layout_options(pair.layout, pair.archive), forge);
    ASSERT_TRUE(rec.ok()) << rec.status();
    check(pair, tag, forge, *rec);
  }
}

TEST(ForgeLayouts, EveryPairRoundTripsAndIsFoundByContent) {
  for (const forge::ForgeVariant pair : every_pair()) {
    const u8 layout = pair.layout;
    SCOPED_TRACE(absl::StrFormat("version %d layout %d", pair.archive, layout));
    gen::ForgeRecord rec;
    std::vector<u8> bytes = gen::generate_forge(layout_options(layout, pair.archive), &rec);
    auto archive = forge::read_archive(bytes);
    ASSERT_TRUE(archive.ok()) << archive.status();
    EXPECT_EQ(archive->variant().layout, layout);
    for (std::size_t i = 0; i < archive->files.size(); ++i) {
      auto read = forge::read_data_file(bytes, *archive, i, forge::ChecksumVerdict{});
      ASSERT_TRUE(read.ok()) << read.status();
      EXPECT_TRUE(std::ranges::equal(read->decoded.bytes, rec.files[i].decoded));
      auto view = forge::view_data_file(read->decoded.bytes, archive->variant());
      ASSERT_TRUE(view.ok()) << view.status();
      EXPECT_EQ(view->file.entries.size(), rec.files[i].entries);
      // The bodies where the declaration's walk puts them (table_end and each resource header, measured by
      // FieldWalker on the table read) are where the reader found them.
      auto file = forge::parse_data_file(read->decoded.bytes, archive->variant());
      ASSERT_TRUE(file.ok()) << file.status();
      std::vector<forge::BodyAt> measured = forge::body_layout(*file, archive->variant()),
                                 viewed = forge::body_layout(*view);
      ASSERT_EQ(measured.size(), viewed.size());
      for (std::size_t e = 0; e < viewed.size(); ++e) EXPECT_EQ(measured[e].offset, viewed[e].offset) << "entry " << e;
      // And each block's or chunk's stored bytes where block_layout() puts it: a block's after its checksum,
      // a chunk's ending where the next begins (or where the data file ends).
      auto stored = forge::read_stored(bytes, *archive, i);
      ASSERT_TRUE(stored.ok()) << stored.status();
      const std::vector<forge::BlockAt> blocks = forge::block_layout(*stored, archive->files[i].stored_offset());
      const u64 stored_end = archive->files[i].stored_offset() + archive->files[i].index.size;
      for (std::size_t k = 0; k < blocks.size(); ++k) {
        const forge::BlockSet& set = *(blocks[k].set == 0 ? stored->first : stored->second);
        if (set.max_size != 0) {
          const std::vector<u8>& own = set.blocks[blocks[k].block].stored.bytes;
          EXPECT_TRUE(std::ranges::equal(std::span(bytes).subspan(blocks[k].stored_offset + 4, own.size()), own))
              << "block " << k;
        } else {
          const std::vector<u8>& own = set.chunks[blocks[k].block].stored.bytes;
          const u64 next = k + 1 < blocks.size() ? blocks[k + 1].stored_offset : stored_end;
          ASSERT_GE(next, blocks[k].stored_offset + own.size());
          EXPECT_TRUE(std::ranges::equal(std::span(bytes).subspan(next - own.size(), own.size()), own))
              << "chunk " << k;
        }
      }
    }
    auto again = forge::round_trip(bytes);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_TRUE(*again == bytes);
  }
}

TEST(ForgeLayouts, ExtractGivesTheGeneratorsDataFilesAndLsShowsTheLayout) {
  test::TempDir dir;
  for (u8 layout = 0; layout < 4; ++layout) {
    SCOPED_TRACE(absl::StrFormat("layout %d", layout));
    const std::string forge = dir.path(absl::StrFormat("l%d.forge", layout));
    auto rec = gen::generate_forge_file(layout_options(layout), forge);
    ASSERT_TRUE(rec.ok()) << rec.status();
    auto r = test::run_cli({"ls", forge});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("  layout %d\n", layout)));
    const std::string x = dir.path(absl::StrFormat("x%d", layout));
    r = test::run_cli({"extract", forge, "-o", x, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& f : rec->files) EXPECT_EQ(test::read_file(x + "/" + f.name + ".data"), f.decoded) << f.name;
    r = test::run_cli({"verify", forge, "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("archive version 25, data-file layout %d,", layout)));
    // The layout named agrees with the one found.
    r = test::run_cli({"ls", "--layout", std::to_string(layout), forge});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

TEST(ForgeLayouts, AWrongLayoutNamedIsRefusedInOneLine) {
  test::TempDir dir;
  for (u8 layout = 0; layout < 4; ++layout) {
    SCOPED_TRACE(absl::StrFormat("layout %d", layout));
    const std::string forge = dir.path(absl::StrFormat("w%d.forge", layout));
    ASSERT_TRUE(gen::generate_forge_file(layout_options(layout), forge).ok());
    const std::string wrong = std::to_string((layout + 1) % 4);
    auto r = test::run_cli({"extract", "--layout", wrong, forge, "-o", dir.path("wx" + wrong), "-q"});
    EXPECT_NE(r.exit_code, 0);
    // Each error is one line naming the offset and the data file.
    std::istringstream lines(r.err);
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    // Substrings, not a regex: gtest's regex on Windows is its "simple" kind, without character classes.
    EXPECT_THAT(line, ::testing::AllOf(HasSubstr(": offset 0x"), HasSubstr(": data file "), HasSubstr(" 'DataFile_")));
  }
  auto r = test::run_cli({"ls", "--layout", "4", dir.path("w0.forge")});
  EXPECT_NE(r.exit_code, 0);
}

TEST(ForgeLayouts, AnObjectPatchedInLayouts0And3) {
  test::TempDir dir;
  for (u8 layout : {u8{0}, u8{3}}) {
    SCOPED_TRACE(absl::StrFormat("layout %d", layout));
    const std::string forge = dir.path(absl::StrFormat("p%d.forge", layout));
    ASSERT_TRUE(gen::generate_forge_file(layout_options(layout), forge).ok());
    const auto [name, key] = first_object(forge);
    ASSERT_FALSE(name.empty());
    const std::string text =
        absl::StrFormat(R"([{"op":"replace","path":"/datafiles/%s/objects/%s/managed","value":1}])", name, key);
    const std::string patch = dir.path(absl::StrFormat("p%d.json", layout));
    test::write_file(patch, std::vector<u8>(text.begin(), text.end()));
    const std::string out = forge + ".patched";
    auto r = test::run_cli({"patch", forge, patch, "-o", out, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_cli({"ls", out});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("  layout %d\n", layout)));
    r = test::run_cli({"dump", out, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat(R"("%s":{"offset")", key)));
    auto bytes = test::read_file(out);
    auto again = forge::round_trip(bytes);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_TRUE(*again == bytes);
  }
}

TEST(ForgeLayouts, APatchOfAnExtractedDataFilePutBackIsThePatchOfTheArchiveInEveryPair) {
  test::TempDir dir;
  for_each_pair_file(dir, [&](forge::ForgeVariant, const std::string& tag, const std::string& forge,
                              const gen::ForgeRecord&) {
    const auto [name, key] = first_object(forge);
    ASSERT_FALSE(name.empty());
    // The archive patched through the data file's path.
    write_text(dir.path(tag + "-a.json"),
               absl::StrFormat(R"([{"op":"replace","path":"/datafiles/%s/objects/%s/managed","value":1}])", name, key));
    auto r = test::run_cli({"patch", forge, dir.path(tag + "-a.json"), "-o", dir.path(tag + "-a.forge"), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The extracted data file patched alone (its layout found by content), then put back.
    r = test::run_cli({"extract", forge, "-o", dir.path(tag + "-x"), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string loose = dir.path(tag + "-x/" + name + ".data");
    write_text(dir.path(tag + "-d.json"),
               absl::StrFormat(R"([{"op":"replace","path":"/objects/%s/managed","value":1}])", key));
    const std::string edited = dir.path(tag + "-e");
    std::filesystem::create_directory(edited);
    r = test::run_cli({"patch", loose, dir.path(tag + "-d.json"), "-o", edited + "/" + name + ".data", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_cli({"put", forge, edited + "/" + name + ".data", "-o", dir.path(tag + "-p.forge"), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(test::read_file(dir.path(tag + "-p.forge")) == test::read_file(dir.path(tag + "-a.forge")));
    // The unchanged extraction put back is the archive itself.
    r = test::run_cli({"put", forge, loose, "-o", dir.path(tag + "-same.forge"), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(test::read_file(dir.path(tag + "-same.forge")) == test::read_file(forge));
  });
}

TEST(ForgeLayouts, ALooseDataFileIsReadInTheLayoutNamed) {
  test::TempDir dir;
  const std::string forge = dir.path("l3.forge");
  ASSERT_TRUE(gen::generate_forge_file(layout_options(3, 27), forge).ok());
  ASSERT_EQ(test::run_cli({"extract", forge, "-o", dir.path("x"), "-q"}).exit_code, 0);
  // Found by content, and named: the same objects.
  auto found = test::run_cli({"dump", dir.path("x/DataFile_000.data"), "-q"});
  ASSERT_EQ(found.exit_code, 0) << found.err;
  auto named = test::run_cli({"dump", "--layout", "2", dir.path("x/DataFile_000.data"), "-q"});
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(found.out, named.out);
  EXPECT_THAT(found.out, HasSubstr("\"objects\":{\"0x"));
  // A layout it does not read in, named: then it is no data file (carved whole, as a level file).
  auto wrong = test::run_cli({"dump", "-v", "--layout", "0", dir.path("x/DataFile_000.data")});
  ASSERT_EQ(wrong.exit_code, 0) << wrong.err;
  EXPECT_THAT(wrong.err, testing::Not(HasSubstr("a decompressed data file")));
  auto right = test::run_cli({"dump", "-v", "--layout", "3", dir.path("x/DataFile_000.data")});
  ASSERT_EQ(right.exit_code, 0) << right.err;
  EXPECT_THAT(right.err, HasSubstr("a decompressed data file ("));
}

TEST(ForgeLayouts, PackOfAnExtractionKeepsTheVersionAndTheLayout) {
  test::TempDir dir;
  for_each_pair_file(dir, [&](forge::ForgeVariant pair, const std::string& tag, const std::string& forge,
                              const gen::ForgeRecord& rec) {
    ASSERT_EQ(test::run_cli({"extract", forge, "-o", dir.path(tag + "-x"), "-q"}).exit_code, 0);
    auto r = test::run_cli({"pack", dir.path(tag + "-x"), "-o", dir.path(tag + "-p.forge"), "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto packed = forge::read_archive(test::read_file(dir.path(tag + "-p.forge")));
    ASSERT_TRUE(packed.ok()) << packed.status();
    EXPECT_EQ(packed->header.version, pair.archive);
    EXPECT_EQ(packed->variant().layout, pair.layout);
    // The same data files, in the layout's stored form.
    ASSERT_EQ(test::run_cli({"extract", dir.path(tag + "-p.forge"), "-o", dir.path(tag + "-px"), "-q"}).exit_code, 0);
    for (const auto& f : rec.files)
      EXPECT_EQ(test::read_file(dir.path(tag + "-px/" + f.name + ".data")), f.decoded) << f.name;
  });
}

}  // namespace
}  // namespace anvil
