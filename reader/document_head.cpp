#include "reader/document_head.hpp"

#include <string>
#include <string_view>

#include "reader/json_messages.hpp"

namespace anvil {
namespace {

const rapidjson::Value* member(const rapidjson::Value& object, Key name) {
  auto it = object.FindMember(rapidjson::StringRef(name.text, name.size));
  return it == object.MemberEnd() ? nullptr : &it->value;
}

absl::Status refused(Key name, std::string_view what, const rapidjson::Value* v) {
  return absl::InvalidArgumentError("/" + std::string(document::text(name)) + ": " + std::string(what) + " (found " +
                                    (v == nullptr ? std::string("nothing") : json_as_written(*v)) + ")");
}

std::string_view text(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

}  // namespace

absl::StatusOr<DocumentHead> read_document_head(const rapidjson::Value& doc) {
  DocumentHead head;
  const rapidjson::Value* format = member(doc, document::kFormat);
  if (format == nullptr || !format->IsString() || text(*format) != kDocumentFormat)
    return refused(document::kFormat, "must be \"" + std::string(kDocumentFormat) + "\"", format);
  const rapidjson::Value* game_value = member(doc, document::kGame);
  std::optional<Game> game;
  if (game_value != nullptr && game_value->IsString()) game = parse_game(text(*game_value));
  if (!game) return refused(document::kGame, "must be \"ac2\" or \"sws\"", game_value);
  head.game = *game;
  const rapidjson::Value* size = member(doc, document::kSize);
  if (size == nullptr || !size->IsUint64()) return refused(document::kSize, "must be the file size in bytes", size);
  head.size = size->GetUint64();
  return head;
}

bool read_document_head(JsonTextReader& r, DocumentHead& head) {
  std::string_view s;
  if (!r.member(document::kFormat) || !r.string(s) || s != kDocumentFormat || !r.member(document::kGame) ||
      !r.string(s))
    return false;
  auto game = parse_game(s);
  if (!game || !r.member(document::kSize) || !r.number(head.size)) return false;
  head.game = *game;
  return true;
}

}  // namespace anvil
