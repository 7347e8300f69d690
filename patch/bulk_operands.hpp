// The operands of the bulk operations (FORMAT.md section 5), read and checked as each operation needs
// them, the fields they edit named from the layout declarations, and the instance lists of a Visual: what
// patch/bulk.cpp and patch/bulk_instances.cpp share. Compiled without fused multiply-add, as they are.
#pragma once

#include <absl/strings/str_format.h>

#include <array>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "model/dialect.hpp"
#include "model/field_key.hpp"
#include "model/json_text.hpp"
#include "patch/engine.hpp"
#include "patch/json_util.hpp"
#include "reader/json_messages.hpp"

namespace anvil::patch::bulk {

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
const BulkFields& fields();

// An operation's members must be among `allowed`.
void check_members(const Value& op, std::initializer_list<const char*> allowed);
const Value& required_member(const Value& op, const char* name);
// "(found a number)" for a value of the wrong type, "(found \"0x12\")" for one of the right type.
std::string found(const Value& v, bool right_type);
u64 id_member(const Value& v, const char* name, std::size_t width);
// A finite number rounded to the nearest f32, or "f32:0x…" bits of a finite f32, as the JSON reader takes
// an f32 field: a bulk operation never writes a NaN or an infinity.
f32 f32_member(const Value& v, const std::string& name);

// An array of exactly `n` f32 operands.
template <std::size_t N>
std::array<f32, N> f32_array_member(const Value& v, const char* name, const char* what) {
  if (!v.IsArray()) fail(absl::StrFormat("\"%s\" must be an array of %d %s (found %s)", name, N, what, json_kind(v)));
  if (v.Size() != N) fail(absl::StrFormat("\"%s\" must have %d elements (found %d)", name, N, v.Size()));
  std::array<f32, N> out{};
  for (rapidjson::SizeType i = 0; i < N; ++i) out[i] = f32_member(v[i], absl::StrFormat("%s/%d", name, i));
  return out;
}

u64 uint_member(const Value& v, const char* name, u64 max);
void require_game(Game actual, Game needed, const char* op);

// One list of instance matrices of a Visual, as `transform` and the instance operations see it.
struct InstanceList {
  std::vector<Matrix>* matrices = nullptr;
  std::string pointer;                        // the array's
  std::vector<Opaque<40>>* bounds = nullptr;  // an ac2 MeshInstanceData's instance_bounds
  std::string bounds_pointer;
};

// Whether the object is a Visual of either dialect.
bool is_visual(const Object& object);

// The Visual's instance lists: first its own (a LODSelectorInstance's, or a direct ac2 MeshInstanceData's),
// then those of its LOD slots in slot order (`sws` slots hold none). Empty when it has no own list.
// `base`: the pointer of the Visual.
std::vector<InstanceList> instance_lists(Object& object, const std::string& base);

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
  Matrix apply(const Matrix& before, const std::string& where) const;

 private:
  bool translate_ = false;
  std::array<f32, 3> t_{};
  Matrix a_{};
};

}  // namespace anvil::patch::bulk

namespace anvil::patch {

template <class Visit>
std::size_t Engine::each_visual(const Value& op, Visit&& visit) {
  std::vector<std::size_t> pieces = objects_member(op, true);
  const bool star = optional_member(op, "objects")->IsString();
  if (pieces.empty() && !star) fail("\"objects\" is empty");
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    Object object = typed(piece);
    if (!bulk::is_visual(object)) {
      if (star) continue;
      fail(absl::StrFormat("%s is not a Visual", key_pointer(piece)));
    }
    matches += visit(piece, object, star);
  }
  return matches;
}

}  // namespace anvil::patch
