#include "tests/serve_input_support.hpp"

#include <gtest/gtest.h>

#include <utility>

#include "reader/forge/archive_reader.hpp"
#include "reader/level_source.hpp"

namespace anvil::test {

std::unique_ptr<OpenedServeInput> open_serve_input(const std::string& path) {
  auto file = InputFile::open(path);
  EXPECT_TRUE(file.ok()) << path;
  auto opened = std::make_unique<OpenedServeInput>(OpenedServeInput{std::move(*file), std::nullopt, {}});
  opened->input.path = path;
  opened->input.input = &opened->file;
  opened->input.source = detect_source(opened->file.bytes());
  if (opened->input.source.kind == SourceKind::archive) {
    auto archive = forge::read_archive(opened->file.bytes());
    EXPECT_TRUE(archive.ok()) << path;
    opened->archive = std::move(*archive);
    opened->input.archive = &*opened->archive;
    opened->input.game = Game::ac2;
  } else {
    opened->input.game = detect_game(opened->file.bytes(), opened->input.source);
  }
  return opened;
}

}  // namespace anvil::test
