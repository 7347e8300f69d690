#include "pipeline/build.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/strings/escaping.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include "patch/dump_object.hpp"
#include "pipeline/read_back.hpp"
#include "reader/carver.hpp"
#include "reader/document_head.hpp"
#include "reader/file_tails.hpp"
#include "reader/json_messages.hpp"
#include "reader/json_numbers.hpp"
#include "reader/json_text_reader.hpp"
#include "reader/level.hpp"
#include "reader/object_json.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

using rapidjson::Value;

absl::Status error(std::string_view pointer, std::string_view what) {
  return absl::InvalidArgumentError(std::string(pointer) + ": " + std::string(what));
}

const Value* member(const Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::string_view text(const Value& v) { return {v.GetString(), v.GetStringLength()}; }

// "what (found X)": X the value as written, or "missing" when there is none.
std::string found(std::string_view what, const Value* v) {
  return absl::StrCat(std::string(what), " (found ", v == nullptr ? std::string("nothing") : json_as_written(*v), ")");
}
// "what (found a number)": the type of a value that has the wrong one.
std::string found_kind(std::string_view what, const Value& v) {
  return absl::StrCat(std::string(what), " (found ", json_kind(v), ")");
}

// The built bytes must carve into exactly the objects they were built from, at the same offsets: each
// carved object parses to the fields it was encoded from, which is to say it re-encodes to its bytes
// (read_back: the placed objects and the opaque bytes between them, every object re-read).
absl::Status check_reread(std::span<const u8> bytes, Game game, const std::vector<Placed>& placed) {
  std::vector<Piece> pieces;
  std::size_t end = 0;
  for (const Placed& p : placed) {
    if (p.offset > end) pieces.push_back({end, p.offset - end});
    pieces.push_back({p.offset, p.length, static_cast<int>(p.kind)});
    end = p.offset + p.length;
  }
  if (end < bytes.size()) pieces.push_back({end, bytes.size() - end});
  ExpectedLevel expected;
  expected.game = game;
  expected.bytes = bytes;
  expected.pieces = pieces;
  expected.reread_all = true;
  auto failure = read_back(bytes, expected);
  if (!failure) return absl::OkStatus();
  const std::string at = absl::StrFormat("offset 0x%x", failure->offset);
  switch (failure->what) {
    case ReadBackFailure::What::kCarve:
      if (failure->expected_kind == Piece::kOpaque)
        return error(at, "the built bytes hold an object that the dump has as opaque bytes");
      if (failure->found_kind != Piece::kOpaque) return error(at, "the built object re-reads with other fields");
      {
        Object object;
        Extent extent;
        FileTails tails(bytes);
        auto why = parse_object_at(bytes, failure->offset, static_cast<std::size_t>(failure->expected_kind), object,
                                   extent, &tails);
        return error(at, absl::StrCat("the built object does not re-read as an object",
                                      why ? ": " + why->message() : std::string(": another object overlaps it")));
      }
    case ReadBackFailure::What::kObject:
      return error(at, "the built object re-reads with other fields");
    default:
      return absl::InternalError(absl::StrCat("the built bytes do not read back: ", failure->message()));
  }
}

}  // namespace

std::optional<Built> build_in_order(std::string_view text, const TextPassed& passed) {
  constexpr std::string_view kOpaqueSpan = document::text(document::kOpaque);
  constexpr std::string_view kObjectSpan = document::text(document::kObject);
  constexpr std::size_t kPassedStep = std::size_t{64} << 20;
  std::size_t reported = 0;
  struct Entry {
    std::size_t offset, length, kind;
    bool placed = false;
  };
  JsonTextReader r(text);
  Built built;
  // Keys copied (short: no allocation), not viewed: looking one up must not touch the text behind.
  absl::flat_hash_map<std::string, Entry> objects;
  std::size_t placed = 0;
  // Every way out before the end is r.stop(): a document this path does not take whole goes to the
  // document path, which names what is wrong (a plain `return` would accept what was read so far).
  r.object([&] {
    DocumentHead head;
    // A size that the text could not describe is left to the general path (before any allocation).
    if (!read_document_head(r, head) || head.size / 4 > text.size()) return r.stop();
    const u64 size = head.size;
    const Game game = head.game;
    built.game = game;
    built.bytes.resize(size);
    if (!r.member(document::kObjects)) return r.stop();
    std::vector<u8> scratch;
    Object object;
    r.object([&] {
      std::string_view key;
      while (r.next_member(key)) {
        u64 offset = 0, length = 0;
        if (!read_object_json(r, game, object, offset, length)) return r.stop();
        auto encoded = encode_object_over(object, scratch);
        if (encoded.size() != length || offset > size || length > size - offset ||
            !objects.emplace(std::string(key), Entry{offset, length, object.index()}).second)
          return r.stop();
        std::copy(encoded.begin(), encoded.end(), built.bytes.begin() + static_cast<std::ptrdiff_t>(offset));
        if (passed && r.pos() - reported >= kPassedStep) passed(reported = r.pos());
      }
    });
    if (!r.member(document::kSpans)) return r.stop();
    std::size_t end = 0;  // where the spans so far end
    std::string decoded;
    r.array([&] {
      r.object([&] {
        u64 offset = 0;
        std::string_view kind, value;
        if (!r.member(document::kOffset) || !r.number(offset) || offset != end || !r.next_member(kind) ||
            !r.string(value))
          return r.stop();
        if (kind == kOpaqueSpan) {
          if (!absl::Base64Unescape(absl::string_view(value.data(), value.size()), &decoded) ||
              decoded.size() > size - end)
            return r.stop();
          std::copy(decoded.begin(), decoded.end(), built.bytes.begin() + static_cast<std::ptrdiff_t>(end));
          end += decoded.size();
        } else if (auto it = objects.find(std::string(value));
                   kind == kObjectSpan && it != objects.end() && !it->second.placed && it->second.offset == end) {
          it->second.placed = true;
          ++placed;
          built.placed.push_back({end, it->second.length, it->second.kind});
          end += it->second.length;
        } else {
          r.stop();
        }
      });
    });
    if (end != size || placed != objects.size()) r.stop();
  });
  if (!r.ok() || r.peek() != '\0') return std::nullopt;
  return built;
}

absl::StatusOr<std::vector<u8>> build_from_dump(const Value& doc) {
  if (!doc.IsObject()) return error("/", found_kind("the dump must be a JSON object", doc));
  auto head = read_document_head(doc);
  if (!head.ok()) return head.status();
  const Game game = head->game;
  const Value* objects = member(doc, document::kObjects.text);
  if (objects == nullptr) return error("/objects", "missing field");
  if (!objects->IsObject()) return error("/objects", found_kind("must be an object", *objects));
  const Value* spans = member(doc, document::kSpans.text);
  if (spans == nullptr) return error("/spans", "missing: build needs a dump made with --full");
  if (!spans->IsArray()) return error("/spans", found_kind("must be an array", *spans));
  for (auto& m : doc.GetObject()) {
    std::string_view key = text(m.name);
    if (!document::is_member(key, document::kLevelMembers)) return error("/" + std::string(key), "unknown field");
  }

  // Objects by key, looked up once per span (RapidJSON's FindMember is a linear scan).
  absl::flat_hash_map<std::string_view, const Value*> by_key;
  by_key.reserve(objects->MemberCount());
  for (auto& m : objects->GetObject())
    if (!by_key.emplace(text(m.name), &m.value).second)
      return error("/objects/" + std::string(text(m.name)), "a key appears twice");
  std::vector<u8> out;
  std::vector<Placed> placed;
  std::vector<u8> encoded;
  absl::flat_hash_set<std::string_view> used;
  for (rapidjson::SizeType i = 0; i < spans->Size(); ++i) {
    const Value& span = (*spans)[i];
    std::string at = absl::StrCat("/spans/", i);
    if (!span.IsObject()) return error(at, found_kind("must be an object", span));
    const Value* offset = member(span, document::kOffset.text);
    if (offset == nullptr || !offset->IsUint64() || offset->GetUint64() != out.size())
      return error(at + "/offset",
                   found(absl::StrCat("must be ", out.size(), ", where the span before it ends"), offset));
    const Value* opaque = member(span, document::kOpaque.text);
    const Value* key = member(span, document::kObject.text);
    if (span.MemberCount() != 2 || (opaque == nullptr) == (key == nullptr))
      return error(at, "must be {\"offset\", \"opaque\"} or {\"offset\", \"object\"}");
    if (opaque != nullptr) {
      std::string bytes;
      if (!opaque->IsString()) return error(at + "/opaque", found_kind("must be base64", *opaque));
      if (!absl::Base64Unescape(absl::string_view(opaque->GetString(), opaque->GetStringLength()), &bytes))
        return error(at + "/opaque", "must be base64");
      out.insert(out.end(), bytes.begin(), bytes.end());
      continue;
    }
    if (!key->IsString()) return error(at + "/object", found_kind("must be an object key", *key));
    std::string_view name = text(*key);
    auto found = by_key.find(name);
    const Value* object_json = found == by_key.end() ? nullptr : found->second;
    std::string pointer = "/objects/" + std::string(name);
    if (object_json == nullptr) return error(at + "/object", "no object " + std::string(name) + " in /objects");
    if (!used.insert(name).second) return error(at + "/object", "object " + std::string(name) + " placed twice");
    Object object;
    if (auto failure = read_dump_object(*object_json, game, pointer, out.size(), object, encoded))
      return absl::InvalidArgumentError(*failure);
    std::size_t start = out.size();
    out.insert(out.end(), encoded.begin(), encoded.end());
    placed.push_back({start, out.size() - start, object.index()});
  }
  if (used.size() != objects->MemberCount()) {
    for (auto& m : objects->GetObject())
      if (!used.contains(text(m.name))) return error("/objects/" + std::string(text(m.name)), "not placed by any span");
    return error("/objects", "a key appears twice");
  }
  if (out.size() != head->size) return error("/size", absl::StrCat("the spans add up to ", out.size(), " bytes"));
  if (auto status = check_reread(out, game, placed); !status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<u8>> build_from_dump_document(std::string_view json_text) {
  if (auto at = misread_json_number(json_text))
    return absl::InvalidArgumentError(
        at_text_position(json_text, *at, "a number that the JSON parser would misread (see reader/json_numbers.hpp)"));
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json_text.data(), json_text.size());
  if (doc.HasParseError())
    return absl::InvalidArgumentError(json_syntax_error(json_text, doc.GetParseError(), doc.GetErrorOffset()));
  return build_from_dump(doc);
}

absl::StatusOr<std::vector<u8>> build_from_dump(std::string_view json_text, const TextPassed& passed) {
  auto built = build_in_order(json_text, passed);
  if (!built) return build_from_dump_document(json_text);
  if (auto status = check_reread(built->bytes, built->game, built->placed); !status.ok()) return status;
  return std::move(built->bytes);
}

}  // namespace anvil
