#include "fuzz/invariants.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "reader/level.hpp"
#include "reader/object_json.hpp"
#include "writer/build.hpp"
#include "writer/dump.hpp"
#include "writer/encode.hpp"
#include "writer/verify.hpp"

namespace anvil::fuzz {
namespace {

std::string first_difference(std::span<const u8> want, std::span<const u8> got) {
  auto [w, g] = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
  if (w == want.end() && g == got.end()) return "";
  return absl::StrCat("sizes ", want.size(), " and ", got.size(), ", first difference at offset ", w - want.begin());
}

std::string carve_one(std::span<const u8> bytes, Game game) {
  std::string where = std::string(game_name(game)) + ": ";
  Level level = carve_level(bytes, game);
  std::size_t end = 0, carved = 0;
  for (const Piece& piece : level.pieces) {
    if (piece.offset != end) return where + absl::StrCat("a piece starts at ", piece.offset, ", not ", end);
    if (piece.length == 0) return where + absl::StrCat("an empty piece at ", piece.offset);
    end += piece.length;
    if (piece.is_object()) carved += piece.length;
  }
  if (end != bytes.size()) return where + absl::StrCat("the pieces end at ", end, " of ", bytes.size());
  if (carved != carved_bytes(bytes, game))
    return where + absl::StrCat("carved_bytes says ", carved_bytes(bytes, game), ", carve_level ", carved);
  std::vector<Object> objects = parse_objects(level);
  if (auto diff = first_difference(bytes, write_level(level, objects)); !diff.empty())
    return where + "write(read(x)) != x: " + diff;
  VerifyReport report = verify_bytes(bytes, game, false);
  if (!report.identical()) return where + "verify_bytes: " + report.difference;
  if (report.objects != objects.size())
    return where + absl::StrCat("verify_bytes sees ", report.objects, " objects, carve_level ", objects.size());
  return "";
}

std::string_view text_of(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// `dump --full` then `build` of `bytes` gives `bytes` back.
std::string dump_build(std::span<const u8> bytes, Game game) {
  std::string where = std::string(game_name(game)) + ": ";
  std::string json = dump_json(bytes, {game, true});
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json.data(), json.size());
  if (doc.HasParseError()) return where + absl::StrCat("the dump is not JSON (offset ", doc.GetErrorOffset(), ")");
  for (const char* key : {"format", "game", "size", "objects", "spans"})
    if (!doc.IsObject() || !doc.HasMember(key)) return where + "the dump has no \"" + key + "\"";
  if (!doc["game"].IsString() || text_of(doc["game"]) != game_name(game)) return where + "the dump names another game";
  if (!doc["size"].IsUint64() || doc["size"].GetUint64() != bytes.size()) return where + "the dump has a wrong size";
  auto built = build_from_dump(doc);
  if (!built.ok()) return where + "the dump does not build: " + std::string(built.status().message());
  if (auto diff = first_difference(bytes, *built); !diff.empty()) return where + "build(dump(x)) != x: " + diff;
  VerifyReport report = verify_bytes(bytes, game, true);
  if (!report.identical()) return where + "verify_bytes with JSON: " + report.difference;
  return "";
}

}  // namespace

std::string check_carve(std::span<const u8> bytes) {
  for (Game game : {Game::ac2, Game::sws})
    if (auto v = carve_one(bytes, game); !v.empty()) return v;
  Game detected = detect_game(bytes);
  if (carved_bytes(bytes, detected) < carved_bytes(bytes, detected == Game::ac2 ? Game::sws : Game::ac2))
    return "auto: picked the dialect that carves fewer bytes";
  return carve_one(bytes, detected);
}

std::string check_dump(std::span<const u8> bytes) {
  for (Game game : {Game::ac2, Game::sws})
    if (auto v = dump_build(bytes, game); !v.empty()) return v;
  return "";
}

std::string check_json(std::span<const u8> text) {
  std::string_view json(reinterpret_cast<const char*>(text.data()), text.size());
  auto built = build_from_dump(json);
  if (!built.ok()) {
    if (built.status().message().empty()) return "build failed without a message";
    return "";
  }
  const std::vector<u8>& bytes = *built;

  // The model the document describes: its objects, read from their fields, at their span offsets.
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json.data(), json.size());
  if (doc.HasParseError()) return "build accepted text that does not parse";
  std::optional<Game> game = parse_game(text_of(doc["game"]));
  if (!game) return "build accepted an unknown game";
  struct Expected {
    std::size_t offset;
    Object object;
  };
  std::vector<Expected> expected;
  const rapidjson::Value& spans = doc["spans"];
  for (rapidjson::SizeType i = 0; i < spans.Size(); ++i) {
    auto key = spans[i].FindMember("object");
    if (key == spans[i].MemberEnd()) continue;
    const rapidjson::Value& value = doc["objects"][key->value];
    Expected e{static_cast<std::size_t>(spans[i]["offset"].GetUint64()), {}};
    if (auto failure = read_object_json(value, *game, "/objects", e.object))
      return "build accepted an object whose fields do not read: " + failure->message();
    expected.push_back(std::move(e));
  }

  // The model the bytes re-read into.
  Level level = carve_level(bytes, *game);
  std::vector<Object> objects = parse_objects(level);
  if (objects.size() != expected.size())
    return absl::StrCat("the built bytes carve into ", objects.size(), " objects, the document has ", expected.size());
  std::size_t next = 0;
  for (const Piece& piece : level.pieces) {
    if (!piece.is_object()) continue;
    if (piece.offset != expected[next].offset)
      return absl::StrCat("object ", next, " re-reads at offset ", piece.offset, ", not ", expected[next].offset);
    if (!same_object(objects[next], expected[next].object))
      return absl::StrCat("object ", next, " re-reads with other fields");
    ++next;
  }
  if (auto diff = first_difference(bytes, write_level(level, objects)); !diff.empty())
    return "the built bytes do not write back: " + diff;
  if (auto v = dump_build(bytes, *game); !v.empty()) return "the built bytes: " + v;
  return "";
}

}  // namespace anvil::fuzz
