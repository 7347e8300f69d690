#include "tests/test_support.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pipeline/build.hpp"
#include "pipeline/dump.hpp"
#include "pipeline/read_back.hpp"
#include "pipeline/verify.hpp"
#include "platform/paths.hpp"
#include "platform/process.hpp"
#include "platform/system.hpp"
#include "reader/level.hpp"
#include "writer/encode.hpp"

namespace anvil::test {

std::vector<u8> read_file(const std::string& path) {
  std::ifstream in(platform::path_of(path), std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, std::span<const u8> bytes) {
  const std::filesystem::path p = platform::path_of(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

rapidjson::Document parse_json(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str());
  EXPECT_FALSE(d.HasParseError()) << text.substr(0, 200);
  return d;
}

std::string read_text(const std::string& path) {
  auto bytes = read_file(path);
  return {bytes.begin(), bytes.end()};
}

std::string corpus(const std::string& relative) { return std::string(ANVILRT_CORPUS) + "/" + relative; }

std::vector<std::string> corpus_files(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(platform::path_of(corpus(folder))))
    // Spelled as corpus() spells a path, '/' on every system: the tests find a file's dialect by its
    // folder ("/sws/") and name their cases by the path's tail.
    if (entry.path().extension() == ".bin")
      files.push_back(corpus(folder + "/" + platform::utf8_of(entry.path().filename())));
  std::sort(files.begin(), files.end());
  return files;
}

void ExpectRoundTrip(std::span<const u8> bytes, Game game) {
  std::vector<u8> want(bytes.begin(), bytes.end());
  Level level = carve_level(bytes, game);
  std::vector<Object> objects = parse_objects(level);
  EXPECT_EQ(write_level(level, objects), want) << "bytes -> model -> bytes";

  std::string json = dump_json(bytes, {game, true});
  auto built = build_from_dump(json);
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(*built, want) << "bytes -> JSON -> bytes";
  auto failure = read_back(*built, expect_unchanged(level));
  EXPECT_FALSE(failure) << "bytes -> JSON -> bytes: " << failure->message();

  for (bool with_json : {false, true}) {
    VerifyReport report = verify_bytes(bytes, game, with_json);
    EXPECT_TRUE(report.identical()) << report.difference;
    EXPECT_EQ(report.objects, objects.size());
  }
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  // A folder of its own, made anew: under Wine process ids come round again soon, and a folder an earlier
  // test could not remove (Windows removes no file a process still has open) may hold the same name.
  const std::filesystem::path base = std::filesystem::temp_directory_path();
  for (;;) {
    dir_ = base / ("anvilrt-test-" + std::to_string(platform::process_id()) + "-" + std::to_string(counter++));
    if (std::filesystem::create_directory(dir_)) break;
  }
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

CliResult run_cli(const std::vector<std::string>& args) { return run_binary(ANVILRT_BINARY, args); }

CliResult run_binary(const std::string& binary, const std::vector<std::string>& args) {
  TempDir dir;
  std::string out = dir.path("stdout"), err = dir.path("stderr");
  std::vector<std::string> argv = {binary};
  argv.insert(argv.end(), args.begin(), args.end());
  CliResult result;
  result.exit_code = platform::run_program(argv, out, err);
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

bool on_windows() { return platform::this_system() == platform::System::kWindows; }

}  // namespace anvil::test
