// The object keys of an archive's data files (patch/archive_patch.hpp): which data files hold an object
// with a given key, for routing `/objects/<key>/...` and the keys of bulk operations. A key is looked up
// by searching each data file's decompressed bytes for its id's bytes and carving only the data files
// that hold them; the index of every key (ids as numbers: a large archive has millions) is built, which
// carves every data file, once an object is renamed (the bytes then no longer tell) or from the third
// look-up on (a search reads every data file: a bulk operation of many keys pays that once). A caller that
// knows the ids each data file may hold (a game folder's key cache) gives them, and a look-up then carves only
// the data files whose ids hold the key's.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>

#include <string>
#include <vector>

#include "model/dialect.hpp"
#include "patch/patch.hpp"
#include "reader/level_set.hpp"

namespace anvil::patch::archive {

// A routing refusal: the operation fails with this reason.
struct Refusal {
  std::string reason;
  int exit_code = kBadPatch;
  bool input_fault = false;  // PatchError::input_fault
};
[[noreturn]] inline void refuse(std::string reason, int exit_code = kBadPatch) {
  throw Refusal{std::move(reason), exit_code};
}
// A refusal for the archive's fault: a data file the operation needs does not read.
[[noreturn]] inline void refuse_unreadable(std::string reason) { throw Refusal{std::move(reason), kBadPatch, true}; }

// For each data file of a set, sorted ids that include those of all its objects (what a key cache knows).
using KnownIds = std::vector<const std::vector<u64>*>;

class KeyIndex {
 public:
  // `known`, when given, the ids of every data file of `set` (by set index; it must outlive the index).
  explicit KeyIndex(LevelSet& set, const KnownIds* known = nullptr) : set_(set), known_(known) {}

  // The width of the dialect's ids in bytes.
  std::size_t id_width() const { return dialect::facts(set_.game()).id_width; }

  // The data files that hold an object with this key (among those flagged in `among`, when given),
  // ascending.
  std::vector<std::size_t> holders(const std::string& key, const std::vector<bool>* among);
  // The one data file that holds it; refused when none or several do.
  std::size_t holder(const std::string& key, const std::vector<bool>* among);
  // An object of `datafile` addressed as `old_key` has been given the id `new_id`: the new key names it
  // there, and the old key no longer does (unless another object there has that id).
  void renamed(std::size_t datafile, const std::string& old_key, u64 new_id);

 private:
  void build();
  // Before any rename: the data files (among `among`) holding an object with this key, found by the id's
  // bytes and confirmed by carving; the holders stay read.
  std::vector<std::size_t> search(const std::string& key, const std::vector<bool>* among);
  // The data files (in `candidates`, all read) whose objects have the key: carved; the others released.
  std::vector<std::size_t> confirm(const std::vector<std::size_t>& candidates, const std::string& key, u64 id);

  LevelSet& set_;
  const KnownIds* known_ = nullptr;  // dropped once an object is renamed
  bool indexed_ = false;
  std::size_t searches_ = 0;
  absl::flat_hash_map<u64, absl::InlinedVector<u32, 1>> ids_;
  absl::flat_hash_map<std::string, absl::InlinedVector<u32, 1>> other_keys_;  // "<id>@<offset>"
};

}  // namespace anvil::patch::archive
