// Every corpus file round-trips byte for byte, and its .md hex block is the file itself.
#include <gtest/gtest.h>

#include <sstream>

#include "reader/level.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

// The bytes of the single ```hex block of a corpus .md, comments after '#' removed.
std::vector<u8> hex_block(const std::string& md) {
  std::istringstream in(md);
  std::string line, digits;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.starts_with("```")) {
      if (inside) break;
      inside = line.substr(3) == "hex";
      continue;
    }
    if (!inside) continue;
    line = line.substr(0, line.find('#'));
    for (char c : line)
      if (!std::isspace(static_cast<unsigned char>(c))) digits += c;
  }
  std::vector<u8> bytes;
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
    bytes.push_back(static_cast<u8>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return bytes;
}

class CorpusFile : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusFile, MarkdownHexIsTheFile) {
  std::string bin = GetParam();
  std::string md = bin.substr(0, bin.size() - 4) + ".md";
  EXPECT_EQ(hex_block(test::read_text(md)), test::read_file(bin)) << md;
}

TEST_P(CorpusFile, RoundTripsInItsDialect) {
  std::string bin = GetParam();
  Game game = bin.find("/sws/") != std::string::npos ? Game::sws : Game::ac2;
  auto bytes = test::read_file(bin);
  test::ExpectRoundTrip(bytes, game);
  EXPECT_EQ(detect_game(bytes), game) << "auto must pick the folder's dialect";
}

std::vector<std::string> all_corpus_files() {
  auto files = test::corpus_files("ac2");
  auto sws = test::corpus_files("sws");
  files.insert(files.end(), sws.begin(), sws.end());
  return files;
}

INSTANTIATE_TEST_SUITE_P(All, CorpusFile, ::testing::ValuesIn(all_corpus_files()), [](const auto& info) {
  std::string name = info.param.substr(info.param.rfind('/', info.param.rfind('/') - 1) + 1);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

}  // namespace
}  // namespace anvil
