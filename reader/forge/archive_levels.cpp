#include "reader/forge/archive_levels.hpp"

#include <algorithm>
#include <mutex>
#include <numeric>

#include "model/forge/forge_error.hpp"
#include "model/object.hpp"
#include "model/parallel.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/variant_resolver.hpp"
#include "reader/signature_ids.hpp"
#include "reader/signature_search.hpp"

namespace anvil::forge {

ArchiveLevels::ArchiveLevels(std::span<const u8> bytes, const Archive& archive, Game game,
                             std::vector<std::size_t> selected)
    : bytes_(bytes), archive_(archive), game_(game), selected_(std::move(selected)), names_(data_file_names(archive)) {
  if (selected_.empty()) {
    selected_.resize(archive.files.size());
    std::iota(selected_.begin(), selected_.end(), 0);
  }
}

std::vector<std::size_t> ArchiveLevels::select(std::string_view selector) const {
  std::vector<std::size_t> found = find_data_files(archive_, names_, selector), members;
  for (std::size_t i = 0; i < selected_.size(); ++i)
    if (std::binary_search(found.begin(), found.end(), selected_[i])) members.push_back(i);
  return members;
}

absl::StatusOr<ArchiveLevels::Decompressed> ArchiveLevels::read(std::size_t i) const {
  std::size_t index = selected_.at(i);
  Decompressed data;
  if (auto replaced = replacements_.find(i); replaced != replacements_.end()) {
    data.bytes = replaced->second;
  } else {
    auto read = read_data_file(bytes_, archive_, index, verdict_for(index));
    if (!read.ok()) return with_game(read.status(), game_name(game_));
    data.bytes = read->decoded.bytes;
    data.owned = std::move(read->decoded.owned);
  }
  auto file = view_data_file(data.bytes, archive_.variant());
  if (!file.ok()) return with_game(with_data_file(file.status(), data_file_ref(archive_, index)), game_name(game_));
  data.entries = file->file.entries.size();
  for (const BodyAt& body : body_layout(*file))
    if (body.size > 0) data.regions.push_back({body.offset, body.size});
  return data;
}

absl::StatusOr<const ArchiveLevels::Decompressed*> ArchiveLevels::decompressed(std::size_t i) {
  auto it = held_.find(i);
  if (it != held_.end()) return &it->second.data;
  if (!alone_) checksums();
  auto data = read(i);
  if (!data.ok()) return data.status();
  return &held_.emplace(i, Held{std::move(*data), nullptr}).first->second.data;
}

absl::StatusOr<std::vector<std::size_t>> ArchiveLevels::holding(std::span<const u8> needle,
                                                                const std::vector<bool>* among, unsigned threads) {
  std::vector<std::size_t> wanted;
  for (std::size_t i = 0; i < size(); ++i)
    if (among == nullptr || (*among)[i]) wanted.push_back(i);
  checksums(wanted);  // voted once, before the threads read it
  std::vector<absl::Status> status(wanted.size());
  std::vector<char> holds(wanted.size(), 0);
  std::mutex mutex;  // held_
  for_each_index(wanted.size(), threads, [&](std::size_t k) {
    const std::size_t i = wanted[k];
    {
      std::lock_guard lock(mutex);
      if (auto it = held_.find(i); it != held_.end()) {  // read already: searched, released if it does not hold it
        holds[k] = find_bytes(it->second.data.bytes, needle).has_value();
        if (!holds[k]) held_.erase(it);
        return;
      }
    }
    auto data = read(i);
    if (!data.ok()) {
      status[k] = data.status();
      return;
    }
    if (!find_bytes(data->bytes, needle)) {  // dropped here
      release_stored(i);
      return;
    }
    holds[k] = 1;
    std::lock_guard lock(mutex);
    held_.emplace(i, Held{std::move(*data), nullptr});
  });
  std::vector<std::size_t> found;
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    if (!status[k].ok()) return status[k];
    if (holds[k]) found.push_back(wanted[k]);
  }
  return found;
}

absl::StatusOr<std::vector<std::vector<u64>>> ArchiveLevels::signature_ids(std::span<const std::size_t> which,
                                                                           unsigned threads) {
  if (which.empty()) return std::vector<std::vector<u64>>{};
  checksums(which);  // voted once, before the threads read it
  std::vector<std::vector<u64>> ids(which.size());
  std::vector<absl::Status> status(which.size());
  for_each_index(which.size(), threads, [&](std::size_t k) {
    auto data = read(which[k]);
    if (!data.ok()) {
      status[k] = data.status();
      return;
    }
    ids[k] = anvil::signature_ids(data->bytes, game_, data->regions);
    release_stored(which[k]);
  });
  for (const absl::Status& s : status)
    if (!s.ok()) return s;
  return ids;
}

Extent ArchiveLevels::stored_extent(std::size_t i) const {
  const DataFileAt& file = archive_.files.at(selected_.at(i));
  // A table may name bytes past the archive's end; then read() refuses the data file.
  if (file.stored_offset() > bytes_.size() || file.index.size > bytes_.size() - file.stored_offset()) return {};
  return {file.stored_offset(), file.index.size};
}

const ArchiveChecksums& ArchiveLevels::checksums(std::span<const std::size_t> read_next) const {
  // On every thread the command may use: the vote reads every block of the archive.
  if (!release_read_ || read_next.empty()) return checksum_rule(bytes_, archive_, release_read_, thread_budget());
  std::vector<u64> kept;  // the stored offsets of read_next
  for (std::size_t i : read_next) kept.push_back(archive_.files.at(selected_.at(i)).stored_offset());
  std::sort(kept.begin(), kept.end());
  return checksum_rule(
      bytes_, archive_,
      [&](u64 offset, u64 size) {
        if (!std::binary_search(kept.begin(), kept.end(), offset)) release_read_(offset, size);
      },
      thread_budget());
}

ChecksumVerdict ArchiveLevels::verdict_for(std::size_t index) const {
  if (alone_ && archive_.checksums() == nullptr) return own_checksum_rule(bytes_, archive_, archive_.variant(), index);
  return checksums().verdict;
}

void ArchiveLevels::release_stored(std::size_t i) const {
  if (!release_read_) return;
  const Extent stored = stored_extent(i);
  if (stored.length > 0) release_read_(stored.offset, stored.length);
}

void ArchiveLevels::replace(std::size_t i, std::vector<u8> decompressed) {
  held_.erase(i);
  replacements_[i] = std::move(decompressed);
}

std::vector<std::size_t> ArchiveLevels::replaced() const {
  std::vector<std::size_t> out;
  for (const auto& [i, bytes] : replacements_) out.push_back(i);
  return out;
}

absl::StatusOr<const Level*> ArchiveLevels::level(std::size_t i) {
  auto data = decompressed(i);
  if (!data.ok()) return data.status();
  Held& held = held_.at(i);
  if (!held.level) {
    held.level = std::make_unique<Level>(carve_regions(held.data.bytes, game_, held.data.regions));
    held.level->variant = archive_.variant();  // as carve_source() carves a data file: what diff_levels() reads
  }
  return held.level.get();
}

}  // namespace anvil::forge
