// Routing a bulk operation of an archive patch (patch/bulk.cpp, through the engine): to every data file it ranges over,
// or, when it names its objects by key, to the data files that hold them, each with its own keys.
#include <absl/strings/str_format.h>

#include <algorithm>
#include <map>

#include "patch/archive_router.hpp"
#include "patch/json_util.hpp"

namespace anvil::patch::archive {

void Router::route_bulk(std::size_t index, const Value& op) {
  // The data files it ranges over.
  std::vector<bool> among(set_.size(), true);
  bool narrowed = false;
  if (auto it = op.FindMember("datafiles"); it != op.MemberEnd()) {
    const Value& list = it->value;
    if (!list.IsArray() || list.Empty()) refuse("\"datafiles\" must be a non-empty array of data file names");
    std::fill(among.begin(), among.end(), false);
    for (const Value& item : list.GetArray()) {
      if (!item.IsString())
        refuse(absl::StrFormat("\"datafiles\" must hold data file names (found %s)", to_text(item)));
      std::size_t i = datafile_named({item.GetString(), item.GetStringLength()});
      if (among[i]) refuse(absl::StrFormat("\"datafiles\" lists \"%s\" twice", set_.name(i)));
      among[i] = true;
    }
    narrowed = true;
  }
  std::vector<std::size_t> ranged;
  for (std::size_t i = 0; i < among.size(); ++i)
    if (among[i]) ranged.push_back(i);
  if (ranged.empty()) refuse("the archive holds no data files");

  // Keys named by "objects" (an array of strings) go to the data files that hold them; anything else
  // ("*", absent, or malformed, which the engine refuses) goes to every data file it ranges over.
  std::map<std::size_t, std::vector<const Value*>> keys;
  auto objects = op.FindMember("objects");
  bool by_key = objects != op.MemberEnd() && objects->value.IsArray() && !objects->value.Empty();
  if (by_key)
    for (const Value& item : objects->value.GetArray())
      if (!item.IsString()) by_key = false;
  if (by_key) {
    for (const Value& item : objects->value.GetArray())
      keys[keys_.holder({item.GetString(), item.GetStringLength()}, narrowed ? &among : nullptr)].push_back(&item);
  }
  bool malformed = !by_key && objects != op.MemberEnd() && !(objects->value.IsString() && objects->value == "*");
  if (malformed && ranged.size() > 1)
    ranged.erase(ranged.begin() + 1, ranged.end());  // one data file's engine says why

  auto sub_op = [&](std::size_t datafile) {
    auto& alloc = subs_[datafile].ops.GetAllocator();
    Value copy(rapidjson::kObjectType);
    for (auto& m : op.GetObject()) {
      if (m.name == "datafiles") continue;
      if (m.name == "objects" && by_key) {
        Value list(rapidjson::kArrayType);
        for (const Value* key : keys[datafile]) list.PushBack(Value(*key, alloc), alloc);
        copy.AddMember(Value(m.name, alloc), list, alloc);
      } else {
        copy.AddMember(Value(m.name, alloc), Value(m.value, alloc), alloc);
      }
    }
    add(datafile, index, std::move(copy), !malformed);
    ++bulk_[index].datafiles;
    bulk_[index].last = datafile;
  };
  if (by_key)
    for (auto& [datafile, list] : keys) sub_op(datafile);
  else
    for (std::size_t datafile : ranged) sub_op(datafile);
}

}  // namespace anvil::patch::archive
