// The kept runs of the forge declarations (model/forge/kept_bytes.hpp), which forge.json writes and reads:
// their sizes per version are FORGE.md's, they come in the declaration's order, and they go back where they
// came from.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "model/forge/data_file_header.hpp"
#include "model/forge/data_header.hpp"
#include "model/forge/kept_bytes.hpp"
#include "model/forge/name_entry.hpp"
#include "model/forge/table_section.hpp"

namespace anvil::forge {
namespace {

TEST(KeptBytes, SizesPerVersionAreFORGEs) {
  for (u32 version : {25u, 26u, 27u}) {
    const ForgeVariant v{version, 1};
    SCOPED_TRACE(version);
    // FORGE.md 1 and 7: 12 + 24 + 16 bytes of a name entry, and 4 more in version 27; the file-data header's
    // 32, and 4 more in version 27; a section's 4 + 8 + 8; a data file header's 312.
    EXPECT_EQ(kept_size<NameEntry>(v), version == 27 ? 56u : 52u);
    EXPECT_EQ(kept_size<DataHeader>(v), version == 27 ? 36u : 32u);
    EXPECT_EQ(kept_size<TableSection>(v), 20u);
    EXPECT_EQ(kept_size<DataFileHeader>(v), 312u);
  }
}

TEST(KeptBytes, RunsComeInTheDeclarationsOrderByName) {
  NameEntry entry;
  std::vector<std::string> names;
  std::vector<std::size_t> sizes;
  for_each_kept(entry, ForgeVariant{27, 1}, [&](std::string_view name, std::span<u8> run) {
    names.emplace_back(name);
    sizes.push_back(run.size());
  });
  EXPECT_EQ(names, (std::vector<std::string>{"unknown_0", "unknown_1", "unknown_2", "unknown_27"}));
  EXPECT_EQ(sizes, (std::vector<std::size_t>{12, 24, 16, 4}));
  names.clear();
  for_each_kept(entry, ForgeVariant{25, 1}, [&](std::string_view name, std::span<u8>) { names.emplace_back(name); });
  EXPECT_EQ(names, (std::vector<std::string>{"unknown_0", "unknown_1", "unknown_2"}));
}

TEST(KeptBytes, SetThenReadGivesTheSameBytesInTheirFields) {
  const ForgeVariant v{27, 3};
  std::vector<u8> bytes(kept_size<NameEntry>(v));
  std::iota(bytes.begin(), bytes.end(), u8{1});
  NameEntry entry;
  entry.raw_size = 77;
  entry.file_type.value = 88;
  ASSERT_TRUE(set_kept_bytes(entry, v, bytes));
  EXPECT_EQ(kept_bytes(entry, v), bytes);
  EXPECT_EQ(entry.unknown_0.bytes[0], 1);
  EXPECT_EQ(entry.unknown_1.bytes[0], 13);
  EXPECT_EQ(entry.unknown_2.bytes[0], 37);
  EXPECT_EQ(entry.unknown_27.bytes[3], 56);
  EXPECT_EQ(entry.raw_size, 77u);  // the fields anvilrt knows are left alone
  EXPECT_EQ(entry.file_type.value, 88u);

  NameEntry copy;
  copy_kept(entry, copy, v);
  EXPECT_EQ(kept_bytes(copy, v), bytes);
  EXPECT_EQ(copy.raw_size, 0u);
}

TEST(KeptBytes, AWrongLengthChangesNothing) {
  const ForgeVariant v{25, 1};
  DataHeader header;
  header.unknown.bytes.fill(9);
  EXPECT_FALSE(set_kept_bytes(header, v, std::vector<u8>(36, 1)));  // version 27's length, not 25's
  EXPECT_EQ(kept_bytes(header, v), std::vector<u8>(32, 9));
}

}  // namespace
}  // namespace anvil::forge
