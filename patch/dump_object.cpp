#include "patch/dump_object.hpp"

#include <absl/strings/str_cat.h>

#include "reader/json_messages.hpp"
#include "reader/object_json.hpp"
#include "writer/encode.hpp"

namespace anvil {

using rapidjson::Value;

std::optional<std::string> read_dump_object(const Value& object_json, Game game, const std::string& pointer,
                                            std::size_t offset, Object& object, std::vector<u8>& encoded,
                                            std::optional<std::size_t> resized_from) {
  if (auto failure = read_object_json(object_json, game, pointer, object)) return failure->message();
  auto object_offset_member = object_json.FindMember("offset");
  const Value* object_offset = object_offset_member == object_json.MemberEnd() ? nullptr : &object_offset_member->value;
  if (object_offset == nullptr || !object_offset->IsUint64() || object_offset->GetUint64() != offset)
    return absl::StrCat(pointer, "/offset: must be ", offset, ", where its span starts (found ",
                        object_offset == nullptr ? std::string("nothing") : json_as_written(*object_offset), ")");
  encoded.clear();
  encode_object(object, encoded);
  auto length = object_json.FindMember("length");
  const bool given = length != object_json.MemberEnd() && length->value.IsUint64();
  if (given && length->value.GetUint64() == encoded.size()) return std::nullopt;
  if (resized_from) {
    if (given && length->value.GetUint64() == *resized_from) return std::nullopt;
    return absl::StrCat(
        pointer, "/length: the fields encode to ", encoded.size(), " bytes: \"length\" follows the fields (found ",
        length == object_json.MemberEnd() ? std::string("nothing") : json_as_written(length->value), ")");
  }
  return absl::StrCat(pointer, "/length: the fields encode to ", encoded.size(),
                      " bytes: an object inside a level file cannot change size (the size fields of the container "
                      "around it are not known; inside a data file or an archive they are)");
}

}  // namespace anvil
