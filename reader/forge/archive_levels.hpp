// The data files of a `.forge` archive as a LevelSet (reader/level_set.hpp): each one decompressed and
// carved in its bodies (FORGE.md 2, 3) only when it is asked for, and dropped when released, so that a
// command reading one data file of a large archive never decompresses the others.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/release.hpp"
#include "reader/carver.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level_set.hpp"

namespace anvil::forge {

class ArchiveLevels final : public LevelSet {
 public:
  // The data files `selected` (indices into archive.files; all when empty) of the archive read from
  // `bytes`; both must outlive the set.
  ArchiveLevels(std::span<const u8> bytes, const Archive& archive, Game game, std::vector<std::size_t> selected = {});

  Game game() const override { return game_; }
  std::size_t size() const override { return selected_.size(); }
  // The data file's unique name (data_file_names: valid JSON text and a pointer segment as it is).
  const std::string& name(std::size_t i) const override { return names_[selected_.at(i)]; }
  // A unique name, a file name or a 0xID (find_data_files), among the set's data files.
  std::vector<std::size_t> select(std::string_view selector) const override;
  absl::StatusOr<const Level*> level(std::size_t i) override;
  void release(std::size_t i) override { held_.erase(i); }
  bool holds(std::size_t i) const override {
    auto it = held_.find(i);
    return it != held_.end() && it->second.level != nullptr;
  }
  absl::StatusOr<std::span<const u8>> bytes_of(std::size_t i) override {
    auto data = decompressed(i);
    if (!data.ok()) return data.status();
    return (*data)->bytes;
  }

  // The index in the archive of set member i.
  std::size_t archive_index(std::size_t i) const { return selected_.at(i); }
  const Archive& archive() const { return archive_; }

  // Data file i decompressed, and the bodies objects are carved from, without carving it; valid until
  // release(i). Errors name the data file. A plain data file is a view of the archive's bytes, a
  // compressed one a buffer of its own: nothing is copied.
  struct Decompressed {
    std::span<const u8> bytes;
    std::vector<Extent> regions;
    std::size_t entries = 0;
    DecodeBuffer owned;  // what `bytes` views, for a compressed data file
  };
  absl::StatusOr<const Decompressed*> decompressed(std::size_t i);
  // LevelSet::holding, the data files read on `threads` threads at once (each thread holds one).
  absl::StatusOr<std::vector<std::size_t>> holding(std::span<const u8> needle, const std::vector<bool>* among,
                                                   unsigned threads) override;

  // Set member i reads as `decompressed` from now on (a mod's whole data file, pipeline/mods/package_mod.hpp):
  // what level(), bytes_of() and decompressed() give, and what a write of the set puts in its place
  // (patched_data_files()). What was held of it is dropped.
  void replace(std::size_t i, std::vector<u8> decompressed);
  // The set members replace() gave bytes, ascending.
  std::vector<std::size_t> replaced() const;

  // The ids each of the set's data files `which` may hold objects of (reader/signature_ids.hpp: every
  // object's, found without carving), each decompressed on `threads` threads at once and dropped (what a
  // key cache keeps: pipeline/folder_key_cache.hpp); the first error in `which`'s order, naming its data file.
  absl::StatusOr<std::vector<std::vector<u64>>> signature_ids(std::span<const std::size_t> which, unsigned threads);
  // Where set member i's stored bytes lie in the archive (empty when its table entry reaches past the
  // archive's end).
  Extent stored_extent(std::size_t i) const;

  // The archive's checksum rule and each data file's vote (FORGE.md 2), which decompressed() checks the
  // blocks against: the archive's (reader/forge/variant_resolver.hpp checksum_rule()), voted over the whole
  // archive when a data file is first decompressed, unless given. `read_next`: the set members the caller
  // reads right after, whose ranges the vote does not release (they would only be read in again).
  const ArchiveChecksums& checksums(std::span<const std::size_t> read_next = {}) const;
  // Gives the archive its checksum vote (before the first data file is decompressed): the votes of the
  // data files a caller has kept, judged (resolve_checksums(): once).
  void use_checksums(ArchiveChecksums checksums) const { resolve_checksums(archive_, std::move(checksums)); }
  // From now on, a data file decompressed() while the archive has not voted is checked against the rule its
  // own blocks vote (own_checksum_rule(), as `diff` does), so that the rest of the archive is not read: for
  // a command that reads a few data files and writes none (`mod check`). checksums() still votes.
  void check_alone() { alone_ = true; }
  // Hands the archive ranges read and no longer needed to `release` (a mapped archive drops those pages, so
  // that a pass over a large archive keeps a small RSS): those the vote has read, and each data file
  // holding() and signature_ids() have read and dropped.
  void release_read_with(ReleaseFn release) { release_read_ = std::move(release); }

 private:
  // Data file i read on its own (thread-safe once checksums() has been taken, or with check_alone()).
  absl::StatusOr<Decompressed> read(std::size_t i) const;
  // What data file i's blocks are checked against: the archive's rule, or its own (check_alone()).
  ChecksumVerdict verdict_for(std::size_t index) const;
  // Hands set member i's stored bytes to release_read_ (thread-safe).
  void release_stored(std::size_t i) const;
  struct Held {
    Decompressed data;
    std::unique_ptr<Level> level;
  };
  std::span<const u8> bytes_;
  const Archive& archive_;
  Game game_;
  std::vector<std::size_t> selected_;
  std::vector<std::string> names_;  // of every data file of the archive (data_file_names)
  std::map<std::size_t, Held> held_;
  std::map<std::size_t, std::vector<u8>> replacements_;
  ReleaseFn release_read_;
  bool alone_ = false;
};

}  // namespace anvil::forge
