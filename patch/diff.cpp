#include "patch/diff.hpp"

#include <absl/strings/str_format.h>

#include <cstring>

#include "patch/json_util.hpp"
#include "patch/object_keys.hpp"
#include "writer/encode.hpp"

namespace anvil::patch {
namespace {

using rapidjson::Value;

struct Leaf {
  std::string path;
  const Value* a;
  const Value* b;
};

// Collects the scalar leaves that differ; false when the two values differ in shape (member names,
// array sizes, null against a value, a number against an object...).
bool diff_value(const Value& a, const Value& b, std::string& path, std::vector<Leaf>& out) {
  if (a.IsObject() && b.IsObject()) {
    if (a.MemberCount() != b.MemberCount()) return false;
    auto ib = b.MemberBegin();
    for (auto ia = a.MemberBegin(); ia != a.MemberEnd(); ++ia, ++ib) {
      if (!exact_equal(ia->name, ib->name)) return false;
      std::size_t size = path.size();
      path += '/';
      path += escape_segment({ia->name.GetString(), ia->name.GetStringLength()});
      if (!diff_value(ia->value, ib->value, path, out)) return false;
      path.resize(size);
    }
    return true;
  }
  if (a.IsArray() && b.IsArray()) {
    if (a.Size() != b.Size()) return false;
    for (rapidjson::SizeType i = 0; i < a.Size(); ++i) {
      std::size_t size = path.size();
      path += '/';
      path += std::to_string(i);
      if (!diff_value(a[i], b[i], path, out)) return false;
      path.resize(size);
    }
    return true;
  }
  auto scalar = [](const Value& v) { return v.IsNumber() || v.IsString() || v.IsBool(); };
  if (!scalar(a) || !scalar(b)) return exact_equal(a, b);
  if (!exact_equal(a, b)) out.push_back({path, &a, &b});
  return true;
}

}  // namespace

DiffOutcome diff_levels(const Level& a, const Level& b) {
  DiffOutcome outcome;
  auto differ = [&](std::string reason) {
    outcome.error = std::move(reason);
    outcome.ops.clear();
    return outcome;
  };
  struct IdChange {
    std::size_t piece;
    std::string suffix;  // "/id", or "" for the whole object
    std::string old_value, new_value;
    u64 new_id;
  };
  std::vector<IdChange> id_changes;
  if (a.game != b.game) return differ("the files are read in different dialects");
  if (a.bytes.size() != b.bytes.size())
    return differ(absl::StrFormat("the files have different sizes (%d and %d bytes)", a.bytes.size(), b.bytes.size()));
  if (a.pieces.size() != b.pieces.size())
    return differ(absl::StrFormat("the files carve into %d and %d pieces", a.pieces.size(), b.pieces.size()));
  for (std::size_t i = 0; i < a.pieces.size(); ++i) {
    const Piece& pa = a.pieces[i];
    const Piece& pb = b.pieces[i];
    if (pa.offset != pb.offset || pa.length != pb.length || pa.kind != pb.kind)
      return differ(absl::StrFormat("the files carve differently at offset 0x%x", std::min(pa.offset, pb.offset)));
    if (std::memcmp(a.bytes.data() + pa.offset, b.bytes.data() + pb.offset, pa.length) == 0) continue;
    if (!pa.is_object()) {
      std::size_t at = pa.offset;
      while (a.bytes[at] == b.bytes[at]) ++at;
      return differ(absl::StrFormat("opaque bytes differ at offset 0x%x", at));
    }
    rapidjson::Document da, db;
    object_dom(parse_piece(a, pa), pa, da);
    object_dom(parse_piece(b, pb), pb, db);
    std::string base = "/objects/" + escape_segment(object_key(pa, a.game));
    std::vector<Leaf> leaves;
    std::string path;
    if (diff_value(da, db, path, leaves)) {
      for (const Leaf& leaf : leaves) {
        if (leaf.path == "/id")
          id_changes.push_back({i, "/id", to_text(*leaf.a), to_text(*leaf.b), pb.id});
        else
          outcome.ops.push_back({base + leaf.path, to_text(*leaf.a), to_text(*leaf.b)});
      }
    } else if (pa.id != pb.id) {
      id_changes.push_back({i, "", to_text(da), to_text(db), pb.id});
    } else {
      outcome.ops.push_back({base, to_text(da), to_text(db)});
    }
  }
  // An object's key follows its id as soon as a patch changes it (patch/object_keys.hpp): the id changes
  // come last, in file order, each addressed by the key its object has by then.
  ObjectKeys keys(a);
  for (const IdChange& change : id_changes) {
    outcome.ops.push_back(
        {"/objects/" + escape_segment(keys.key(change.piece)) + change.suffix, change.old_value, change.new_value});
    keys.set_id(change.piece, change.new_id);
  }
  return outcome;
}

std::string diff_to_patch_json(const std::vector<DiffOp>& ops) {
  if (ops.empty()) return "[]\n";
  std::string out = "[\n";
  auto quoted = [](const std::string& pointer) {
    rapidjson::Value v(rapidjson::StringRef(pointer.data(), pointer.size()));
    return to_text(v);
  };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    std::string path = quoted(ops[i].path);
    absl::StrAppendFormat(&out, "  {\"op\": \"test\", \"path\": %s, \"value\": %s},\n", path, ops[i].old_value);
    absl::StrAppendFormat(&out, "  {\"op\": \"replace\", \"path\": %s, \"value\": %s}%s\n", path, ops[i].new_value,
                          i + 1 < ops.size() ? "," : "");
  }
  return out + "]\n";
}

}  // namespace anvil::patch
