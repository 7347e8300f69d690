#include "patch/archive_keys.hpp"

#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <cstring>

#include "model/json_text.hpp"
#include "model/parallel.hpp"
#include "patch/json_util.hpp"

namespace anvil::patch::archive {

void KeyIndex::build() {
  if (indexed_) return;
  for (std::size_t i = 0; i < set_.size(); ++i) {
    auto level = set_.level(i);
    if (!level.ok())
      refuse_unreadable(
          absl::StrFormat("%s (an object key is looked up in every data file)", level.status().message()));
    for (const Piece& p : (*level)->pieces) {
      if (!p.is_object()) continue;
      // Every object of an id counts, so that renaming one leaves its data file holding the id when
      // another object there has it (which then takes the plain key).
      ids_[p.id].push_back(static_cast<u32>(i));
      if (p.repeated_id) other_keys_[object_key(p, set_.game())].push_back(static_cast<u32>(i));
    }
    set_.release(i);
  }
  indexed_ = true;
}

std::vector<std::size_t> KeyIndex::search(const std::string& key, const std::vector<bool>* among) {
  std::size_t width = id_width();
  // A key is "<id>" or "<id>@<offset>", the id in its one spelling ("0x" + lowercase hex of the width).
  const std::string id_text = key.substr(0, key.find('@'));
  auto id = json_text::parse_id(id_text, width);
  if (!id || json_text::format_id(*id, width) != id_text) return {};
  std::vector<std::size_t> candidates;
  if (known_ != nullptr) {
    for (std::size_t i = 0; i < set_.size(); ++i)
      if ((among == nullptr || (*among)[i]) && std::binary_search((*known_)[i]->begin(), (*known_)[i]->end(), *id))
        candidates.push_back(i);
  } else {
    u8 needle[8];
    std::memcpy(needle, &*id, sizeof needle);  // an id is stored as its width's little-endian bytes
    // The data files whose bytes hold the id's, searched on the command's threads.
    auto found = set_.holding({needle, width}, among, thread_budget());
    if (!found.ok())
      refuse_unreadable(
          absl::StrFormat("%s (an object key is looked up in every data file)", found.status().message()));
    candidates = std::move(*found);
  }
  return confirm(candidates, key, *id);
}

std::vector<std::size_t> KeyIndex::confirm(const std::vector<std::size_t>& candidates, const std::string& key, u64 id) {
  const bool plain = key.find('@') == std::string::npos;
  std::vector<std::size_t> found;
  std::string spelled;
  for (std::size_t i : candidates) {
    auto level = set_.level(i);
    if (!level.ok())
      refuse_unreadable(
          absl::StrFormat("%s (an object key is looked up in every data file)", level.status().message()));
    bool holds = false;
    for (const Piece& p : (*level)->pieces) {
      if (!p.is_object() || p.id != id) continue;
      if (!plain) object_key(p, set_.game(), spelled);
      if (plain || spelled == key) {
        holds = true;
        break;
      }
    }
    if (holds)
      found.push_back(i);  // kept read: it is the one the operation patches
    else
      set_.release(i);
  }
  return found;
}

std::vector<std::size_t> KeyIndex::holders(const std::string& key, const std::vector<bool>* among) {
  if (!indexed_ && (known_ != nullptr || ++searches_ <= 2)) return search(key, among);
  build();
  std::vector<std::size_t> found;
  auto collect = [&](const absl::InlinedVector<u32, 1>& list) {
    for (u32 i : list)
      if ((among == nullptr || (*among)[i]) && std::find(found.begin(), found.end(), i) == found.end())
        found.push_back(i);
  };
  std::size_t width = id_width();
  // A plain key is the id in its one spelling ("0x" + lowercase hex of the dialect's width).
  if (auto id = json_text::parse_id(key, width); id && json_text::format_id(*id, width) == key)
    if (auto it = ids_.find(*id); it != ids_.end()) collect(it->second);
  if (auto it = other_keys_.find(key); it != other_keys_.end()) collect(it->second);
  std::sort(found.begin(), found.end());
  return found;
}

std::size_t KeyIndex::holder(const std::string& key, const std::vector<bool>* among) {
  std::vector<std::size_t> found = holders(key, among);
  if (found.empty())
    refuse(absl::StrFormat("no object with key \"%s\" in %s", key,
                           among ? "the data files named by \"datafiles\"" : "any data file of the archive"));
  if (found.size() > 1) {
    std::vector<std::string> names;
    for (std::size_t i : found) names.push_back(set_.name(i));
    refuse(absl::StrFormat(
        "the object key \"%s\" is in several data files (%s): address one as /datafiles/NAME/objects/%s", key,
        absl::StrJoin(names, ", "), escape_segment(key)));
  }
  return found.front();
}

void KeyIndex::renamed(std::size_t datafile, const std::string& old_key, u64 new_id) {
  known_ = nullptr;  // it no longer tells: the index of every key takes over
  build();
  std::size_t width = id_width();
  if (auto old_id = json_text::parse_id(old_key, width); old_id && json_text::format_id(*old_id, width) == old_key)
    if (auto it = ids_.find(*old_id); it != ids_.end())
      if (auto at = std::find(it->second.begin(), it->second.end(), datafile); at != it->second.end())
        it->second.erase(at);
  ids_[new_id].push_back(static_cast<u32>(datafile));
}

}  // namespace anvil::patch::archive
