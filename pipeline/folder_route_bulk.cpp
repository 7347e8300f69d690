// Routing a bulk operation of a folder patch: to every archive it ranges over (its "archives", or all),
// or, when it names its objects by key, to the archives that hold them, each with its own keys.
#include <absl/strings/str_format.h>

#include <map>

#include "patch/json_util.hpp"
#include "pipeline/folder_router.hpp"

namespace anvil::folder::route {

void Router::route_bulk(std::size_t index, const Value& op) {
  std::vector<bool> among(folder_.size(), true);
  bool narrowed = false;
  if (auto it = op.FindMember("archives"); it != op.MemberEnd()) {
    const Value& list = it->value;
    if (!list.IsArray() || list.Empty()) refuse("\"archives\" must be a non-empty array of archive file names");
    std::fill(among.begin(), among.end(), false);
    for (const Value& item : list.GetArray()) {
      if (!item.IsString())
        refuse(absl::StrFormat("\"archives\" must hold archive file names (found %s)", patch::to_text(item)));
      std::size_t a = archive_named({item.GetString(), item.GetStringLength()});
      if (among[a]) refuse(absl::StrFormat("\"archives\" lists \"%s\" twice", folder_.name(a)));
      among[a] = true;
    }
    narrowed = true;
  }
  std::vector<std::size_t> ranged;
  for (std::size_t a = 0; a < among.size(); ++a)
    if (among[a]) ranged.push_back(a);
  if (ranged.empty()) refuse("the folder holds no archive");

  // Keys named by "objects" (strings) go to the archives that hold them.
  std::map<std::size_t, std::vector<const Value*>> keys;
  auto objects = op.FindMember("objects");
  bool by_key = objects != op.MemberEnd() && objects->value.IsArray() && !objects->value.Empty();
  if (by_key)
    for (const Value& item : objects->value.GetArray()) by_key = by_key && item.IsString();
  if (by_key)
    for (const Value& item : objects->value.GetArray())
      keys[key_holder({item.GetString(), item.GetStringLength()}, narrowed ? &among : nullptr)].push_back(&item);
  // "datafiles" names data files of one archive: the one holding the first name, among those ranged over.
  if (auto it = op.FindMember("datafiles");
      !by_key && it != op.MemberEnd() && it->value.IsArray() && !it->value.Empty() && it->value[0].IsString()) {
    std::size_t a = datafile_holder({it->value[0].GetString(), it->value[0].GetStringLength()}, &among);
    ranged.assign(1, a);
  }
  bool malformed = !by_key && objects != op.MemberEnd() && !(objects->value.IsString() && objects->value == "*");
  if (malformed) ranged.resize(1);  // one archive's engine says why

  auto sub_op = [&](std::size_t archive) {
    auto& alloc = subs_[archive].ops.GetAllocator();
    Value copy(rapidjson::kObjectType);
    for (auto& m : op.GetObject()) {
      if (m.name == "archives") continue;
      if (m.name == "objects" && by_key) {
        Value list(rapidjson::kArrayType);
        for (const Value* key : keys[archive]) list.PushBack(Value(*key, alloc), alloc);
        copy.AddMember(Value(m.name, alloc), list, alloc);
      } else {
        copy.AddMember(Value(m.name, alloc), Value(m.value, alloc), alloc);
      }
    }
    add(archive, index, std::move(copy), !malformed);
    ++bulk_[index].archives;
    bulk_[index].last = archive;
  };
  if (by_key)
    for (auto& [archive, list] : keys) sub_op(archive);
  else
    for (std::size_t archive : ranged) sub_op(archive);
}

}  // namespace anvil::folder::route
