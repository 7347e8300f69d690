#include "fuzz/invariants.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

#include "patch/output.hpp"
#include "patch/patch.hpp"
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

// Appends to `out` the JSON pointers (under `at`) where `a` and `b` differ: a leaf, or the first node
// whose type or size differs.
void json_differences(const rapidjson::Value& a, const rapidjson::Value& b, const std::string& at,
                      std::vector<std::string>& out) {
  if (a.GetType() != b.GetType()) {
    out.push_back(at);
  } else if (a.IsObject()) {
    if (a.MemberCount() != b.MemberCount()) {
      out.push_back(at);
      return;
    }
    for (auto m = a.MemberBegin(); m != a.MemberEnd(); ++m) {
      auto n = b.FindMember(m->name);
      if (n == b.MemberEnd())
        out.push_back(at);
      else
        json_differences(m->value, n->value, at + "/" + std::string(text_of(m->name)), out);
    }
  } else if (a.IsArray()) {
    if (a.Size() != b.Size()) {
      out.push_back(at);
      return;
    }
    for (rapidjson::SizeType i = 0; i < a.Size(); ++i) json_differences(a[i], b[i], absl::StrCat(at, "/", i), out);
  } else if (a != b) {
    out.push_back(at);
  }
}

// Whether pointer `a` is `b` or lies under it (segment-wise).
bool under(std::string_view a, std::string_view b) {
  return a.starts_with(b) && (a.size() == b.size() || a[b.size()] == '/');
}

std::vector<u8> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::string check_patch(std::span<const u8> text, std::span<const u8> base, Game game) {
  std::string where = std::string(game_name(game)) + ": ";
  const std::vector<u8> pristine(base.begin(), base.end());
  Level level = carve_level(base, game);
  std::string_view patch_text(reinterpret_cast<const char*>(text.data()), text.size());
  patch::PatchOutcome outcome = patch::apply_patch_text(level, patch_text, {.record_changes = true});
  if (!std::equal(base.begin(), base.end(), pristine.begin(), pristine.end()))
    return where + "the patch engine modified the base file";
  if (outcome.error) {
    const patch::PatchError& e = *outcome.error;
    if (e.exit_code != patch::kTestFailed && e.exit_code != patch::kBadPatch)
      return where + absl::StrCat("a refusal with exit code ", e.exit_code);
    if (e.reason.empty() || e.message().empty()) return where + "a refusal without a reason";
    return "";
  }
  const patch::PatchResult& result = outcome.result;
  const std::vector<u8> bytes = patch::patched_bytes(level, result);
  if (bytes.size() != base.size())
    return where + absl::StrCat("the patched file has ", bytes.size(), " bytes, not ", base.size());
  if (result.edited.size() != result.edited_objects.size()) return where + "edited and edited_objects differ in size";

  // The same pieces; edited objects parse to the patched model; every other piece is unchanged.
  Level patched = carve_level(bytes, game);
  if (patched.pieces.size() != level.pieces.size())
    return where +
           absl::StrCat("the patched file carves into ", patched.pieces.size(), " pieces, not ", level.pieces.size());
  for (std::size_t i = 0; i < level.pieces.size(); ++i) {
    const Piece &a = level.pieces[i], &b = patched.pieces[i];
    auto edited = std::find(result.edited.begin(), result.edited.end(), i);
    // An edit may give an object another class of the same size, as `build` allows.
    int kind = edited != result.edited.end()
                   ? static_cast<int>(result.edited_objects[edited - result.edited.begin()].index())
                   : a.kind;
    if (a.offset != b.offset || a.length != b.length || kind != b.kind)
      return where + absl::StrCat("piece ", i, " (offset ", a.offset, ") carves differently after the patch");
    if (edited != result.edited.end()) {
      if (!a.is_object()) return where + absl::StrCat("piece ", i, " is edited but opaque");
      if (!same_object(parse_piece(patched, b), result.edited_objects[edited - result.edited.begin()]))
        return where + absl::StrCat("the edited object at offset ", a.offset, " re-reads with other fields");
    } else if (!std::equal(base.begin() + a.offset, base.begin() + a.offset + a.length, bytes.begin() + a.offset)) {
      return where + absl::StrCat("piece ", i, " (offset ", a.offset, ") changed but is not reported edited");
    }
  }
  if (auto diff = first_difference(bytes, write_level(patched, parse_objects(patched))); !diff.empty())
    return where + "the patched file does not write back: " + diff;
  if (auto failure = patch::check_written(level, result, bytes)) return where + "check_written: " + *failure;
  {
    // The streamed output (what `anvilrt patch` writes) is the same bytes.
    char* data = nullptr;
    std::size_t length = 0;
    std::FILE* sink = open_memstream(&data, &length);
    if (sink == nullptr) return where + "open_memstream failed";
    absl::Status streamed = patch::stream_patched(level, result, sink, "memory");
    std::fclose(sink);
    std::vector<u8> stream_bytes(data, data + length);
    std::free(data);
    if (!streamed.ok()) return where + "stream_patched: " + std::string(streamed.message());
    if (auto diff = first_difference(bytes, stream_bytes); !diff.empty())
      return where + "the streamed output differs from the patched bytes: " + diff;
  }

  // Field by field: every JSON field that differs lies under a location some operation reported changing.
  rapidjson::Document before, after;
  std::string before_text = dump_json(base, {game, false}), after_text = dump_json(bytes, {game, false});
  before.Parse<rapidjson::kParseFullPrecisionFlag>(before_text.data(), before_text.size());
  after.Parse<rapidjson::kParseFullPrecisionFlag>(after_text.data(), after_text.size());
  if (before.HasParseError() || after.HasParseError()) return where + "a dump does not parse";
  const rapidjson::Value &objects_before = before["objects"], &objects_after = after["objects"];
  if (objects_before.MemberCount() != objects_after.MemberCount()) return where + "the object count changed";
  // Objects are paired by order (a patch may change ids, and so keys); a difference is reported when a
  // change in the same object lies at or under it, or over it (pointers compared below the key).
  std::vector<std::size_t> object_pieces;
  for (std::size_t i = 0; i < level.pieces.size(); ++i)
    if (level.pieces[i].is_object()) object_pieces.push_back(i);
  std::size_t n = 0;
  for (auto a = objects_before.MemberBegin(), b = objects_after.MemberBegin(); a != objects_before.MemberEnd();
       ++a, ++b, ++n) {
    std::vector<std::string> differences;
    json_differences(a->value, b->value, "", differences);
    for (const std::string& difference : differences) {
      bool reported = std::any_of(result.changes.begin(), result.changes.end(), [&](const patch::Change& c) {
        if (c.op == "test" || c.piece != object_pieces[n]) return false;
        std::string_view inner = c.pointer;  // "/objects/<key>/..." without "/objects/<key>"
        std::size_t at = inner.find('/', std::string_view("/objects/").size());
        inner = at == std::string_view::npos ? std::string_view() : inner.substr(at);
        return under(difference, inner) || under(inner, difference);
      });
      if (!reported)
        return where + "the field /objects/" + std::string(text_of(a->name)) + difference +
               " changed, but no operation reported changing it";
    }
  }
  return "";
}

std::string check_patch_on_corpus(std::span<const u8> text, const std::string& corpus_dir) {
  static std::map<std::string, std::vector<u8>> files;
  for (const PatchBase& base : kPatchBases) {
    auto& bytes = files[corpus_dir + "/" + base.file];
    if (bytes.empty()) bytes = read_bytes(corpus_dir + "/" + base.file);
    if (bytes.empty()) return std::string("cannot read ") + corpus_dir + "/" + base.file;
    if (auto v = check_patch(text, bytes, base.game); !v.empty()) return v;
  }
  return "";
}

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
  // The one-pass path never accepts what the document path refuses, and builds the same bytes.
  if (build_in_order(json)) {
    auto whole = build_from_dump_document(json);
    if (!whole.ok())
      return "build_in_order accepted a dump the document path refuses: " + std::string(whole.status().message());
    if (*whole != bytes) return "build_in_order and the document path build different bytes";
  }

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
