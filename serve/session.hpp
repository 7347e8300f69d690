// The file `anvilrt serve` opened, read-only, and what the editor asks of it: its data files and their
// objects, an object as the pending patch leaves it, the pending patch checked by the patch engine as
// `anvilrt patch --dry-run` checks it, and the copy written as `anvilrt patch -o` writes it. The
// input is never written. One request at a time reaches the levels (a LevelSet is not shared between
// threads): every member takes the session's lock.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/archive.hpp"
#include "patch/patch.hpp"
#include "pipeline/game_folder.hpp"
#include "reader/input_file.hpp"
#include "reader/level_set.hpp"
#include "reader/level_source.hpp"

namespace anvil::forge {
class ArchiveLevels;
}
namespace anvil::view {
class FolderLevelSet;
}

namespace anvil::serve {

// What the command line opened: the mapped file, what it holds and its dialect.
struct ServeInput {
  std::string path;                         // as the user named it (messages, the page's title)
  const InputFile* input = nullptr;         // outlives the session
  Source source;                            // a level file, a data file or an archive
  Game game = Game::ac2;                    // the dialect (an archive's: its `--game auto` pick)
  const forge::Archive* archive = nullptr;  // the archive's tables, when source.kind is archive
  // A game folder (docs/game-folders.md; `input`, `source` and `archive` then unused): its archives,
  // opened read-only by the session, each in its own dialect unless `folder_options` names one.
  const folder::GameFolder* folder = nullptr;
  folder::FolderOptions folder_options;
};

// The pending patch checked: the engine's refusal (one line, as `anvilrt patch` prints it after
// "PATCH: "), or what it changes.
struct PatchCheck {
  std::optional<std::string> error;
  int exit_code = 0;
  std::size_t edited_objects = 0;
  std::vector<patch::Change> changes;
};

class Session {
 public:
  explicit Session(const ServeInput& input);
  ~Session();

  // Not ok: the input did not open (a game folder's archive that does not read; one line naming it).
  const absl::Status& status() const { return status_; }
  const ServeInput& input() const { return input_; }
  bool is_archive() const { return archive_ != nullptr; }
  bool is_folder() const { return folder_ != nullptr; }
  // A game folder's data files as one set, named "A.forge/NAME" (nullptr for another input).
  view::FolderLevelSet* folder_set() { return folder_.get(); }
  // Of a game folder's data file i: its archive's file name and its name there.
  std::string archive_name(std::size_t i) const;
  std::string name_in_archive(std::size_t i) const;
  // The data files (a level file or a lone data file is a set of one, named after the file; a game
  // folder's, of every archive, named "A.forge/NAME").
  std::size_t datafiles() const;
  std::string datafile_name(std::size_t i) const;
  // "/objects/KEY" for a single level, "/datafiles/NAME/objects/KEY" in an archive,
  // "/archives/A.forge/datafiles/NAME/objects/KEY" in a game folder (RFC 6901-escaped).
  std::string object_pointer(std::size_t datafile, std::string_view key) const;

  // Runs `work` on the levels under the session's lock (the search index is built this way).
  void with_levels(const std::function<void(LevelSet&)>& work);

  // The engine's dry run of `patch_json` over the input.
  PatchCheck check(std::string_view patch_json);
  // The JSON value of object `key` of data file `datafile` ({ "offset", "length", "class", ... }) as
  // `patch_json` (which must pass check()) leaves it; NotFound when there is no such object.
  absl::StatusOr<std::string> object_json(std::size_t datafile, std::string_view key, std::string_view patch_json);
  // Applies `patch_json` and writes the result to `target` atomically, read back and verified
  // (pipeline/patch_output.hpp, pipeline/archive_patch_output.hpp); a game folder's copy is a new folder
  // `target` holding every archive, as `anvilrt patch DIR PATCH -o OUTDIR` writes it
  // (pipeline/folder_patch_run.hpp). The message is one line.
  absl::Status write_copy(std::string_view patch_json, const std::string& target);

 private:
  class SingleLevel;
  ServeInput input_;
  std::mutex lock_;
  std::unique_ptr<SingleLevel> single_;
  std::unique_ptr<forge::ArchiveLevels> archive_;
  std::unique_ptr<folder::FolderLevels> folder_levels_;
  std::unique_ptr<view::FolderLevelSet> folder_;
  absl::Status status_;
  LevelSet& set();
};

}  // namespace anvil::serve
