// What replaces, on Windows, the POSIX-only tests of tests/posix/ (device nodes, FIFOs, modes, signals):
// reserved device names extracted as files, reparse points not followed (by extract and by the editor's
// copy), a target another program holds open refused in one line, the replaced file's attributes kept, and
// non-ASCII paths in and out.
#include <absl/strings/str_format.h>
#include <gtest/gtest.h>
#include <windows.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "platform/paths.hpp"
#include "reader/forge/archive_reader.hpp"
#include "serve/output_name.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;

std::wstring wide(const std::string& utf8) { return platform::path_of(utf8).wstring(); }

DWORD attributes_of(const std::string& path) { return ::GetFileAttributesW(wide(path).c_str()); }

const char kLevelPatch[] = R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":3}])";

// An archive of five data files renamed to names Windows keeps for devices or refuses.
std::string archive_with_names(const test::TempDir& dir, const std::vector<std::string>& names) {
  std::string generated = dir.path("gen.forge");
  auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", std::to_string(names.size()), "--visuals",
                          "4", "--seed", "3", "--block-size", "500", "-o", generated});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<u8> bytes = test::read_file(generated);
  auto archive = forge::read_archive(bytes);
  EXPECT_TRUE(archive.ok()) << archive.status();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const forge::DataFileAt& f = archive->files[i];
    // The name entry's name (at +44) and the data file header's (at its start).
    for (u64 at : {f.name_entry_offset + 44, f.index.offset}) {
      std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), 128, u8{0});
      std::memcpy(bytes.data() + at, names[i].data(), names[i].size());
    }
  }
  std::string out = dir.path("named.forge");
  test::write_file(out, bytes);
  return out;
}

TEST(WindowsExtract, ReservedDeviceNamesAreWrittenAsFiles) {
  test::TempDir dir;
  std::string archive = archive_with_names(dir, {"CON", "nul.x", "COM1 ", "a:b*", "conout$"});
  std::string out = dir.path("out");
  auto r = test::run_cli({"extract", archive, "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(platform::path_of(out))) {
    EXPECT_TRUE(entry.is_regular_file()) << platform::utf8_of(entry.path());
    found.push_back(platform::utf8_of(entry.path().filename()));
  }
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{"CO%4e.data", "COM%31 .data", "a%3ab%2a.data", "conout%24.data",
                                             "forge.json", "nu%6c.x.data"}));
  // The same names as on Linux: the folder packs back into the same data files.
  auto packed = test::run_cli({"pack", out, "-o", dir.path("packed.forge"), "-q"});
  EXPECT_EQ(packed.exit_code, 0) << packed.err;
}

// A symbolic link at `link` to the file `target`; false when none was made (Wine's CreateSymbolicLinkW says
// it made one and makes nothing: the link is checked to be there).
bool make_symbolic_link(const std::string& link, const std::string& target) {
  if (!::CreateSymbolicLinkW(wide(link).c_str(), wide(target).c_str(), SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE))
    return false;
  const DWORD made = attributes_of(link);
  return made != INVALID_FILE_ATTRIBUTES && (made & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
}

// A symbolic link planted at a data file's name is replaced by the file, never written through.
TEST(WindowsExtract, ReparsePointsAreNotFollowed) {
  test::TempDir dir;
  std::string archive = archive_with_names(dir, {"one", "two"});
  std::string out = dir.path("out");
  fs::create_directories(platform::path_of(out));
  std::string victim = dir.path("victim.txt");
  test::write_file(victim, std::vector<u8>{'k', 'e', 'e', 'p'});
  std::string link = out + "\\one.data";
  if (!make_symbolic_link(link, victim))
    GTEST_SKIP() << "cannot create a symbolic link here (no privilege, no developer mode, or Wine, whose "
                    "CreateSymbolicLinkW makes none): "
                 << ::GetLastError();
  auto r = test::run_cli({"extract", archive, "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_text(victim), "keep");
  EXPECT_EQ(attributes_of(link) & FILE_ATTRIBUTE_REPARSE_POINT, 0u) << "the link was replaced by the file";
  EXPECT_GT(fs::file_size(platform::path_of(link)), 4u);
}

// A junction (a folder's mount-point reparse point, what `mklink /J` makes) at `link`, leading to the folder
// `target`: REPARSE_DATA_BUFFER's mount-point form, whose header MinGW's headers lack.
bool make_junction(const std::string& link, const std::string& target) {
  if (!::CreateDirectoryW(wide(link).c_str(), nullptr)) return false;
  HANDLE h = ::CreateFileW(wide(link).c_str(), GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) return false;
  const std::wstring print = fs::absolute(platform::path_of(target)).wstring();
  const std::wstring substitute = L"\\??\\" + print;
  struct MountPointHeader {
    DWORD tag;
    WORD data_length, reserved, substitute_offset, substitute_length, print_offset, print_length;
  };
  const std::size_t names = (substitute.size() + 1 + print.size() + 1) * sizeof(wchar_t);
  std::vector<char> buffer(sizeof(MountPointHeader) + names, 0);
  MountPointHeader header{IO_REPARSE_TAG_MOUNT_POINT,
                          static_cast<WORD>(names + 8),
                          0,
                          0,
                          static_cast<WORD>(substitute.size() * sizeof(wchar_t)),
                          static_cast<WORD>((substitute.size() + 1) * sizeof(wchar_t)),
                          static_cast<WORD>(print.size() * sizeof(wchar_t))};
  std::memcpy(buffer.data(), &header, sizeof header);
  std::memcpy(buffer.data() + sizeof header, substitute.c_str(), substitute.size() * sizeof(wchar_t));
  std::memcpy(buffer.data() + sizeof header + header.print_offset, print.c_str(), print.size() * sizeof(wchar_t));
  DWORD returned = 0;
  const bool made = ::DeviceIoControl(h, FSCTL_SET_REPARSE_POINT, buffer.data(), static_cast<DWORD>(buffer.size()),
                                      nullptr, 0, &returned, nullptr);
  ::CloseHandle(h);
  if (!made) ::RemoveDirectoryW(wide(link).c_str());
  return made;
}

// A junction planted at a data file's name is removed itself (never what it leads to), and the file
// takes the name: nothing is written into the folder it led to.
TEST(WindowsExtract, AJunctionAtANameIsNotFollowed) {
  test::TempDir dir;
  std::string archive = archive_with_names(dir, {"one", "two"});
  std::string out = dir.path("out");
  fs::create_directories(platform::path_of(out));
  std::string victim = dir.path("victim");
  fs::create_directories(platform::path_of(victim));
  test::write_file(victim + "\\kept.txt", std::vector<u8>{'k', 'e', 'e', 'p'});
  std::string junction = out + "\\one.data";
  if (!make_junction(junction, victim))
    GTEST_SKIP() << "cannot make a junction here (Wine answers FSCTL_SET_REPARSE_POINT with error 50, not "
                    "supported; Windows makes one): error "
                 << ::GetLastError();
  ASSERT_NE(attributes_of(junction) & FILE_ATTRIBUTE_REPARSE_POINT, 0u);
  auto r = test::run_cli({"extract", archive, "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> in_victim;
  for (const auto& entry : fs::directory_iterator(platform::path_of(victim)))
    in_victim.push_back(platform::utf8_of(entry.path().filename()));
  EXPECT_EQ(in_victim, std::vector<std::string>{"kept.txt"});
  EXPECT_EQ(test::read_text(victim + "\\kept.txt"), "keep");
  const DWORD now = attributes_of(junction);
  EXPECT_EQ(now & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY), 0u) << "the junction became the file";
  EXPECT_GT(fs::file_size(platform::path_of(junction)), 4u);
}

// What replaces ServeOutputName.ASymbolicLinkAtTheNameIsRefused (std::filesystem cannot make a link with
// MinGW): the editor's "Write a copy" refuses a symbolic link or a junction at the copy's name, in a
// non-ASCII folder (its path kept in UTF-8), and writes a plain name there.
TEST(WindowsServe, ALinkAtTheCopysNameIsRefused) {
  test::TempDir dir;
  const std::string folder = dir.path("sortie-é");
  fs::create_directories(platform::path_of(folder));
  const std::string input = folder + "\\input.forge";
  test::write_file(input, std::vector<u8>{1, 2, 3});
  auto plain = serve::output_target("copie-ü.forge", folder, input, false);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(*plain, folder + "\\copie-ü.forge");
  const std::string elsewhere = dir.path("elsewhere.bin");
  test::write_file(elsewhere, std::vector<u8>{1});
  bool linked = false;
  if (make_symbolic_link(folder + "\\link.forge", elsewhere)) {
    linked = true;
    auto link = serve::output_target("link.forge", folder, input, true);
    ASSERT_FALSE(link.ok());
    EXPECT_NE(link.status().message().find("is a link"), std::string_view::npos) << link.status();
  }
  const std::string victim = dir.path("victim");
  fs::create_directories(platform::path_of(victim));
  if (make_junction(folder + "\\junction.forge", victim)) {
    linked = true;
    EXPECT_FALSE(serve::output_target("junction.forge", folder, input, true, true).ok());
    EXPECT_FALSE(serve::output_target("junction.forge", folder, input, true).ok());
  }
  if (!linked) GTEST_SKIP() << "neither a symbolic link nor a junction can be made here: error " << ::GetLastError();
}

// Windows drops trailing dots and spaces from a file name: a data file's name that ends in them keeps
// them, since ".data" follows (docs/data-file-names.md), and the folder packs back to the same names.
TEST(WindowsExtract, TrailingDotsAndSpacesAreKept) {
  test::TempDir dir;
  std::string archive = archive_with_names(dir, {"a. ", "end..", "sp  "});
  std::string out = dir.path("out");
  auto r = test::run_cli({"extract", archive, "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(platform::path_of(out)))
    found.push_back(platform::utf8_of(entry.path().filename()));
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{"a. .data", "end...data", "forge.json", "sp  .data"}));
  auto packed = test::run_cli({"pack", out, "-o", dir.path("packed.forge"), "-q"});
  ASSERT_EQ(packed.exit_code, 0) << packed.err;
  auto listed = test::run_cli({"ls", dir.path("packed.forge")});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  for (const char* name : {"a. ", "end..", "sp  "})
    EXPECT_NE(listed.out.find(name), std::string::npos) << name << " in " << listed.out;
}

// The game running holds its files open without sharing them: `patch` of one is refused in one line
// naming it and why, and the file is unchanged.
TEST(WindowsPatch, ALockedTargetIsRefusedInOneLine) {
  test::TempDir dir;
  std::string target = dir.path("held.bin");
  const std::vector<u8> original = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  test::write_file(target, original);
  std::string patch = dir.path("p.json");
  test::write_file(patch, std::vector<u8>(kLevelPatch, kLevelPatch + std::strlen(kLevelPatch)));
  HANDLE held = ::CreateFileW(wide(target).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                              FILE_ATTRIBUTE_NORMAL, nullptr);
  ASSERT_NE(held, INVALID_HANDLE_VALUE);
  auto in_place = test::run_cli({"patch", target, patch, "--in-place", "-q"});
  auto onto = test::run_cli({"patch", test::corpus("ac2/lod_selector_slots.bin"), patch, "-o", target, "-q"});
  ::CloseHandle(held);
  for (const test::CliResult& r : {in_place, onto}) {
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("anvilrt: " + target + ": in use", 0), 0u) << r.err;
  }
  EXPECT_EQ(test::read_file(target), original);
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(platform::path_of(dir.path(""))))
    left.push_back(platform::utf8_of(entry.path().filename()));
  EXPECT_EQ(left.size(), 2u) << "no temporary left beside it";
  // Released, the same patch goes through.
  EXPECT_EQ(test::run_cli({"patch", target, patch, "--in-place", "-q"}).exit_code, 0);
  EXPECT_NE(test::read_file(target), original);
}

// ReplaceFileW keeps what the replaced file carried: here its hidden and read-only attributes (with
// --force for the read-only one).
TEST(WindowsPatch, TheReplacedFileKeepsItsAttributes) {
  test::TempDir dir;
  std::string target = dir.path("kept.bin");
  test::write_file(target, test::read_file(test::corpus("ac2/lod_selector_slots.bin")));
  std::string patch = dir.path("p.json");
  test::write_file(patch, std::vector<u8>(kLevelPatch, kLevelPatch + std::strlen(kLevelPatch)));
  ASSERT_TRUE(::SetFileAttributesW(wide(target).c_str(), FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_READONLY));
  auto refused = test::run_cli({"patch", target, patch, "--in-place", "-q"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, "anvilrt: " + target + ": the file is read-only (--force replaces it all the same)\n");
  auto forced = test::run_cli({"patch", target, patch, "--in-place", "--force", "-q"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  const DWORD kept = attributes_of(target);
  EXPECT_TRUE(kept & FILE_ATTRIBUTE_HIDDEN);
  EXPECT_TRUE(kept & FILE_ATTRIBUTE_READONLY);
  ::SetFileAttributesW(wide(target).c_str(), FILE_ATTRIBUTE_NORMAL);
}

// Non-ASCII names, in a non-ASCII folder, through the wide APIs: read, written, named in messages and
// JSON in UTF-8.
TEST(WindowsPaths, WideCharacterPathsInAndOut) {
  test::TempDir dir;
  const std::string folder = dir.path("données-日本-ø");
  fs::create_directories(platform::path_of(folder));
  const std::string level = folder + "\\niveau-é.bin";
  test::write_file(level, test::read_file(test::corpus("ac2/lod_selector_slots.bin")));
  auto verify = test::run_cli({"verify", level});
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  EXPECT_NE(verify.out.find(level), std::string::npos) << "the path printed in UTF-8: " << verify.out;
  std::string patch = folder + "\\édit.json";
  test::write_file(patch, std::vector<u8>(kLevelPatch, kLevelPatch + std::strlen(kLevelPatch)));
  const std::string patched = folder + "\\sortie-ü.bin";
  auto r = test::run_cli({"patch", level, patch, "-o", patched, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(attributes_of(patched), INVALID_FILE_ATTRIBUTES);
  EXPECT_EQ(test::run_cli({"verify", patched, "-q"}).exit_code, 0);
  const std::string forge = folder + "\\архив.forge";
  ASSERT_EQ(test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "2", "--visuals", "4", "-o", forge, "-q"})
                .exit_code,
            0);
  const std::string out = folder + "\\выход";
  auto extracted = test::run_cli({"extract", forge, "-o", out, "-q"});
  ASSERT_EQ(extracted.exit_code, 0) << extracted.err;
  EXPECT_TRUE(fs::exists(platform::path_of(out + "\\forge.json")));
  auto missing = test::run_cli({"verify", folder + "\\absent-ü.bin"});
  EXPECT_NE(missing.err.find(folder + "\\absent-ü.bin"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace anvil
