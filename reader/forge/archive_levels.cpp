#include "reader/forge/archive_levels.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <numeric>

#include "reader/forge/data_files.hpp"

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

absl::StatusOr<const ArchiveLevels::Decompressed*> ArchiveLevels::decompressed(std::size_t i) {
  auto it = held_.find(i);
  if (it != held_.end()) return &it->second.data;
  std::size_t index = selected_.at(i);
  auto read = read_data_file(bytes_, archive_, index, checksums().verdict);
  if (!read.ok()) return read.status();
  Held held;
  held.data.bytes = read->decoded.bytes;
  held.data.owned = std::move(read->decoded.owned);
  auto file = view_data_file(held.data.bytes, archive_.variant());
  if (!file.ok())
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %s", data_file_label(archive_, index), file.status().message()));
  held.data.entries = file->file.entries.size();
  for (const BodyAt& body : body_layout(*file))
    if (body.size > 0) held.data.regions.push_back({body.offset, body.size});
  return &held_.emplace(i, std::move(held)).first->second.data;
}

const ArchiveChecksums& ArchiveLevels::checksums() {
  if (!checksums_) checksums_ = archive_checksums(bytes_, archive_, release_voted_);
  return *checksums_;
}

absl::StatusOr<const Level*> ArchiveLevels::level(std::size_t i) {
  auto data = decompressed(i);
  if (!data.ok()) return data.status();
  Held& held = held_.at(i);
  if (!held.level) held.level = std::make_unique<Level>(carve_regions(held.data.bytes, game_, held.data.regions));
  return held.level.get();
}

}  // namespace anvil::forge
