#include "fuzz/invariants.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "patch/patch.hpp"
#include "pipeline/build.hpp"
#include "pipeline/data_file_patch.hpp"
#include "pipeline/dump.hpp"
#include "pipeline/patch_output.hpp"
#include "pipeline/read_back.hpp"
#include "pipeline/verify.hpp"
#include "platform/file_stream.hpp"
#include "reader/json_numbers.hpp"
#include "reader/level_source.hpp"
#include "reader/object_json.hpp"
#include "reader/split_carve.hpp"
#include "writer/encode.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/object_json.hpp"

namespace anvil::fuzz {
namespace {

// "sizes A and B, first difference at offset N" (pipeline/read_back.hpp's first_difference), or "" when
// the two are equal.
std::string describe_difference(std::span<const u8> want, std::span<const u8> got) {
  auto at = anvil::first_difference(want, got);
  if (!at) return "";
  return absl::StrCat("sizes ", want.size(), " and ", got.size(), ", first difference at offset ", *at);
}

std::string name(Game game) { return std::string(game_name(game)); }
std::string where(Game game) { return name(game) + ": "; }

// A level carved once, with the objects the carve parsed (no second parse for the checks that need them).
struct Carved {
  Level level;
  std::vector<Object> objects;
  std::size_t carved = 0;  // bytes carved into objects
};

Carved carve(std::span<const u8> bytes, Game game) {
  Carved c;
  c.level = carve_level(bytes, game, [&](const Piece& piece, const Object& object) {
    c.objects.push_back(object);
    c.carved += piece.length;
  });
  return c;
}

// The invariants of one dialect's carve: tiling, carved_bytes, write(read(x)) == x, verify_bytes.
std::string check_carved(std::span<const u8> bytes, Game game, const Carved& c) {
  std::size_t end = 0;
  for (const Piece& piece : c.level.pieces) {
    if (piece.offset != end) return where(game) + absl::StrCat("a piece starts at ", piece.offset, ", not ", end);
    if (piece.length == 0) return where(game) + absl::StrCat("an empty piece at ", piece.offset);
    end += piece.length;
  }
  if (end != bytes.size()) return where(game) + absl::StrCat("the pieces end at ", end, " of ", bytes.size());
  if (std::size_t n = carved_bytes(bytes, game); n != c.carved)
    return where(game) + absl::StrCat("carved_bytes says ", n, ", carve_level ", c.carved);
  if (auto diff = describe_difference(bytes, write_level(c.level, c.objects)); !diff.empty())
    return where(game) + "write(read(x)) != x: " + diff;
  VerifyReport report = verify_bytes(bytes, game, false);
  if (!report.identical()) return where(game) + "verify_bytes: " + report.difference;
  if (report.objects != c.objects.size())
    return where(game) + absl::StrCat("verify_bytes sees ", report.objects, " objects, carve_level ", c.objects.size());
  return "";
}

// Carved in parts that start anywhere (reader/split_carve.hpp), `bytes` carve as in one part.
std::string check_split(std::span<const u8> bytes, Game game) {
  const SplitVisit every = [](unsigned, const Extent&, const Object&) { return true; };
  SplitCarve one = split_carve(bytes, game, {.parts = 1}, every);
  SplitCarve parts = split_carve(bytes, game, {.parts = 5, .min_part = 1}, every);
  if (parts.near_misses != one.near_misses)
    return where(game) + absl::StrCat("split_carve in 5 parts: ", parts.near_misses.size(), " near misses, not ",
                                      one.near_misses.size());
  if (parts.objects.size() != one.objects.size() ||
      !std::equal(parts.objects.begin(), parts.objects.end(), one.objects.begin(),
                  [](const Extent& a, const Extent& b) { return a.offset == b.offset && a.length == b.length; }))
    return where(game) + absl::StrCat("split_carve in 5 parts: ", parts.objects.size(),
                                      " objects, not the one carve's ", one.objects.size());
  return "";
}

std::string_view text_of(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// `dump --full` then `build` of `bytes` gives `bytes` back; verify_bytes agrees.
std::string dump_build(std::span<const u8> bytes, Game game) {
  std::string json = dump_json(bytes, {game, true});
  // The header as dump writes it; build below proves the rest is a document that holds "objects" and
  // "spans" (it needs both) and describes exactly these bytes.
  std::string header =
      absl::StrCat(R"({"format":"anvilrt/1","game":")", name(game), R"(","size":)", bytes.size(), R"(,"objects":{)");
  if (!json.starts_with(header)) return where(game) + "the dump does not start with " + header;
  auto built = build_from_dump(json);
  if (!built.ok()) return where(game) + "the dump does not build: " + std::string(built.status().message());
  if (auto diff = describe_difference(bytes, *built); !diff.empty())
    return where(game) + "build(dump(x)) != x: " + diff;
  // The JSON round trip object by object, when the dump has objects ("objects":{} is empty otherwise);
  // the opaque bytes' trip through base64 is the one dump and build just made.
  bool objects = json[header.size()] != '}';
  VerifyReport report = verify_bytes(bytes, game, objects);
  if (!report.identical()) return where(game) + "verify_bytes: " + report.difference;
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

// One object's value as `dump` writes it ({offset, length, class, fields}), parsed back.
bool object_document(const Piece& piece, const Object& object, rapidjson::Document& out) {
  rapidjson::StringBuffer text;
  JsonTextHandler<rapidjson::StringBuffer> handler(text);
  JsonWriter<JsonTextHandler<rapidjson::StringBuffer>> w(handler);
  write_object_value(w, {piece.offset, piece.length}, object);
  out.Parse<rapidjson::kParseFullPrecisionFlag>(text.GetString(), text.GetSize());
  return !out.HasParseError();
}

std::vector<u8> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::vector<u8> wrap_in_data_file(std::span<const u8> body) {
  std::vector<u8> out;
  auto put = [&](u64 v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out.push_back(static_cast<u8>(v >> (8 * i)));
  };
  const u64 header = 4 + 4 + 4 + 1;  // resource_type, file_size, name_length (0), flag (0)
  put(1, 2);                         // one entry
  put(0x12345678, 4);                // file_id
  put(header + body.size(), 4);      // data_size
  put(0, 2);                         // extra
  put(0, 4);                         // m: no kept bytes
  put(0x0faeba30, 4);                // resource_type
  put(body.size(), 4);               // file_size
  put(0, 4);
  put(0, 1);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

PatchCheck::PatchCheck(std::span<const u8> base, Game game, bool data_file)
    : base_(data_file ? wrap_in_data_file(base) : std::vector<u8>(base.begin(), base.end())),
      pristine_(base_),
      game_(game),
      data_file_(data_file),
      level_(data_file ? carve_source(base_, detect_source(base_), game) : carve_level(base_, game)) {
  if (data_file && detect_source(base_).kind != SourceKind::data_file)
    base_error_ = where(game) + "the wrapped base does not read as a data file";
  // What holds for the base once need not be checked again per patch: it writes back, and its dump
  // (the "before" side of the field comparison) parses.
  if (auto diff = describe_difference(base_, write_level(level_, parse_objects(level_))); !diff.empty())
    base_error_ = where(game) + "the base file does not write back: " + diff;
  std::string text = dump_json(base_, {game, false});
  dump_.Parse<rapidjson::kParseFullPrecisionFlag>(text.c_str(), text.size());
  if (dump_.HasParseError() || !dump_.IsObject() || !dump_.HasMember("objects")) {
    base_error_ = where(game) + "the base file's dump does not parse";
    return;
  }
  const rapidjson::Value& objects = dump_["objects"];
  for (auto m = objects.MemberBegin(); m != objects.MemberEnd(); ++m) before_.push_back(&m->value);
  if (before_.size() != level_.object_count()) base_error_ = where(game) + "the base's dump misses objects";
}

// The patched file's bytes: the data file laid anew when an object changed size, else the base with the
// edited objects written over it.
std::string PatchCheck::patched_output(const patch::PatchResult& result, bool resized, std::vector<u8>& bytes) const {
  if (resized) {
    auto laid = patch::patched_data_file(level_, result);
    if (!laid.ok()) return where(game_) + "patched_data_file: " + std::string(laid.status().message());
    bytes = std::move(*laid);
    if (auto failure = patch::check_patched_data_file(level_, result, bytes))
      return where(game_) + "check_patched_data_file: " + *failure;
  } else {
    bytes = patch::patched_bytes(level_, result);
  }
  return "";
}

std::string PatchCheck::compare_pieces(const patch::PatchResult& result, bool resized, std::span<const u8> bytes,
                                       std::vector<std::pair<std::size_t, std::string>>& differences) const {
  // The same pieces; edited objects parse to the patched model and encode back to their bytes; every
  // other piece is byte-identical to the base's (which writes back: checked once, in the constructor).
  // Their JSON is then the base's too: only the edited objects' fields can differ.
  Carved patched;
  if (data_file_) {
    Source source = detect_source(bytes);
    if (source.kind != SourceKind::data_file) return where(game_) + "the patched data file does not read as one";
    patched.level = carve_source(bytes, source, game_);
    patched.objects = parse_objects(patched.level);
  } else {
    patched = carve(bytes, game_);
  }
  if (patched.level.pieces.size() != level_.pieces.size())
    return where(game_) + absl::StrCat("the patched file carves into ", patched.level.pieces.size(), " pieces, not ",
                                       level_.pieces.size());
  std::vector<u8> encoded;
  std::int64_t shift = 0;  // what the objects before this piece grew
  for (std::size_t i = 0, object = 0; i < level_.pieces.size(); object += level_.pieces[i].is_object(), ++i) {
    const Piece &a = level_.pieces[i], &b = patched.level.pieces[i];
    auto edited = std::find(result.edited.begin(), result.edited.end(), i);
    // An edit may give an object another class of the same size, as `build` allows.
    int kind = edited != result.edited.end()
                   ? static_cast<int>(result.edited_objects[edited - result.edited.begin()].index())
                   : a.kind;
    const std::size_t length =
        edited != result.edited.end() ? result.overlays[edited - result.edited.begin()].size() : a.length;
    if (static_cast<std::int64_t>(a.offset) + shift != static_cast<std::int64_t>(b.offset) || length != b.length ||
        kind != b.kind)
      return where(game_) + absl::StrCat("piece ", i, " (offset ", a.offset, ") carves differently after the patch");
    shift += static_cast<std::int64_t>(length) - static_cast<std::int64_t>(a.length);
    if (edited == result.edited.end()) {
      // A resize changes the entries' size fields, outside the objects: check_patched_data_file proved them.
      if (resized && !a.is_object()) continue;
      if (!std::equal(base_.begin() + a.offset, base_.begin() + a.offset + a.length, bytes.begin() + b.offset))
        return where(game_) + absl::StrCat("piece ", i, " (offset ", a.offset, ") changed but is not reported edited");
      continue;
    }
    if (!a.is_object()) return where(game_) + absl::StrCat("piece ", i, " is edited but opaque");
    const Object& reread = patched.objects[object];
    if (!same_object(reread, result.edited_objects[edited - result.edited.begin()]))
      return where(game_) + absl::StrCat("the edited object at offset ", a.offset, " re-reads with other fields");
    if (auto diff =
            describe_difference(std::span(bytes).subspan(b.offset, b.length), encode_object_over(reread, encoded));
        !diff.empty())
      return where(game_) + absl::StrCat("the edited object at offset ", a.offset, " does not write back: ", diff);
    rapidjson::Document after;
    if (!object_document(b, reread, after))
      return where(game_) + absl::StrCat("the JSON of the edited object at offset ", a.offset, " does not parse");
    // Objects are paired by order (a patch may change ids, and so keys).
    std::vector<std::string> here;
    json_differences(*before_[object], after, "", here);
    for (std::string& d : here)
      if (!(resized && (d == "/offset" || d == "/length"))) differences.emplace_back(i, std::move(d));
  }
  return "";
}

// A patch that resizes nothing: the writer's own check of its output, and the streamed output (what
// `anvilrt patch` writes) the same bytes.
std::string PatchCheck::check_streamed(const patch::PatchResult& result, std::span<const u8> bytes) const {
  if (auto failure = patch::check_written(level_, result, bytes)) return where(game_) + "check_written: " + *failure;
  // The streamed output (what `anvilrt patch` writes) is the same bytes.
  std::FILE* sink = platform::anonymous_file();
  if (sink == nullptr) return where(game_) + "no anonymous file for the streamed output";
  absl::Status streamed = patch::stream_patched(level_, result, sink, "memory");
  std::vector<u8> stream_bytes;
  if (streamed.ok() && std::fflush(sink) == 0) {
    std::rewind(sink);
    u8 buffer[65536];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, sink)) > 0;)
      stream_bytes.insert(stream_bytes.end(), buffer, buffer + got);
  }
  std::fclose(sink);
  if (!streamed.ok()) return where(game_) + "stream_patched: " + std::string(streamed.message());
  if (auto diff = describe_difference(bytes, stream_bytes); !diff.empty())
    return where(game_) + "the streamed output differs from the patched bytes: " + diff;
  return "";
}

std::string PatchCheck::check_reported(const patch::PatchResult& result,
                                       const std::vector<std::pair<std::size_t, std::string>>& differences) const {
  // Field by field: every JSON field that differs lies under a location some operation reported changing.
  // A difference is reported when a change in the same object lies at or under it, or over it (pointers
  // compared below the key).
  for (const auto& found : differences) {
    // Named copies, not a structured binding: clang 14 (the fuzz builds) cannot capture one in a lambda.
    const std::size_t piece = found.first;
    const std::string& difference = found.second;
    bool reported = std::any_of(result.changes.begin(), result.changes.end(), [&](const patch::Change& c) {
      if (c.op == "test" || c.piece != piece) return false;
      std::string_view inner = c.pointer;  // "/objects/<key>/..." without "/objects/<key>"
      std::size_t at = inner.find('/', std::string_view("/objects/").size());
      inner = at == std::string_view::npos ? std::string_view() : inner.substr(at);
      return under(difference, inner) || under(inner, difference);
    });
    if (!reported)
      return where(game_) + "the field /objects/" + object_key(level_.pieces[piece], game_) + difference +
             " changed, but no operation reported changing it";
  }
  return "";
}

std::string PatchCheck::check(std::span<const u8> text) const {
  if (!base_error_.empty()) return base_error_;
  std::string_view patch_text(reinterpret_cast<const char*>(text.data()), text.size());
  patch::PatchOutcome outcome = patch::apply_patch_text(level_, patch_text, {.record_changes = true});
  if (base_ != pristine_) return where(game_) + "the patch engine modified the base file";
  if (outcome.error) {
    const patch::PatchError& e = *outcome.error;
    if (e.exit_code != patch::kTestFailed && e.exit_code != patch::kBadPatch)
      return where(game_) + absl::StrCat("a refusal with exit code ", e.exit_code);
    if (e.reason.empty() || e.message().empty()) return where(game_) + "a refusal without a reason";
    return "";
  }
  const patch::PatchResult& result = outcome.result;
  // Objects change size only inside a data file (FORGE.md 5): there the data file is re-laid.
  const bool resized = patch::resizes(level_, result);
  if (resized && !data_file_) return where(game_) + "an object of a level file changed size";
  std::vector<u8> bytes;
  if (std::string failure = patched_output(result, resized, bytes); !failure.empty()) return failure;
  if (!resized && bytes.size() != base_.size())
    return where(game_) + absl::StrCat("the patched file has ", bytes.size(), " bytes, not ", base_.size());
  if (result.edited.size() != result.edited_objects.size())
    return where(game_) + "edited and edited_objects differ in size";

  std::vector<std::pair<std::size_t, std::string>> differences;  // (piece, pointer inside the object)
  if (std::string failure = compare_pieces(result, resized, bytes, differences); !failure.empty()) return failure;
  if (!resized) {
    if (std::string failure = check_streamed(result, bytes); !failure.empty()) return failure;
  }
  return check_reported(result, differences);
}

std::string check_patch(std::span<const u8> text, std::span<const u8> base, Game game) {
  return PatchCheck(base, game).check(text);
}

std::string check_patch_on_corpus(std::span<const u8> text, const std::string& corpus_dir) {
  static std::map<std::pair<std::string, bool>, std::unique_ptr<PatchCheck>> checks;
  for (const PatchBase& base : kPatchBases) {
    std::string path = corpus_dir + "/" + base.file;
    auto& check = checks[{path, base.data_file}];
    if (!check) {
      std::vector<u8> bytes = read_bytes(path);
      if (bytes.empty()) return "cannot read " + path;
      check = std::make_unique<PatchCheck>(bytes, base.game, base.data_file);
    }
    if (auto v = check->check(text); !v.empty()) return v;
  }
  return "";
}

std::string check_carve(std::span<const u8> bytes) {
  std::array<Carved, 2> carves = {carve(bytes, Game::ac2), carve(bytes, Game::sws)};
  for (Game game : {Game::ac2, Game::sws})
    if (auto v = check_carved(bytes, game, carves[game == Game::sws]); !v.empty()) return v;
  // `auto` is one of the two dialects just checked: only its choice remains to be checked.
  Game more = carves[1].carved > carves[0].carved ? Game::sws : Game::ac2;
  if (Game detected = detect_game(bytes); detected != more)
    return absl::StrCat("auto: picked ", name(detected), ", which carves ", carves[detected == Game::sws].carved,
                        " bytes, not ", name(more), " (", carves[more == Game::sws].carved, ")");
  return "";
}

std::string check_split_carve(std::span<const u8> bytes) {
  for (Game game : {Game::ac2, Game::sws})
    if (auto v = check_split(bytes, game); !v.empty()) return v;
  return "";
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

  // The document path (build_from_dump_document: the number check, one parse, then the document) on
  // the one parse this check makes. build_from_dump took the one-pass path unless the document path
  // built it: so if the document path refuses, the one-pass path accepted what it refuses.
  if (auto at = misread_json_number(json))
    return absl::StrCat("build_in_order accepted a dump the document path refuses: a misread number at ", *at);
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json.data(), json.size());
  if (doc.HasParseError()) return "build accepted text that does not parse";
  auto whole = build_from_dump(doc);
  if (!whole.ok())
    return "build_in_order accepted a dump the document path refuses: " + std::string(whole.status().message());
  if (*whole != bytes) return "build_in_order and the document path build different bytes";

  // The model the document describes: its objects, read from their fields, at their span offsets.
  std::optional<Game> game = parse_game(text_of(doc["game"]));
  if (!game) return "build accepted an unknown game";
  struct Expected {
    std::size_t offset, length;
    Object object;
  };
  std::vector<Expected> expected;
  const rapidjson::Value& spans = doc["spans"];
  for (rapidjson::SizeType i = 0; i < spans.Size(); ++i) {
    auto key = spans[i].FindMember("object");
    if (key == spans[i].MemberEnd()) continue;
    const rapidjson::Value& value = doc["objects"][key->value];
    Expected e{static_cast<std::size_t>(spans[i]["offset"].GetUint64()),
               static_cast<std::size_t>(value["length"].GetUint64()),
               {}};
    if (auto failure = read_object_json(value, *game, "/objects", e.object))
      return "build accepted an object whose fields do not read: " + failure->message();
    expected.push_back(std::move(e));
  }

  // The model the bytes re-read into (read_back): the document's objects at their span offsets, the
  // opaque bytes between them, each object parsing to the fields it was read from.
  std::vector<Piece> pieces;
  std::vector<ExpectedObject> changed;
  std::size_t end = 0;
  for (const Expected& e : expected) {
    if (e.offset > end) pieces.push_back({end, e.offset - end});
    changed.push_back({pieces.size(), &e.object});
    pieces.push_back({e.offset, e.length, static_cast<int>(e.object.index())});
    end = e.offset + e.length;
  }
  if (end < bytes.size()) pieces.push_back({end, bytes.size() - end});
  ExpectedLevel want;
  want.game = *game;
  want.bytes = bytes;
  want.pieces = pieces;
  want.changed = changed;
  if (auto failure = read_back(bytes, want))
    return "the built bytes do not read back as the document: " + failure->message();
  Carved c = carve(bytes, *game);
  if (auto diff = describe_difference(bytes, write_level(c.level, c.objects)); !diff.empty())
    return "the built bytes do not write back: " + diff;
  // Their objects through JSON and back (the whole file's dump and build is the dump harness's job).
  VerifyReport report = verify_bytes(bytes, *game, true);
  if (!report.identical()) return "the built bytes: verify_bytes with JSON: " + report.difference;
  return "";
}

}  // namespace anvil::fuzz
