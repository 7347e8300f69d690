#include "reader/object_json.hpp"

#include "model/dialect.hpp"
#include "reader/json_messages.hpp"

namespace anvil {
namespace {

template <class T>
std::optional<CheckFailure> read_as(const rapidjson::Value& value, const std::string& pointer, Object& out) {
  if (!std::holds_alternative<T>(out)) out.template emplace<T>();
  JsonReader reader(pointer);
  reader.fields(value, std::get<T>(out), {"offset", "length", "class"});
  return reader.failure();
}

template <class T>
void read_fields_as(JsonTextReader& reader, Object& out) {
  if (!std::holds_alternative<T>(out)) out.template emplace<T>();
  std::get<T>(out).serialize(reader, 0);
}

}  // namespace

std::optional<CheckFailure> read_object_json(const rapidjson::Value& value, Game game, const std::string& pointer,
                                             Object& out) {
  auto fail = [&](std::string check, std::string found) {
    return CheckFailure{0, pointer + "/class", std::move(check), std::move(found)};
  };
  if (!value.IsObject()) return CheckFailure{0, pointer, "must be an object", json_kind(value)};
  auto cls = value.FindMember("class");
  if (cls == value.MemberEnd()) return fail("missing field", "");
  if (!cls->value.IsString()) return fail("must be a class name (a string)", json_kind(cls->value));
  std::string_view name(cls->value.GetString(), cls->value.GetStringLength());
  if (const dialect::Kind* kind = dialect::find_kind(game, name))
    return dialect::with_type(*kind, [&](auto t) { return read_as<typename decltype(t)::type>(value, pointer, out); });
  return fail(std::string("must be a top-level class of ") + std::string(game_name(game)), json_as_written(cls->value));
}

bool read_object_json(JsonTextReader& reader, Game game, Object& out, u64& offset, u64& length) {
  reader.object([&] {
    std::string_view name;
    if (!reader.member("offset") || !reader.number(offset) || !reader.member("length") || !reader.number(length) ||
        !reader.member("class") || !reader.string(name))
      return;
    if (const dialect::Kind* kind = dialect::find_kind(game, name))
      dialect::with_type(*kind, [&](auto t) { read_fields_as<typename decltype(t)::type>(reader, out); });
    else
      reader.stop();
  });
  return reader.ok();
}

}  // namespace anvil
