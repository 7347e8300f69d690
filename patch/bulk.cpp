// The bulk operations (FORMAT.md section 5), which name the objects they touch by value: each edits the
// typed model of every object it matches, with the arithmetic the contract fixes, and refuses a result
// that is not a finite number.
#include <absl/container/flat_hash_set.h>
#include <absl/strings/escaping.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cmath>

#include "model/dialect.hpp"
#include "model/field_key.hpp"
#include "model/json_text.hpp"
#include "patch/engine.hpp"
#include "patch/json_util.hpp"
#include "reader/json_messages.hpp"
#include "writer/encode.hpp"

namespace anvil::patch {
namespace {

// The Object alternative of an `sws` LODSelector.
constexpr int kLODSelectorKind = static_cast<int>(dialect::alternative<sws::LODSelector>());

// The JSON keys of the fields the bulk operations edit and name in their changes and errors, taken from
// the layout declarations (model/field_key.hpp).
struct BulkFields {
  static std::string key(std::string_view k) { return std::string(k); }
  std::string instance = key(field_key(&ac2::Visual::instance));
  std::string materials = key(field_key(&ac2::MeshInstanceData::materials));
  std::string replacement = key(field_key(&ac2::MaterialInfo::replacement));
  std::string mode = key(field_key(&ac2::MaterialInfo::mode));
  std::string ac2_slots = key(field_key(&ac2::LODSelectorInstance::slots));
  std::string lod_instances = key(field_key(&ac2::LODSelectorInstance::instances));
  std::string mesh_instances = key(field_key(&ac2::MeshInstanceData::instances));
  std::string impostor_instances = key(field_key(&ac2::ImpostorInstanceData::instances));
  std::string instance_bounds = key(field_key(&ac2::MeshInstanceData::instance_bounds));
  std::string sws_instance = key(field_key(&sws::Visual::instance));
  std::string sws_slots = key(field_key(&sws::LODSelector::slots));
  std::string switch_distance = key(field_key(&sws::LODDescriptor::switch_distance));

  const std::string& instances(const ac2::MeshInstanceData&) const { return mesh_instances; }
  const std::string& instances(const ac2::ImpostorInstanceData&) const { return impostor_instances; }
};
const BulkFields& fields() {
  static const BulkFields f;
  return f;
}

void check_members(const Value& op, std::initializer_list<const char*> allowed) {
  for (auto& m : op.GetObject()) {
    std::string_view name(m.name.GetString(), m.name.GetStringLength());
    bool ok = false;
    for (const char* a : allowed) ok = ok || name == a;
    if (!ok) fail(absl::StrFormat("unknown member \"%s\" for this operation", name));
  }
}

const Value& required_member(const Value& op, const char* name) {
  const Value* v = optional_member(op, name);
  if (v == nullptr) fail(absl::StrFormat("missing member \"%s\"", name));
  return *v;
}

// "(found a number)" for a value of the wrong type, "(found \"0x12\")" for one of the right type.
std::string found(const Value& v, bool right_type) { return right_type ? json_as_written(v) : json_kind(v); }

u64 id_member(const Value& v, const char* name, std::size_t width) {
  std::optional<u64> id;
  if (v.IsString()) id = json_text::parse_id({v.GetString(), v.GetStringLength()}, width);
  if (!id)
    fail(absl::StrFormat("\"%s\" must be an id \"0x\" + %d hex digits (found %s)", name, 2 * width,
                         found(v, v.IsString())));
  return *id;
}

// A finite number rounded to the nearest f32, or "f32:0x…" bits of a finite f32, as the JSON reader takes
// an f32 field: a bulk operation never writes a NaN or an infinity.
f32 f32_member(const Value& v, const std::string& name) {
  std::optional<f32> value;
  if (v.IsString()) {
    value = json_text::parse_f32_bits({v.GetString(), v.GetStringLength()});
    if (!value)
      fail(absl::StrFormat("\"%s\" must be a number or \"f32:0x\" + 8 hex digits (found %s)", name, found(v, true)));
  } else if (v.IsNumber()) {
    double d = v.GetDouble();
    if (!(std::fabs(d) < 0x1.ffffffp127))
      fail(absl::StrFormat("\"%s\" must be within the f32 range (found %s)", name, found(v, true)));
    value = static_cast<f32>(d);
  } else {
    fail(absl::StrFormat("\"%s\" must be a number or \"f32:0x\" + 8 hex digits (found %s)", name, found(v, false)));
  }
  if (!std::isfinite(*value)) fail(absl::StrFormat("\"%s\" must be finite (found %s)", name, found(v, true)));
  return *value;
}

// An array of exactly `n` f32 operands.
template <std::size_t N>
std::array<f32, N> f32_array_member(const Value& v, const char* name, const char* what) {
  if (!v.IsArray()) fail(absl::StrFormat("\"%s\" must be an array of %d %s (found %s)", name, N, what, json_kind(v)));
  if (v.Size() != N) fail(absl::StrFormat("\"%s\" must have %d elements (found %d)", name, N, v.Size()));
  std::array<f32, N> out{};
  for (rapidjson::SizeType i = 0; i < N; ++i) out[i] = f32_member(v[i], absl::StrFormat("%s/%d", name, i));
  return out;
}

u64 uint_member(const Value& v, const char* name, u64 max) {
  if (!v.IsUint64() || v.GetUint64() > max)
    fail(absl::StrFormat("\"%s\" must be an integer 0..%d (found %s)", name, max, found(v, v.IsNumber())));
  return v.GetUint64();
}

void require_game(Game actual, Game needed, const char* op) {
  if (actual != needed)
    fail(absl::StrFormat("%s is an %s operation (this file is %s)", op, game_name(needed), game_name(actual)));
}

// One list of instance matrices of a Visual, as `transform` and the instance operations see it.
struct InstanceList {
  std::vector<Matrix>* matrices = nullptr;
  std::string pointer;                        // the array's
  std::vector<Opaque<40>>* bounds = nullptr;  // an ac2 MeshInstanceData's instance_bounds
  std::string bounds_pointer;
};

// Whether the object is a Visual of either dialect.
bool is_visual(const Object& object) {
  return std::holds_alternative<ac2::Visual>(object) || std::holds_alternative<sws::Visual>(object);
}

// The Visual's instance lists: first its own (a LODSelectorInstance's, or a direct ac2 MeshInstanceData's),
// then those of its LOD slots in slot order (`sws` slots hold none). Empty when it has no own list.
// `base`: the pointer of the Visual.
std::vector<InstanceList> instance_lists(Object& object, const std::string& base) {
  const BulkFields& f = fields();
  std::vector<InstanceList> lists;
  if (auto* visual = std::get_if<ac2::Visual>(&object); visual && visual->instance) {
    std::string at = base + "/" + f.instance;
    auto mesh_list = [&](ac2::MeshInstanceData& mesh, const std::string& prefix) {
      lists.push_back(
          {&mesh.instances, prefix + "/" + f.mesh_instances, &mesh.instance_bounds, prefix + "/" + f.instance_bounds});
    };
    if (auto* lod = std::get_if<ac2::LODSelectorInstance>(&visual->instance->body)) {
      lists.push_back({&lod->instances, at + "/" + f.lod_instances, nullptr, {}});
      for (std::size_t i = 0; i < lod->slots.size(); ++i) {
        if (!lod->slots[i]) continue;
        std::string prefix = absl::StrFormat("%s/%s/%d", at, f.ac2_slots, i);
        if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&lod->slots[i]->body))
          mesh_list(*mesh, prefix);
        else if (auto* impostor = std::get_if<ac2::ImpostorInstanceData>(&lod->slots[i]->body))
          lists.push_back({&impostor->instances, prefix + "/" + f.impostor_instances, nullptr, {}});
      }
    } else if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&visual->instance->body)) {
      mesh_list(*mesh, at);
    }
  } else if (auto* sv = std::get_if<sws::Visual>(&object); sv && sv->instance) {
    if (auto* lod = std::get_if<sws::LODSelectorInstance>(&sv->instance->body))
      lists.push_back({&lod->instances, base + "/" + f.sws_instance + "/" + f.lod_instances, nullptr, {}});
  }
  return lists;
}

// "translate" or "matrix" (exactly one) of `transform` and `duplicate_instance`, applied to a matrix as
// FORMAT.md 5 fixes the arithmetic.
class Motion {
 public:
  explicit Motion(const Value& op) {
    const Value* translate = optional_member(op, "translate");
    const Value* matrix = optional_member(op, "matrix");
    if ((translate == nullptr) == (matrix == nullptr)) fail("needs exactly one of \"translate\" and \"matrix\"");
    translate_ = translate != nullptr;
    if (translate_)
      t_ = f32_array_member<3>(*translate, "translate", "numbers");
    else
      a_ = f32_array_member<16>(*matrix, "matrix", "numbers (column-major)");
  }

  // `m` moved; `where` names the matrix in the error of a result that is not finite.
  Matrix apply(const Matrix& before, const std::string& where) const {
    Matrix m = before;
    auto refuse = [&](std::size_t element, const std::string& what) {
      fail(absl::StrFormat("%s/%d: %s is not finite", where, element, what));
    };
    if (translate_) {
      // FORMAT.md 5: the f32 sum x + t, t rounded to f32 first.
      for (std::size_t i = 0; i < 3; ++i) {
        const std::size_t e = kMatrixTranslation + i;
        m[e] = before[e] + t_[i];
        if (!std::isfinite(m[e])) refuse(e, absl::StrFormat("%s + %s", f32_text(before[e]), f32_text(t_[i])));
      }
    } else {
      // matrix x M, column-major: R[r][c] = sum over k = 0..3 of A[r][k] * M[k][c], in double, in order,
      // rounded once.
      for (std::size_t c = 0; c < 4; ++c)
        for (std::size_t r = 0; r < 4; ++r) {
          double sum = static_cast<double>(a_[0 * 4 + r]) * static_cast<double>(before[c * 4 + 0]);
          for (std::size_t k = 1; k < 4; ++k)
            sum += static_cast<double>(a_[k * 4 + r]) * static_cast<double>(before[c * 4 + k]);
          m[c * 4 + r] = static_cast<f32>(sum);
          if (!std::isfinite(m[c * 4 + r])) refuse(c * 4 + r, "the product");
        }
    }
    return m;
  }

 private:
  bool translate_ = false;
  std::array<f32, 3> t_{};
  Matrix a_{};
};

}  // namespace

const Value* optional_member(const Value& op, const char* name) {
  auto it = op.FindMember(name);
  return it == op.MemberEnd() ? nullptr : &it->value;
}

Object Engine::typed(std::size_t piece) {
  auto it = states_.find(piece);
  if (it == states_.end()) return parse_piece(level_, level_.pieces[piece]);
  if (it->second.broken) fail_broken(*it->second.broken);  // its JSON is not an object: no model to edit
  return it->second.object;
}

int Engine::kind_of(std::size_t piece) const {
  auto it = states_.find(piece);
  return it == states_.end() ? level_.pieces[piece].kind : static_cast<int>(it->second.object.index());
}

void Engine::commit(std::size_t piece, Object&& object) {
  std::vector<u8> encoded;
  encode_object(object, encoded);
  const Piece& p = level_.pieces[piece];
  if (encoded.size() != p.length && !resizable())
    fail(
        absl::StrFormat("%s would encode to %d bytes, not %d: an object inside a level file cannot change size (the "
                        "size fields of the container around it are not known; inside a data file or an archive "
                        "they are)",
                        key_pointer(piece), encoded.size(), p.length));
  State& s = state(piece);
  s.length = encoded.size();
  s.object = std::move(object);
  s.edited = true;
  s.dom_valid = false;  // made again from the model when an operation next reads it
}

// "objects": an array of keys, or "*" (every object; also when the member is absent and not required).
std::vector<std::size_t> Engine::objects_member(const Value& op, bool required) {
  const Value* v = optional_member(op, "objects");
  std::vector<std::size_t> pieces;
  if (v == nullptr && required) fail("missing member \"objects\"");
  if (v == nullptr || (v->IsString() && std::string_view(v->GetString(), v->GetStringLength()) == "*")) {
    for (std::size_t i = 0; i < level_.pieces.size(); ++i)
      if (level_.pieces[i].is_object()) pieces.push_back(i);
    return pieces;
  }
  if (!v->IsArray())
    fail(absl::StrFormat("\"objects\" must be an array of object keys or \"*\" (found %s)", found(*v, v->IsString())));
  absl::flat_hash_set<std::size_t> seen;
  for (auto& item : v->GetArray()) {
    if (!item.IsString()) fail(absl::StrFormat("\"objects\" must hold object keys (found %s)", json_kind(item)));
    std::string key(item.GetString(), item.GetStringLength());
    auto piece = keys_.find(key);
    if (!piece) fail(absl::StrFormat("no object with key \"%s\" in this file", key));
    if (!seen.insert(*piece).second) fail(absl::StrFormat("\"objects\" lists \"%s\" twice", key));
    pieces.push_back(*piece);
  }
  std::sort(pieces.begin(), pieces.end());
  return pieces;
}

void Engine::op_swap_material(const Value& op) {
  check_members(op, {"op", "from", "to", "source", "mode", "objects"});
  require_game(level_.game, Game::ac2, "swap_material");
  u64 from = id_member(required_member(op, "from"), "from", 8);
  u64 to = id_member(required_member(op, "to"), "to", 8);
  std::optional<u64> source;
  if (const Value* v = optional_member(op, "source")) source = id_member(*v, "source", 8);
  std::optional<u8> mode;
  if (const Value* v = optional_member(op, "mode")) mode = static_cast<u8>(uint_member(*v, "mode", 255));
  std::vector<std::size_t> pieces = objects_member(op, false);
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    Object object = typed(piece);
    auto* visual = std::get_if<ac2::Visual>(&object);
    if (visual == nullptr || !visual->instance) continue;
    std::size_t here = 0;
    const BulkFields& f = fields();
    std::string base = key_pointer(piece) + "/" + f.instance;
    auto swap = [&](ac2::MeshInstanceData& mesh, const std::string& prefix) {
      for (std::size_t j = 0; j < mesh.materials.size(); ++j) {
        ac2::MaterialInfo& info = mesh.materials[j];
        if (info.replacement.value != from || (source && info.source.value != *source)) continue;
        std::string p = absl::StrFormat("%s/%s/%d/", prefix, f.materials, j);
        record("swap_material", piece, p + f.replacement, id_text(info.replacement.value, 8), id_text(to, 8));
        info.replacement.value = to;
        if (mode) {
          record("swap_material", piece, p + f.mode, std::to_string(info.mode), std::to_string(*mode));
          info.mode = *mode;
        }
        ++here;
      }
    };
    if (auto* lod = std::get_if<ac2::LODSelectorInstance>(&visual->instance->body)) {
      for (std::size_t i = 0; i < lod->slots.size(); ++i)
        if (lod->slots[i])
          if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&lod->slots[i]->body))
            swap(*mesh, absl::StrFormat("%s/%s/%d", base, f.ac2_slots, i));
    } else if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&visual->instance->body)) {
      swap(*mesh, base);
    }
    if (here > 0) commit(piece, std::move(object));
    matches += here;
  }
  if (matches == 0)
    fail(absl::StrFormat("matched no material info with replacement %s%s", json_text::format_id(from, 8),
                         source ? " and source " + json_text::format_id(*source, 8) : ""),
         kTestFailed);
}

void Engine::op_transform(const Value& op) {
  check_members(op, {"op", "objects", "translate", "matrix"});
  Motion motion(op);
  std::vector<std::size_t> pieces = objects_member(op, true);
  if (pieces.empty() && !optional_member(op, "objects")->IsString()) fail("\"objects\" is empty");
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  bool star = optional_member(op, "objects")->IsString();
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    Object object = typed(piece);
    if (!is_visual(object)) {
      if (star) continue;
      fail(absl::StrFormat("%s is not a Visual", key_pointer(piece)));
    }
    std::size_t here = 0;
    for (InstanceList& list : instance_lists(object, key_pointer(piece))) {
      for (std::size_t j = 0; j < list.matrices->size(); ++j) {
        Matrix& m = (*list.matrices)[j];
        std::string at = absl::StrFormat("%s/%d", list.pointer, j);
        Matrix moved = motion.apply(m, at);
        record("transform", piece, at, matrix_text(m), matrix_text(moved));
        m = moved;
        ++here;
      }
    }
    if (here > 0) commit(piece, std::move(object));
    matches += here;
  }
  if (matches == 0) fail("matched no instance matrix in the named objects", kTestFailed);
}

// The Visuals of duplicate_instance and remove_instance, each with its own instance count; `index` must
// be one of its instances (a Visual of "*" where it is not, or with no instance list, is passed over).
template <class Edit>
void Engine::instance_op(const Value& op, const char* name, Edit&& edit) {
  std::size_t index = uint_member(required_member(op, "index"), "index", 0xffffffffu);
  std::vector<std::size_t> pieces = objects_member(op, true);
  if (pieces.empty() && !optional_member(op, "objects")->IsString()) fail("\"objects\" is empty");
  bool star = optional_member(op, "objects")->IsString();
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    Object object = typed(piece);
    if (!is_visual(object)) {
      if (star) continue;
      fail(absl::StrFormat("%s is not a Visual", key_pointer(piece)));
    }
    std::vector<InstanceList> lists = instance_lists(object, key_pointer(piece));
    if (lists.empty()) continue;
    const std::size_t count = lists.front().matrices->size();
    if (index >= count) {
      if (star) continue;
      fail(absl::StrFormat("\"index\" %d is out of range: %s has %s", index, lists.front().pointer,
                           count == 1 ? std::string("1 instance") : absl::StrFormat("%d instances", count)));
    }
    // Every list of the Visual's own count: all its LOD levels hold the instance.
    for (InstanceList& list : lists)
      if (list.matrices->size() == count) edit(piece, list, index, count);
    commit(piece, std::move(object));
    ++matches;
  }
  if (matches == 0)
    fail(absl::StrFormat("matched no Visual with an instance %d in the named objects", index), kTestFailed);
  (void)name;
}

void Engine::op_duplicate_instance(const Value& op) {
  check_members(op, {"op", "objects", "index", "translate", "matrix"});
  Motion motion(op);
  instance_op(op, "duplicate_instance", [&](std::size_t piece, InstanceList& list, std::size_t i, std::size_t n) {
    Matrix copy = motion.apply((*list.matrices)[i], absl::StrFormat("%s/%d", list.pointer, i));
    record("duplicate_instance", piece, absl::StrFormat("%s/%d", list.pointer, n), "", matrix_text(copy));
    list.matrices->push_back(copy);
    // A bound per instance: the copy's is the original's.
    if (list.bounds && list.bounds->size() == n) {
      Opaque<40> bound = (*list.bounds)[i];
      record("duplicate_instance", piece, absl::StrFormat("%s/%d", list.bounds_pointer, n), "",
             "\"" + absl::BytesToHexString({reinterpret_cast<const char*>(bound.bytes.data()), bound.bytes.size()}) +
                 "\"");
      list.bounds->push_back(bound);
    }
  });
}

void Engine::op_remove_instance(const Value& op) {
  check_members(op, {"op", "objects", "index"});
  instance_op(op, "remove_instance", [&](std::size_t piece, InstanceList& list, std::size_t i, std::size_t n) {
    record("remove_instance", piece, absl::StrFormat("%s/%d", list.pointer, i), matrix_text((*list.matrices)[i]), "");
    list.matrices->erase(list.matrices->begin() + static_cast<std::ptrdiff_t>(i));
    if (list.bounds && list.bounds->size() == n) {
      const Opaque<40>& bound = (*list.bounds)[i];
      record(
          "remove_instance", piece, absl::StrFormat("%s/%d", list.bounds_pointer, i),
          "\"" + absl::BytesToHexString({reinterpret_cast<const char*>(bound.bytes.data()), bound.bytes.size()}) + "\"",
          "");
      list.bounds->erase(list.bounds->begin() + static_cast<std::ptrdiff_t>(i));
    }
  });
}

void Engine::op_add_material(const Value& op) {
  check_members(op, {"op", "objects", "source", "replacement", "mode", "id"});
  require_game(level_.game, Game::ac2, "add_material");
  u64 source = id_member(required_member(op, "source"), "source", 8);
  u64 replacement = id_member(required_member(op, "replacement"), "replacement", 8);
  u8 mode = static_cast<u8>(uint_member(required_member(op, "mode"), "mode", 255));
  u64 id = 0;
  if (const Value* v = optional_member(op, "id")) id = id_member(*v, "id", 8);
  std::vector<std::size_t> pieces = objects_member(op, true);
  if (pieces.empty() && !optional_member(op, "objects")->IsString()) fail("\"objects\" is empty");
  bool star = optional_member(op, "objects")->IsString();
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  const BulkFields& f = fields();
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    Object object = typed(piece);
    auto* visual = std::get_if<ac2::Visual>(&object);
    if (visual == nullptr) {
      if (star) continue;
      fail(absl::StrFormat("%s is not a Visual", key_pointer(piece)));
    }
    if (!visual->instance) continue;
    std::size_t here = 0;
    std::string base = key_pointer(piece) + "/" + f.instance;
    // docs/patches.md: the owner is the one the mesh's infos already name, else the mesh itself.
    auto add = [&](ac2::MeshInstanceData& mesh, u64 mesh_id, const std::string& prefix) {
      ac2::MaterialInfo info;
      info.id = Id64{id};
      info.owner = Id64{mesh_id};
      bool one_owner = !mesh.materials.empty();
      for (const ac2::MaterialInfo& other : mesh.materials)
        one_owner = one_owner && other.owner.value == mesh.materials.front().owner.value;
      if (one_owner) info.owner = mesh.materials.front().owner;
      info.source = Id64{source};
      info.mode = mode;
      info.replacement = Id64{replacement};
      record("add_material", piece, absl::StrFormat("%s/%s/%d", prefix, f.materials, mesh.materials.size()), "",
             absl::StrFormat(R"({"id": %s, "owner": %s, "source": %s, "mode": %d, "replacement": %s})",
                             id_text(info.id.value, 8), id_text(info.owner.value, 8), id_text(source, 8), mode,
                             id_text(replacement, 8)));
      mesh.materials.push_back(info);
      ++here;
    };
    if (auto* lod = std::get_if<ac2::LODSelectorInstance>(&visual->instance->body)) {
      for (std::size_t i = 0; i < lod->slots.size(); ++i)
        if (lod->slots[i])
          if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&lod->slots[i]->body))
            add(*mesh, lod->slots[i]->id.value, absl::StrFormat("%s/%s/%d", base, f.ac2_slots, i));
    } else if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&visual->instance->body)) {
      add(*mesh, visual->instance->id.value, base);
    }
    if (here > 0) commit(piece, std::move(object));
    matches += here;
  }
  if (matches == 0) fail("matched no MeshInstanceData in the named objects", kTestFailed);
}

void Engine::op_switch_distance(const Value& op, bool scale) {
  const char* name = scale ? "scale_switch_distance" : "set_switch_distance";
  check_members(op, {"op", "objects", "slot", scale ? "factor" : "value"});
  require_game(level_.game, Game::sws, name);
  f32 operand =
      scale ? f32_member(required_member(op, "factor"), "factor") : f32_member(required_member(op, "value"), "value");
  std::optional<std::size_t> slot;
  if (const Value* v = optional_member(op, "slot")) slot = uint_member(*v, "slot", 4);
  std::vector<std::size_t> pieces = objects_member(op, true);
  bool star = optional_member(op, "objects")->IsString();
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    if (kind_of(piece) != kLODSelectorKind) {
      if (star) continue;
      fail(absl::StrFormat("%s is a Visual, not a LODSelector", key_pointer(piece)));
    }
    Object object = typed(piece);
    auto& selector = std::get<sws::LODSelector>(object);
    std::size_t here = 0;
    for (std::size_t i = 0; i < selector.slots.size(); ++i) {
      sws::LODDescriptor& d = selector.slots[i];
      if (slot ? i != *slot : d.object.value == 0) continue;
      f32 before = d.switch_distance;
      d.switch_distance = scale ? before * operand : operand;
      std::string field =
          absl::StrFormat("%s/%s/%d/%s", key_pointer(piece), fields().sws_slots, i, fields().switch_distance);
      if (!std::isfinite(d.switch_distance))
        fail(absl::StrFormat("%s: %s is not finite", field,
                             scale ? f32_text(before) + " × " + f32_text(operand) : f32_text(operand)));
      record(name, piece, field, f32_text(before), f32_text(d.switch_distance));
      ++here;
    }
    if (here > 0) commit(piece, std::move(object));
    matches += here;
  }
  if (matches == 0) fail(slot ? "matched no LODSelector" : "matched no used LODSelector slot", kTestFailed);
}

}  // namespace anvil::patch
