// Several levels read as one document: the data files of a `.forge` archive (FORGE.md), each a level
// of its own, named in the document's "datafiles" member. A set hands out each data file's carved level
// on demand and may drop it again, so that a command touching one data file of a large archive never
// decompresses the others.
#pragma once

#include <absl/status/statusor.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reader/level.hpp"

namespace anvil {

class LevelSet {
 public:
  virtual ~LevelSet() = default;

  // The object dialect of every data file.
  virtual Game game() const = 0;
  virtual std::size_t size() const = 0;
  // The data file's key under "datafiles": unique within the set.
  virtual const std::string& name(std::size_t i) const = 0;
  // Data file i carved, valid until release(i) or until the set goes; an error (one line, naming the data
  // file) when it cannot be read.
  virtual absl::StatusOr<const Level*> level(std::size_t i) = 0;
  // The caller is done with level(i) for now (a later level(i) reads it again).
  virtual void release(std::size_t i) = 0;
  // Whether data file i is held (carved by level(i), not released since): a reader that finds it held
  // leaves it so for whoever read it first. A set that does not say holds nothing for another.
  virtual bool holds(std::size_t /*i*/) const { return false; }
  // The bytes data file i is carved from (decompressed), without carving it; valid until release(i).
  virtual absl::StatusOr<std::span<const u8>> bytes_of(std::size_t i) = 0;

  // The data files (among those flagged in `among`, when given) whose decompressed bytes hold `needle`,
  // ascending: each read, searched and released, except those that hold it, which stay read. Up to
  // `threads` at once where the set can (an archive's); the error of the first, in index order, that
  // does not read.
  virtual absl::StatusOr<std::vector<std::size_t>> holding(std::span<const u8> needle, const std::vector<bool>* among,
                                                           unsigned threads);
  // The index of the data file with this name.
  std::optional<std::size_t> find(std::string_view name) const;
  // The data files a user's selector names, ascending: here the one with that name; an archive's set
  // also takes each data file's file name and file_id (model/forge/archive.hpp, find_data_files).
  virtual std::vector<std::size_t> select(std::string_view selector) const;
};

// Levels whose bytes are held in memory, carved on first use: data files already decompressed, or
// generated level data standing in for them.
class MemoryLevelSet : public LevelSet {
 public:
  explicit MemoryLevelSet(Game game) : game_(game) {}
  // Adds a data file; its name must not be in the set yet (std::invalid_argument).
  void add(std::string name, std::vector<u8> bytes);

  Game game() const override { return game_; }
  std::size_t size() const override { return files_.size(); }
  const std::string& name(std::size_t i) const override { return files_.at(i).name; }
  absl::StatusOr<const Level*> level(std::size_t i) override;
  void release(std::size_t i) override { files_.at(i).level.reset(); }
  bool holds(std::size_t i) const override { return files_.at(i).level != nullptr; }
  absl::StatusOr<std::span<const u8>> bytes_of(std::size_t i) override { return std::span<const u8>(bytes(i)); }
  const std::vector<u8>& bytes(std::size_t i) const { return files_.at(i).bytes; }

 private:
  struct File {
    std::string name;
    std::vector<u8> bytes;
    std::unique_ptr<Level> level;
  };
  Game game_;
  std::vector<File> files_;
};

}  // namespace anvil
