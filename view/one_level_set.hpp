// A level file or a lone decompressed data file as a set of one (reader/level_set.hpp), named "" (its
// document has no "datafiles"): what the map and the editor read such a file as, beside an archive's
// data files.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "reader/level_set.hpp"
#include "reader/level_source.hpp"

namespace anvil::view {

class OneLevelSet final : public LevelSet {
 public:
  // `bytes` (which must outlive the set) hold `source` (a level file or a data file), carved in `game`.
  OneLevelSet(std::span<const u8> bytes, Source source, Game game)
      : bytes_(bytes), source_(std::move(source)), game_(game) {}

  Game game() const override { return game_; }
  std::size_t size() const override { return 1; }
  const std::string& name(std::size_t) const override { return name_; }
  absl::StatusOr<const Level*> level(std::size_t) override {
    if (!level_) level_ = std::make_unique<Level>(carve_source(bytes_, source_, game_));
    return level_.get();
  }
  void release(std::size_t) override { level_.reset(); }
  absl::StatusOr<std::span<const u8>> bytes_of(std::size_t) override { return bytes_; }

  const Source& source() const { return source_; }
  std::span<const u8> bytes() const { return bytes_; }

 private:
  std::span<const u8> bytes_;
  Source source_;
  Game game_;
  std::string name_;
  std::unique_ptr<Level> level_;
};

}  // namespace anvil::view
