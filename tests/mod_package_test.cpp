// Mod packages (pipeline/mods/mod_package.hpp, docs/mods.md "Mod packages"): a folder, a .zip and a .7z of the
// same files read to the same parts and digest; every unsafe member refused in one line naming it.
#include "pipeline/mods/mod_package.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "platform/paths.hpp"
#include "tests/test_support.hpp"

namespace anvil::mods {
namespace {

namespace fs = std::filesystem;

struct PackMember {
  PackMember(std::string p, std::string d, unsigned t = AE_IFREG, std::string l = "")
      : path(std::move(p)), data(std::move(d)), type(t), link(std::move(l)) {}
  std::string path;
  std::string data;
  unsigned type;
  std::string link;  // a symbolic link's target
};

la_ssize_t pack_append(archive*, void* out, const void* buffer, size_t length) {
  auto* bytes = static_cast<std::vector<u8>*>(out);
  bytes->insert(bytes->end(), static_cast<const u8*>(buffer), static_cast<const u8*>(buffer) + length);
  return static_cast<la_ssize_t>(length);
}

// The members written by libarchive's writer as a zip (or a 7z), with `options` ("zip:encryption=zipcrypt").
std::vector<u8> pack(const std::vector<PackMember>& members, bool seven_zip = false, const char* options = nullptr) {
  std::vector<u8> out;
  archive* a = archive_write_new();
  EXPECT_EQ(seven_zip ? archive_write_set_format_7zip(a) : archive_write_set_format_zip(a), ARCHIVE_OK);
  if (options != nullptr) {
    EXPECT_EQ(archive_write_set_options(a, options), ARCHIVE_OK) << archive_error_string(a);
    EXPECT_EQ(archive_write_set_passphrase(a, "secret"), ARCHIVE_OK);
  }
  archive_write_set_bytes_in_last_block(a, 1);  // no padding: a cut archive is cut
  EXPECT_EQ(archive_write_open2(a, &out, nullptr, pack_append, nullptr, nullptr), ARCHIVE_OK);
  for (const PackMember& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.path.c_str());
    archive_entry_set_filetype(e, m.type);
    archive_entry_set_perm(e, 0644);
    if (!m.link.empty()) archive_entry_set_symlink(e, m.link.c_str());
    archive_entry_set_size(e, m.type == AE_IFREG ? static_cast<la_int64_t>(m.data.size()) : 0);
    EXPECT_EQ(archive_write_header(a, e), ARCHIVE_OK) << archive_error_string(a);
    if (m.type == AE_IFREG && !m.data.empty()) archive_write_data(a, m.data.data(), m.data.size());
    archive_entry_free(e);
  }
  EXPECT_EQ(archive_write_close(a), ARCHIVE_OK) << archive_error_string(a);
  archive_write_free(a);
  return out;
}

std::span<const u8> as_bytes(const std::string& s) { return {reinterpret_cast<const u8*>(s.data()), s.size()}; }

void write_tree(const std::string& root, const std::vector<PackMember>& members) {
  for (const PackMember& m : members) {
    const fs::path p = platform::path_of(root) / platform::path_of(m.path);
    fs::create_directories(p.parent_path());
    test::write_file(platform::utf8_of(p), as_bytes(m.data));
  }
}

std::string hex64(char c) { return std::string(64, c); }

// A mod as the mods that exist ship it, in one top folder.
std::vector<PackMember> sample_mod() {
  return {
      {"MyMod/anvilrt-mod.json",
       R"({"name": "demo", "version": "1.2", "author": "someone", "game": "ac2", "made_for": {"levels.forge": ")" +
           hex64('a') + R"("}})"},
      {"MyMod/Extracted/levels.forge/1003_-_Lvl_Main.data", std::string(3000, 'x') + "level"},
      {"MyMod/Extracted/levels.forge/Plain.data", "plain bytes"},
      {"MyMod/patch.forge", "scimitar whole archive"},
      {"MyMod/fix.json", R"([{"op": "test", "path": "", "value": 1}])"},
      {"MyMod/readme.txt", "read me"},
  };
}

class ModPackageTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::vector<u8>& bytes) {
    const std::string path = dir_.path(name);
    test::write_file(path, bytes);
    return path;
  }
  std::string refusal(const std::string& path, const PackageLimits& limits = {}) {
    auto p = read_mod_package(path, limits);
    EXPECT_FALSE(p.ok()) << path;
    if (p.ok()) return "";
    const std::string message(p.status().message());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind(path, 0), 0u) << message;  // names the package first
    return message;
  }
  test::TempDir dir_;
};

TEST_F(ModPackageTest, FolderZipAnd7zReadToTheSameParts) {
  write_tree(dir_.path("folder"), sample_mod());
  const std::vector<std::string> paths = {dir_.path("folder"), write("mod.zip", pack(sample_mod())),
                                          write("mod.7z", pack(sample_mod(), true))};
  std::vector<std::string> digests;
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    ASSERT_TRUE(is_mod_package(path));
    auto p = read_mod_package(path);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->info.name, "demo");
    EXPECT_EQ(p->info.version, "1.2");
    EXPECT_EQ(p->info.author, "someone");
    EXPECT_EQ(p->info.game, "ac2");
    EXPECT_EQ(p->info.made_for.at("levels.forge"), hex64('a'));
    ASSERT_EQ(p->documents.size(), 1u);
    EXPECT_EQ(p->documents[0].relative, "fix.json");
    ASSERT_EQ(p->datafiles.size(), 2u);
    EXPECT_EQ(p->datafiles[0].archive, "levels.forge");
    EXPECT_EQ(p->datafiles[0].name, "1003_-_Lvl_Main");
    EXPECT_EQ(p->datafiles[0].id, std::optional<u64>(1003));
    EXPECT_EQ(p->datafiles[0].name_after_id, "Lvl_Main");
    EXPECT_EQ(p->datafiles[0].file.relative, "Extracted/levels.forge/1003_-_Lvl_Main.data");
    EXPECT_EQ(p->datafiles[1].name, "Plain");
    EXPECT_FALSE(p->datafiles[1].id.has_value());
    EXPECT_EQ(p->datafiles[1].name_after_id, "Plain");
    auto bytes = package_file_bytes(p->datafiles[0].file);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(std::string(bytes->begin(), bytes->end()), sample_mod()[1].data);
    EXPECT_EQ(p->datafiles[0].file.size, sample_mod()[1].data.size());
    EXPECT_EQ(p->datafiles[0].file.disk_path.empty(), path != paths[0]);
    ASSERT_EQ(p->archives.size(), 1u);
    EXPECT_EQ(p->archives[0].name, "patch.forge");
    EXPECT_EQ(p->ignored, std::vector<std::string>{"readme.txt"});
    EXPECT_EQ(p->digest.size(), 64u);
    digests.push_back(p->digest);
  }
  EXPECT_EQ(digests[0], digests[1]);
  EXPECT_EQ(digests[0], digests[2]);
}

TEST_F(ModPackageTest, DigestFollowsEveryUsedByteAndNameOnly) {
  auto digest = [&](const std::vector<PackMember>& members) {
    static int n = 0;
    auto p = read_mod_package(write("d" + std::to_string(n++) + ".zip", pack(members)));
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? p->digest : "";
  };
  const std::string base = digest(sample_mod());
  auto changed = sample_mod();
  changed[1].data.back() = 'X';  // one byte of a data file
  EXPECT_NE(digest(changed), base);
  auto renamed = sample_mod();
  renamed[2].path = "MyMod/Extracted/levels.forge/Plainer.data";
  EXPECT_NE(digest(renamed), base);
  auto described = sample_mod();
  described[0].data = R"({"name": "demo", "version": "1.3"})";
  EXPECT_NE(digest(described), base);
  auto unused = sample_mod();
  unused[5].data = "another readme";
  unused.push_back({"MyMod/screenshot.png", "png"});
  EXPECT_EQ(digest(unused), base);
  auto unwrapped = sample_mod();  // no top folder: the same relative paths
  for (auto& m : unwrapped) m.path = m.path.substr(6);
  EXPECT_EQ(digest(unwrapped), base);
}

TEST_F(ModPackageTest, NamedByItsFileWithoutAnInfoFile) {
  const std::vector<PackMember> bare = {{"Extracted/levels.forge/a.data", "a"}};
  auto zip = read_mod_package(write("my-mod.v2.zip", pack(bare)));
  ASSERT_TRUE(zip.ok()) << zip.status();
  EXPECT_EQ(zip->info.name, "my-mod.v2");
  write_tree(dir_.path("Folder.Mod"), bare);
  auto folder = read_mod_package(dir_.path("Folder.Mod") + "/");
  ASSERT_TRUE(folder.ok()) << folder.status();
  EXPECT_EQ(folder->info.name, "Folder.Mod");
  const std::string spaced = refusal(write("My Mod.zip", pack(bare)));
  EXPECT_NE(spaced.find("names the mod 'My Mod', which may hold only"), std::string::npos) << spaced;
  EXPECT_NE(spaced.find("anvilrt-mod.json"), std::string::npos) << spaced;
}

TEST_F(ModPackageTest, InfoFileIsCheckedMemberByMember) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"name": "x", "homepage": "h"})", "anvilrt-mod.json: unknown member 'homepage'"},
      {R"({"version": 3})", "anvilrt-mod.json: member 'version': must be a string"},
      {R"({"game": "ac4"})", "member 'game': must be \"ac2\" or \"sws\""},
      {R"({"made_for": {"levels.forge": "12"}})", "member 'made_for/levels.forge': must be a sha256 hash"},
      {R"({"name": "bad name"})", "member 'name': may hold only"},
      {R"([1])", "anvilrt-mod.json: must be a JSON object"},
      {R"({"name": "a", "name": "b"})", "given twice"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message =
        refusal(write("i.zip", pack({{"m/anvilrt-mod.json", text}, {"m/Extracted/a.forge/b.data", "b"}})));
    EXPECT_NE(message.find(expected), std::string::npos) << text << " -> " << message;
  }
}

TEST_F(ModPackageTest, LayoutAcceptsCaseAndMacMetadataAndRefusesMisplacedParts) {
  auto p = read_mod_package(write(
      "c.zip", pack({{"extracted/LEVELS.FORGE/a.data", "a"}, {"__MACOSX/extracted/LEVELS.FORGE/._a.data", "apple"}})));
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->datafiles.size(), 1u);
  EXPECT_EQ(p->datafiles[0].archive, "LEVELS.FORGE");
  EXPECT_EQ(p->ignored, std::vector<std::string>{"__MACOSX/extracted/LEVELS.FORGE/._a.data"});
  EXPECT_NE(refusal(write("m1.zip", pack({{"w/levels.forge/a.data", "a"}})))
                .find("member 'w/levels.forge/a.data': a data file or archive where a package has none"),
            std::string::npos);
  EXPECT_NE(refusal(write("m2.zip", pack({{"Extracted/levels.forge/23_-_T.data/295_-_H.BuildTable", "t"}})))
                .find("unpacked into its entries"),
            std::string::npos);
  EXPECT_NE(refusal(write("m3.zip", pack({{"Extracted/a.forge/x.data", "1"}, {"extracted/a.forge/X.data", "2"}})))
                .find("names the same part as another member"),
            std::string::npos);
  EXPECT_NE(refusal(write("e.zip", pack({{"m/readme.txt", "r"}, {"m/anvilrt-mod.json", "{}"}}))).find("holds no mod"),
            std::string::npos);
  fs::create_directories(platform::path_of(dir_.path("empty")));
  EXPECT_NE(refusal(dir_.path("empty")).find("holds no mod"), std::string::npos);
}

TEST_F(ModPackageTest, RefusesMembersThatLeaveLinkOrRepeat) {
  const PackMember part = {"Extracted/a.forge/b.data", "b"};
  const std::string zip = write("evil.zip", pack({part, {"../../evil.data", "e"}}));
  EXPECT_EQ(refusal(zip), zip + ": member '../../evil.data': leaves the package");
  EXPECT_NE(refusal(write("abs.zip", pack({part, {"/etc/x.json", "{}"}}))).find("member '/etc/x.json': is an absolute"),
            std::string::npos);
  EXPECT_NE(refusal(write("bs.zip", pack({part, {"a\\..\\..\\x.json", "{}"}}))).find("leaves the package"),
            std::string::npos);
  EXPECT_NE(refusal(write("link.zip", pack({part, {"Extracted/a.forge/c.data", "", AE_IFLNK, "/etc/passwd"}})))
                .find("member 'Extracted/a.forge/c.data': is a link"),
            std::string::npos);
  EXPECT_NE(refusal(write("link.7z", pack({part, {"fix.json", "", AE_IFLNK, "../../x"}}, true)))
                .find("member 'fix.json': is a link"),
            std::string::npos);
  EXPECT_NE(refusal(write("twice.zip", pack({part, part}))).find("member 'Extracted/a.forge/b.data': appears twice"),
            std::string::npos);
}

TEST_F(ModPackageTest, RefusesEncryptedMembers) {
  const std::string message =
      refusal(write("enc.zip", pack({{"Extracted/a.forge/b.data", "secret bytes"}}, false, "zip:encryption=zipcrypt")));
  EXPECT_NE(message.find("member 'Extracted/a.forge/b.data': is encrypted"), std::string::npos) << message;
}

TEST_F(ModPackageTest, RefusesALinkInAFolder) {
  if (test::on_windows()) GTEST_SKIP() << "a symbolic link needs a privilege on Windows";
  write_tree(dir_.path("linked"), {{"Extracted/a.forge/b.data", "b"}});
  fs::create_symlink("/etc/passwd", platform::path_of(dir_.path("linked/Extracted/a.forge/c.data")));
  EXPECT_NE(refusal(dir_.path("linked")).find("member 'Extracted/a.forge/c.data': is a link"), std::string::npos);
}

TEST_F(ModPackageTest, LimitsAreCheckedBeforeReading) {
  const std::string zip = write("big.zip", pack({{"Extracted/a.forge/b.data", std::string(200, 'b')},
                                                 {"Extracted/a.forge/c.data", std::string(150, 'c')}}));
  PackageLimits one;
  one.member_bytes = 100;
  EXPECT_NE(refusal(zip, one).find("member 'Extracted/a.forge/b.data': states 200 bytes, over the limit of 100"),
            std::string::npos);
  PackageLimits total;
  total.total_bytes = 300;
  EXPECT_NE(refusal(zip, total).find("member 'Extracted/a.forge/c.data': the package's parts together exceed 300"),
            std::string::npos);
  PackageLimits count;
  count.members = 1;
  EXPECT_NE(refusal(zip, count).find("holds more than 1 members"), std::string::npos);
  write_tree(dir_.path("bigfolder"), {{"Extracted/a.forge/b.data", std::string(200, 'b')}});
  EXPECT_NE(refusal(dir_.path("bigfolder"), one).find("is 200 bytes, over the limit of 100"), std::string::npos);
}

// A stored zip member written by hand, whose headers say `stated` bytes while `data` follows.
std::vector<u8> lying_zip(const std::string& name, const std::string& data, u32 stated) {
  const u32 crc =
      static_cast<u32>(crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
  test::ByteBuilder b;
  auto header = [&](u32 signature, bool central) {
    b.u32(signature);
    if (central) b.raw("\x14\x00", 2);                      // made by
    b.raw("\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00", 10);  // version, flags, stored, time, date
    b.u32(crc).u32(static_cast<u32>(data.size())).u32(stated);
    b.bytes(std::vector<u8>{static_cast<u8>(name.size()), 0});
    b.raw("\0\0", 2);                   // extra length
    if (central) b.fill(10, 0).u32(0);  // comment, disk, attributes; the local header at 0
    b.raw(name.data(), name.size());
  };
  header(0x04034b50, false);
  b.raw(data.data(), data.size());
  const u32 central = static_cast<u32>(b.size());
  header(0x02014b50, true);
  const u32 central_size = static_cast<u32>(b.size()) - central;
  b.u32(0x06054b50).fill(4, 0).bytes(std::vector<u8>{1, 0, 1, 0}).u32(central_size).u32(central).fill(2, 0);
  return b.get();
}

TEST_F(ModPackageTest, RefusesAMemberWhoseHeaderLiesAboutItsSize) {
  const std::string name = "Extracted/a.forge/b.data";
  auto honest = read_mod_package(write("honest.zip", lying_zip(name, "0123456789", 10)));
  ASSERT_TRUE(honest.ok()) << honest.status();  // the hand-made zip itself is sound
  ASSERT_EQ(honest->datafiles.size(), 1u);
  EXPECT_EQ(honest->datafiles[0].file.bytes.size(), 10u);
  const std::string message = refusal(write("lies.zip", lying_zip(name, std::string(4000, 'z'), 4)));
  EXPECT_NE(message.find("member '" + name + "'"), std::string::npos) << message;
}

TEST_F(ModPackageTest, RefusesWhatIsNoArchiveAndATruncatedOne) {
  const std::string junk = write("junk.zip", std::vector<u8>{'n', 'o', 't', ' ', 'z', 'i', 'p'});
  EXPECT_TRUE(is_mod_package(junk));
  EXPECT_EQ(refusal(junk), junk + ": not a zip or 7z archive");
  const std::vector<u8> zip = pack(sample_mod());
  const std::string disguised = write("mod.bin", zip);
  EXPECT_TRUE(is_mod_package(disguised));
  EXPECT_TRUE(read_mod_package(disguised).ok());
  EXPECT_FALSE(is_mod_package(write("mod.json", zip)));
  EXPECT_FALSE(is_mod_package(write("notes.txt", std::vector<u8>{'h', 'i'})));
  EXPECT_FALSE(is_mod_package(dir_.path("missing.zip")));
  for (const std::size_t keep : {zip.size() / 2, zip.size() - 30, zip.size() - 1}) {
    SCOPED_TRACE(keep);
    const std::string cut =
        write("cut.bin", std::vector<u8>(zip.begin(), zip.begin() + static_cast<std::ptrdiff_t>(keep)));
    EXPECT_TRUE(is_mod_package(cut));  // a zip by its first bytes, refused as one
    EXPECT_EQ(refusal(cut), cut + ": a zip whose central directory (its end) is missing or damaged: cut off?");
  }
  const std::vector<u8> seven = pack(sample_mod(), true);
  refusal(
      write("cut.7z", std::vector<u8>(seven.begin(), seven.begin() + static_cast<std::ptrdiff_t>(seven.size() / 2))));
}

TEST_F(ModPackageTest, ManyEmptyMembersAreReadInOnePass) {
  std::vector<PackMember> members;
  for (int i = 0; i < 100000; ++i) members.push_back({"m/empty/" + std::to_string(i) + ".txt", ""});
  members.push_back({"m/Extracted/a.forge/b.data", "b"});
  // Stored, not deflated: libarchive's writer starts a zlib stream for every deflated member, whose large
  // allocations Wine's heap serves slowly (writing this zip took 85 s under Wine, 0.9 s stored; reading it 0.8 s).
  auto p = read_mod_package(write("many.zip", pack(members, false, "zip:compression=store")));
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->ignored.size(), 100000u);
  EXPECT_EQ(p->datafiles.size(), 1u);
}

TEST_F(ModPackageTest, AFolderFileThatChangedIsRefusedWhenRead) {
  write_tree(dir_.path("changing"), {{"Extracted/a.forge/b.data", "four"}});
  auto p = read_mod_package(dir_.path("changing"));
  ASSERT_TRUE(p.ok()) << p.status();
  write_tree(dir_.path("changing"), {{"Extracted/a.forge/b.data", "five!"}});
  auto bytes = package_file_bytes(p->datafiles[0].file);
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("changed since its mod package was read"), std::string::npos);
}

}  // namespace
}  // namespace anvil::mods
