#include "patch/diff.hpp"

#include <absl/strings/str_format.h>

#include <cstring>
#include <optional>
#include <span>

#include "patch/json_util.hpp"
#include "patch/object_keys.hpp"
#include "reader/forge/data_files.hpp"
#include "writer/encode.hpp"

namespace anvil::patch {
namespace {

using rapidjson::Value;

struct Leaf {
  std::string path;
  const Value* a;  // nullptr: an element B adds
  const Value* b;  // nullptr: an element A loses
};

// Collects the scalar leaves that differ; false when the two values differ in shape (member names,
// array sizes, null against a value, a number against an object...). With `resizable`, arrays of
// another length are not a change of shape: the elements both hold are compared, then B's further
// elements are added or A's further elements removed (the last first), in that order.
bool diff_value(const Value& a, const Value& b, std::string& path, std::vector<Leaf>& out, bool resizable) {
  if (a.IsObject() && b.IsObject()) {
    if (a.MemberCount() != b.MemberCount()) return false;
    auto ib = b.MemberBegin();
    for (auto ia = a.MemberBegin(); ia != a.MemberEnd(); ++ia, ++ib) {
      if (!exact_equal(ia->name, ib->name)) return false;
      std::size_t size = path.size();
      path += '/';
      path += escape_segment({ia->name.GetString(), ia->name.GetStringLength()});
      if (!diff_value(ia->value, ib->value, path, out, resizable)) return false;
      path.resize(size);
    }
    return true;
  }
  if (a.IsArray() && b.IsArray()) {
    if (a.Size() != b.Size() && !resizable) return false;
    const rapidjson::SizeType common = std::min(a.Size(), b.Size());
    for (rapidjson::SizeType i = 0; i < common; ++i) {
      std::size_t size = path.size();
      path += '/';
      path += std::to_string(i);
      if (!diff_value(a[i], b[i], path, out, resizable)) return false;
      path.resize(size);
    }
    for (rapidjson::SizeType i = common; i < b.Size(); ++i)
      out.push_back({path + "/" + std::to_string(i), nullptr, &b[i]});
    for (rapidjson::SizeType i = a.Size(); i > common; --i)
      out.push_back({path + "/" + std::to_string(i - 1), &a[i - 1], nullptr});
    return true;
  }
  auto scalar = [](const Value& v) { return v.IsNumber() || v.IsString() || v.IsBool(); };
  if (!scalar(a) || !scalar(b)) return exact_equal(a, b);
  if (!exact_equal(a, b)) out.push_back({path, &a, &b});
  return true;
}

// The size fields of a decompressed data file's entries (FORGE.md 3), which a resize changes (FORGE.md 5).
class DataFileSizes {
 public:
  explicit DataFileSizes(std::vector<forge::SizeFieldsAt> fields) : fields_(std::move(fields)) {}
  std::size_t size() const { return fields_.size(); }
  // The entry whose body holds `offset`, or size().
  std::size_t entry_at(std::size_t offset) const {
    for (std::size_t e = 0; e < fields_.size(); ++e)
      if (offset >= fields_[e].body.offset && offset < fields_[e].body.offset + fields_[e].body.size) return e;
    return fields_.size();
  }
  bool is_size_field(std::size_t offset) const {
    for (const forge::SizeFieldsAt& f : fields_)
      if ((offset >= f.data_size_at && offset < f.data_size_at + 4) ||
          (offset >= f.file_size_at && offset < f.file_size_at + 4))
        return true;
    return false;
  }
  // Why entry `e` of `after` is not this one's with both size fields changed by `growth`, if it is not.
  std::optional<std::string> follows(const DataFileSizes& after, std::span<const u8> a, std::span<const u8> b,
                                     std::size_t e, std::int64_t growth) const {
    auto field = [](std::span<const u8> bytes, u64 at) {
      u32 v = 0;
      std::memcpy(&v, bytes.data() + at, 4);
      return static_cast<std::int64_t>(v);
    };
    const forge::SizeFieldsAt &x = fields_[e], &y = after.fields_[e];
    if (field(b, y.data_size_at) - field(a, x.data_size_at) != growth ||
        field(b, y.file_size_at) - field(a, x.file_size_at) != growth)
      return absl::StrFormat("entry %d's sizes do not change by the %d bytes its objects grew", e, growth);
    return std::nullopt;
  }

 private:
  std::vector<forge::SizeFieldsAt> fields_;
};

std::optional<DataFileSizes> data_file_sizes(const Level& level) {
  auto view = forge::view_data_file(level.bytes, level.variant);
  if (!view.ok()) return std::nullopt;
  return DataFileSizes(forge::size_fields(*view));
}

// A change of an object's id, made last (diff_levels()).
struct IdChange {
  std::size_t piece;
  std::string suffix;  // "/id", or "" for the whole object
  std::string old_value, new_value;
  u64 new_id;
};

// The changes of object `i`, which differs between `a` and `b`: one op per changed leaf, or the whole object
// when it differs in shape; a change of its id goes to `id_changes`.
void diff_object(const Level& a, const Level& b, std::size_t i, bool resizable, std::vector<DiffOp>& ops,
                 std::vector<IdChange>& id_changes) {
  const Piece& pa = a.pieces[i];
  const Piece& pb = b.pieces[i];
  rapidjson::Document da, db;
  object_dom(parse_piece(a, pa), pa, da);
  object_dom(parse_piece(b, pb), pb, db);
  if (resizable) {
    // Where an object lies follows from the edits: never an edit itself.
    db["offset"].SetUint64(pa.offset);
    da["length"].SetUint64(pb.length);
  }
  std::string base = "/objects/" + escape_segment(object_key(pa, a.game));
  std::vector<Leaf> leaves;
  std::string path;
  if (diff_value(da, db, path, leaves, resizable)) {
    for (const Leaf& leaf : leaves) {
      if (leaf.path == "/id")
        id_changes.push_back({i, "/id", to_text(*leaf.a), to_text(*leaf.b), pb.id});
      else if (leaf.a == nullptr)
        ops.push_back({base + leaf.path, "", to_text(*leaf.b), DiffOp::kAdd});
      else if (leaf.b == nullptr)
        ops.push_back({base + leaf.path, to_text(*leaf.a), "", DiffOp::kRemove});
      else
        ops.push_back({base + leaf.path, to_text(*leaf.a), to_text(*leaf.b)});
    }
  } else {
    if (resizable) da["length"].SetUint64(pa.length);  // as the patch's `test` reads it
    if (pa.id != pb.id)
      id_changes.push_back({i, "", to_text(da), to_text(db), pb.id});
    else
      ops.push_back({base, to_text(da), to_text(db)});
  }
}

}  // namespace

DiffOutcome diff_levels(const Level& a, const Level& b) {
  DiffOutcome outcome;
  auto differ = [&](std::string reason) {
    outcome.error = std::move(reason);
    outcome.ops.clear();
    return outcome;
  };
  std::vector<IdChange> id_changes;
  if (a.game != b.game) return differ("the files are read in different dialects");
  // Decompressed data files, carved in their bodies: objects may have changed size (FORGE.md 5).
  const bool resizable = !a.regions.empty() && !b.regions.empty();
  std::optional<DataFileSizes> sizes_a, sizes_b;
  if (resizable) {
    sizes_a = data_file_sizes(a);
    sizes_b = data_file_sizes(b);
    if (!sizes_a || !sizes_b) return differ("the files do not both read as data files");
    if (sizes_a->size() != sizes_b->size())
      return differ(absl::StrFormat("the data files have %d and %d entries", sizes_a->size(), sizes_b->size()));
  } else if (a.bytes.size() != b.bytes.size()) {
    return differ(absl::StrFormat("the files have different sizes (%d and %d bytes)", a.bytes.size(), b.bytes.size()));
  }
  if (a.pieces.size() != b.pieces.size())
    return differ(absl::StrFormat("the files carve into %d and %d pieces", a.pieces.size(), b.pieces.size()));
  // Per entry of a data file: how much its objects grew.
  std::vector<std::int64_t> growth(sizes_a ? sizes_a->size() : 0);
  for (std::size_t i = 0; i < a.pieces.size(); ++i) {
    const Piece& pa = a.pieces[i];
    const Piece& pb = b.pieces[i];
    const bool moved = resizable ? pa.kind != pb.kind || (!pa.is_object() && pa.length != pb.length)
                                 : pa.offset != pb.offset || pa.length != pb.length || pa.kind != pb.kind;
    if (moved)
      return differ(absl::StrFormat("the files carve differently at offset 0x%x", std::min(pa.offset, pb.offset)));
    if (resizable && pa.is_object() && pa.length != pb.length) {
      std::size_t entry = sizes_a->entry_at(pa.offset);
      if (entry < growth.size())
        growth[entry] += static_cast<std::int64_t>(pb.length) - static_cast<std::int64_t>(pa.length);
    }
    if (pa.length == pb.length && std::memcmp(a.bytes.data() + pa.offset, b.bytes.data() + pb.offset, pa.length) == 0)
      continue;
    if (!pa.is_object()) {
      // Inside a data file, only the entries' size fields may differ (checked against the growth below).
      for (std::size_t j = 0; j < pa.length; ++j)
        if (a.bytes[pa.offset + j] != b.bytes[pb.offset + j] &&
            !(resizable && sizes_a->is_size_field(pa.offset + j) && sizes_b->is_size_field(pb.offset + j)))
          return differ(absl::StrFormat("opaque bytes differ at offset 0x%x", pa.offset + j));
      continue;
    }
    diff_object(a, b, i, resizable, outcome.ops, id_changes);
  }
  if (resizable)
    for (std::size_t e = 0; e < growth.size(); ++e)
      if (auto why = sizes_a->follows(*sizes_b, a.bytes, b.bytes, e, growth[e])) return differ(*why);
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
    const char* comma = i + 1 < ops.size() ? "," : "";
    if (ops[i].kind != DiffOp::kAdd)
      absl::StrAppendFormat(&out, "  {\"op\": \"test\", \"path\": %s, \"value\": %s},\n", path, ops[i].old_value);
    switch (ops[i].kind) {
      case DiffOp::kReplace:
        absl::StrAppendFormat(&out, "  {\"op\": \"replace\", \"path\": %s, \"value\": %s}%s\n", path, ops[i].new_value,
                              comma);
        break;
      case DiffOp::kAdd:
        absl::StrAppendFormat(&out, "  {\"op\": \"add\", \"path\": %s, \"value\": %s}%s\n", path, ops[i].new_value,
                              comma);
        break;
      case DiffOp::kRemove:
        absl::StrAppendFormat(&out, "  {\"op\": \"remove\", \"path\": %s}%s\n", path, comma);
        break;
    }
  }
  return out + "]\n";
}

}  // namespace anvil::patch
