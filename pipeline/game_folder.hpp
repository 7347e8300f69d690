// A game folder as a target (docs/game-folders.md): the `.forge` archives directly in a folder (not in
// its subfolders), sorted by name, read as one document
//
//   { "archives": { "A.forge": <the archive's document, as `anvilrt dump A.forge` prints it>, ... } }
//
// whose archives are each read as `anvilrt` reads one archive (reader/forge/archive_levels.hpp), opened
// only when an operation needs them.
#pragma once

#include <absl/status/statusor.h>

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/object.hpp"
#include "patch/archive_keys.hpp"
#include "pipeline/folder_key_cache.hpp"
#include "platform/file_lock.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/input_file.hpp"

namespace anvil::folder {

// How a command uses the folder it opens.
enum class FolderUse {
  read,    // the lock is taken only to finish or roll back an interrupted transaction, then let go
  change,  // the lock is kept (GameFolder::lock) for the command's transaction (FolderTransaction::begin)
};

struct FolderOpening {
  FolderUse use = FolderUse::read;
  // Whether a folder without a `.forge` archive is an error (a game folder's commands), or opened with
  // none listed (a folder `verify` and `stats` walk, the new folder `patch DIR -o OUT` writes).
  bool archives_required = true;
};

struct GameFolder {
  std::string dir;
  std::vector<std::string> archives;  // file names, sorted
  // What opening the folder finished or rolled back of an interrupted transaction
  // (pipeline/folder_transaction.hpp): one line for the command to print on stderr, empty when nothing was.
  std::string recovered;
  // FolderUse::change: DIR's lock, held until FolderTransaction::begin takes it (take_lock()) or the last
  // copy of this value goes.
  std::shared_ptr<platform::FileLock> lock;
  // Archives read from another file than DIR/NAME, by name: `mod uninstall` sees the folder with the
  // archives mods changed restored to their original bytes, in copies of its own.
  std::map<std::string, std::string> read_from;

  // DIR/archives[i], or the file it is read from.
  std::string path(std::size_t i) const;
  std::optional<std::size_t> find(std::string_view name) const;
  // The lock, for FolderTransaction::begin; none (not held) when the folder was opened to read.
  platform::FileLock take_lock() { return lock ? std::move(*lock) : platform::FileLock(); }
};

// The one door of a folder (docs/game-folders.md, Transactions): every command that reads or writes a
// folder opens it here, and nothing else finishes an interrupted transaction. Finishes or rolls back what
// an interrupted transaction left in DIR (under DIR's lock: a reader that finds a transaction under way
// waits for it to end), says so in `recovered`, and lists DIR's archives. With FolderUse::change the lock
// is taken whatever DIR holds, and kept; a folder that is no game folder is refused before anything is made
// in it (check_game_folder). Errors are one line naming DIR (no such folder, not a folder, no `.forge`
// archive in it, the lock or the recovery failed).
absl::StatusOr<GameFolder> open_game_folder(const std::string& dir, FolderOpening how = {});

// Whether `path` names a folder (which commands then read as a game folder).
bool is_folder(const std::string& path);

// "/archives/<name>" (RFC 6901-escaped).
std::string archive_pointer(std::string_view name);

struct FolderOptions {
  std::optional<Game> game;  // every archive's dialect; found in each archive by content when not given
  std::optional<u8> layout;  // the data-file layout (FORGE.md 7); found by content when not given
  // Whether what the key cache learns is written back (pipeline/folder_key_cache.hpp); `serve` reads a
  // folder without writing anything into it.
  bool save_key_cache = true;
  // Whether a data file read before its archive votes is checked against the rule its own blocks vote
  // (ArchiveLevels::check_alone), so that the rest of the archive is not read: for a command that writes
  // nothing (`mod check`).
  bool check_alone = false;
};

// The archives of a game folder, each opened (mapped, its tables read, its dialect found) on first use.
class FolderLevels {
 public:
  explicit FolderLevels(GameFolder folder, FolderOptions options = {});
  // Saves what the key cache learnt, unless options.save_key_cache is false (KeyCache::save; a failure
  // only loses the cache).
  ~FolderLevels();
  FolderLevels(const FolderLevels&) = delete;
  FolderLevels& operator=(const FolderLevels&) = delete;

  const GameFolder& folder() const { return folder_; }
  const FolderOptions& options() const { return options_; }
  std::size_t size() const { return folder_.archives.size(); }
  const std::string& name(std::size_t a) const { return folder_.archives.at(a); }
  // Archive a's data files; an error, one line naming the archive's path, when it does not read.
  absl::StatusOr<forge::ArchiveLevels*> levels(std::size_t a);
  // The file archive a is read from (levels(a) first).
  const InputFile& input(std::size_t a) const { return opened_.at(a)->input; }
  bool is_open(std::size_t a) const { return opened_.at(a) != nullptr; }
  // The ids each data file of archive a may hold objects of (levels(a) first), from the folder's key cache
  // (pipeline/folder_key_cache.hpp), the data files it does not know decompressed and searched for their
  // class id signatures (ArchiveLevels::signature_ids) on the command's threads;
  // an error, one line naming the data file, when one does not read.
  absl::StatusOr<const patch::archive::KnownIds*> known_ids(std::size_t a);

 private:
  struct Opened {
    InputFile input;
    forge::Archive archive;
    std::unique_ptr<forge::ArchiveLevels> levels;
  };
  GameFolder folder_;
  FolderOptions options_;
  std::vector<std::unique_ptr<Opened>> opened_;
  void use_known_votes(forge::ArchiveLevels& set, const std::vector<DataFilePrint>& prints,
                       std::span<const std::size_t> read_next);
  std::optional<KeyCache> keys_;                                  // loaded on first use
  std::vector<std::unique_ptr<patch::archive::KnownIds>> known_;  // by archive
};

}  // namespace anvil::folder
