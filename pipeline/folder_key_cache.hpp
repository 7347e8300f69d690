// Which object ids each data file of a game folder may hold (every object's, and those of the candidates
// the carve rejects: reader/signature_ids.hpp), known by the data file's content, kept in
// DIR/.anvilrt/keys.cache (docs/game-folders.md). Looking up /objects/KEY in a folder otherwise decompresses
// every data file of every archive; with the cache, a look-up reads the stored bytes once for their
// fingerprint (size, CRC-32 and Adler-32: 10 GB/s) and carves only the data files whose ids hold
// the key's, which confirms it. A data file is known by its content, not by where it lies, so a rewritten
// archive keeps what is known of its untouched data files, and an archive changed by another program is
// simply unknown. With the ids it keeps each data file's checksum vote over its stored bytes (FORGE.md 2),
// so that an archive whose data files are all known is not skimmed whole for its checksum rule again.
// The cache is never needed: missing, damaged or of another version, it is empty.
#pragma once

#include <absl/status/status.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/level.hpp"
#include "model/object.hpp"
#include "model/primitives.hpp"
#include "reader/input_file.hpp"

namespace anvil::folder {

// What a data file is known by: its dialect (how it was carved) and its stored bytes' size and checksums.
struct DataFilePrint {
  Game game = Game::ac2;
  u64 stored_size = 0;
  u32 crc32 = 0;
  u32 adler32 = 0;

  bool operator==(const DataFilePrint&) const = default;
};
// Of the stored bytes at `stored` in `file`, read through a buffer: a touch of a mapping costs several times
// a read on a virtual machine, and the print reads every data file of an archive.
DataFilePrint print_of(Game game, const InputFile& file, Extent stored);

class KeyCache {
 public:
  // DIR/.anvilrt/keys.cache read, or an empty cache.
  static KeyCache load(const std::string& dir);

  // The sorted ids the data file so printed may hold objects of; null when not known.
  const std::vector<u64>* find(const DataFilePrint& print);
  // Learns a data file's ids (sorted here); returns the kept list.
  const std::vector<u64>* add(const DataFilePrint& print, std::vector<u64> ids);
  // The data file's checksum vote over its stored bytes (ChecksumVote::decoded false), when known.
  const forge::ChecksumVote* find_vote(const DataFilePrint& print) const;
  void add_vote(const DataFilePrint& print, const forge::ChecksumVote& vote);

  // Writes the cache back, atomically, when it learnt something and DIR/.anvilrt/ exists (the cache never
  // makes anvilrt's folder in a game folder it has not written to). The entries of data files not met in
  // this run are kept unless they outweigh those met.
  absl::Status save() const;

 private:
  struct PrintHash {
    std::size_t operator()(const DataFilePrint& p) const;
  };
  struct Entry {
    std::optional<std::vector<u64>> ids;
    std::optional<forge::ChecksumVote> vote;
    bool met = false;
  };
  std::string dir_;
  // Node-based: the lists handed out stay where they are as entries are added.
  mutable std::unordered_map<DataFilePrint, Entry, PrintHash> entries_;
  bool changed_ = false;
};

}  // namespace anvil::folder
