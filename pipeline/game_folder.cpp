#include "pipeline/game_folder.hpp"

#include <absl/strings/str_cat.h>

#include <algorithm>
#include <filesystem>

#include "model/forge/forge_error.hpp"
#include "model/parallel.hpp"
#include "patch/json_util.hpp"
#include "pipeline/folder_archives.hpp"
#include "pipeline/folder_transaction.hpp"
#include "platform/paths.hpp"
#include "reader/forge/archive_game.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil::folder {

namespace fs = std::filesystem;

std::string GameFolder::path(std::size_t i) const {
  const std::string& name = archives.at(i);
  if (auto it = read_from.find(name); it != read_from.end()) return it->second;
  return (fs::path(dir) / name).string();
}

std::optional<std::size_t> GameFolder::find(std::string_view name) const {
  auto it = std::find(archives.begin(), archives.end(), name);
  if (it == archives.end()) return std::nullopt;
  return static_cast<std::size_t>(it - archives.begin());
}

bool is_folder(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(platform::path_of(path), ec);
}

std::string archive_pointer(std::string_view name) { return "/archives/" + patch::escape_segment(name); }

absl::StatusOr<GameFolder> open_game_folder(const std::string& dir, FolderOpening how) {
  GameFolder folder;
  folder.dir = dir;
  if (!is_folder(dir)) return list_archives(dir).status();  // its one line: no such folder, not a folder
  const bool change = how.use == FolderUse::change;
  if (change && how.archives_required)
    if (auto s = check_game_folder(dir); !s.ok()) return s;
  // A reader takes the lock only when a transaction was left (or is under way): it makes nothing in a
  // folder no transaction ever touched, and readers do not wait for each other.
  if (change || interrupted(dir)) {
    auto lock = lock_folder(dir);
    if (!lock.ok()) return lock.status();
    auto recovered = recover_locked(dir, *lock);
    if (!recovered.ok()) return recovered.status();
    folder.recovered = std::move(*recovered);
    if (change) folder.lock = std::make_shared<platform::FileLock>(std::move(*lock));
  }
  // Listed after the recovery, which may have put an archive back.
  auto archives = list_archives(dir);
  if (archives.ok()) {
    folder.archives = std::move(*archives);
  } else if (how.archives_required || !absl::IsNotFound(archives.status())) {
    return archives.status();
  }
  return folder;
}

FolderLevels::FolderLevels(GameFolder folder, FolderOptions options)
    : folder_(std::move(folder)), options_(options), opened_(folder_.archives.size()), known_(opened_.size()) {}

FolderLevels::~FolderLevels() {
  if (keys_ && options_.save_key_cache) (void)keys_->save();
}

// The archive's checksum vote from the votes the cache keeps, when it keeps every data file's and they
// settle the rule (as the vote over the stored bytes does: archive_checksums), unless the archive voted
// already; otherwise the archive votes (leaving the pages of `read_next`, read right after, mapped), and the
// cache learns each data file's vote.
void FolderLevels::use_known_votes(forge::ArchiveLevels& set, const std::vector<DataFilePrint>& prints,
                                   std::span<const std::size_t> read_next) {
  if (set.archive().checksums() == nullptr) {  // not voted yet by a data file read before
    forge::ArchiveChecksums known;
    forge::ChecksumVote total;
    for (const DataFilePrint& print : prints) {
      const forge::ChecksumVote* vote = keys_->find_vote(print);
      if (vote == nullptr) break;
      known.files.push_back(*vote);
      total += *vote;
    }
    if (known.files.size() == prints.size()) {
      known.verdict = forge::judge(total);
      if (known.verdict.settled()) return set.use_checksums(std::move(known));
    }
  }
  const forge::ArchiveChecksums& voted = set.checksums(read_next);
  for (std::size_t i = 0; i < prints.size() && i < voted.files.size(); ++i) keys_->add_vote(prints[i], voted.files[i]);
}

absl::StatusOr<const patch::archive::KnownIds*> FolderLevels::known_ids(std::size_t a) {
  if (known_.at(a)) return known_[a].get();
  auto levels = this->levels(a);
  if (!levels.ok()) return levels.status();
  forge::ArchiveLevels& set = **levels;
  if (!keys_) keys_ = KeyCache::load(folder_.dir);
  std::vector<DataFilePrint> prints(set.size());
  const InputFile& file = opened_[a]->input;
  for_each_index(set.size(), thread_budget(),
                 [&](std::size_t i) { prints[i] = print_of(set.game(), file, set.stored_extent(i)); });
  auto known = std::make_unique<patch::archive::KnownIds>(set.size());
  std::vector<std::size_t> unknown;
  for (std::size_t i = 0; i < set.size(); ++i)
    if (!((*known)[i] = keys_->find(prints[i]))) unknown.push_back(i);
  use_known_votes(set, prints, unknown);
  auto ids = set.signature_ids(unknown, thread_budget());
  if (!ids.ok()) return forge::with_archive(ids.status(), folder_.path(a));
  for (std::size_t k = 0; k < unknown.size(); ++k)
    (*known)[unknown[k]] = keys_->add(prints[unknown[k]], std::move((*ids)[k]));
  known_[a] = std::move(known);
  return known_[a].get();
}

absl::StatusOr<forge::ArchiveLevels*> FolderLevels::levels(std::size_t a) {
  if (opened_.at(a)) return opened_[a]->levels.get();
  const std::string path = folder_.path(a);
  auto named = [&](const absl::Status& s) { return forge::with_archive(s, path); };
  auto input = InputFile::open(path);
  if (!input.ok()) return input.status();  // InputFile's message names the path
  auto opened = std::make_unique<Opened>(Opened{std::move(*input), {}, nullptr});
  const std::span<const u8> bytes = opened->input.bytes();
  // As `anvilrt patch A.forge` reads it (cli/archive_input.cpp): the layout and the dialect from the same
  // data file unless given.
  auto archive = forge::open_archive(bytes, &opened->input, {.layout = options_.layout, .game = options_.game});
  if (!archive.ok()) return named(archive.status());
  opened->archive = std::move(archive->archive);
  const Game game = *archive->game;
  opened->levels = std::make_unique<forge::ArchiveLevels>(bytes, opened->archive, game);
  if (options_.check_alone) opened->levels->check_alone();
  const InputFile* file = &opened->input;
  opened->levels->release_read_with([file](std::size_t offset, std::size_t size) { file->release(offset, size); });
  opened_[a] = std::move(opened);
  return opened_[a]->levels.get();
}

}  // namespace anvil::folder
