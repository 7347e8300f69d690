#include "patch/dump_object.hpp"

#include <absl/strings/str_cat.h>

#include "reader/json_messages.hpp"
#include "reader/object_json.hpp"
#include "writer/encode.hpp"

namespace anvil {

using rapidjson::Value;

std::optional<std::string> read_dump_object(const Value& object_json, Game game, const std::string& pointer,
                                            std::size_t offset, Object& object, std::vector<u8>& encoded) {
  if (auto failure = read_object_json(object_json, game, pointer, object)) return failure->message();
  auto object_offset_member = object_json.FindMember("offset");
  const Value* object_offset = object_offset_member == object_json.MemberEnd() ? nullptr : &object_offset_member->value;
  if (object_offset == nullptr || !object_offset->IsUint64() || object_offset->GetUint64() != offset)
    return absl::StrCat(pointer, "/offset: must be ", offset, ", where its span starts (found ",
                        object_offset == nullptr ? std::string("nothing") : json_as_written(*object_offset), ")");
  encoded.clear();
  encode_object(object, encoded);
  auto length = object_json.FindMember("length");
  if (length == object_json.MemberEnd() || !length->value.IsUint64() || length->value.GetUint64() != encoded.size())
    return absl::StrCat(pointer, "/length: the fields encode to ", encoded.size(),
                        " bytes: an object inside a level file cannot change size");
  return std::nullopt;
}

}  // namespace anvil
