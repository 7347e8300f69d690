#include "patch/bulk_operands.hpp"

#include <optional>

namespace anvil::patch::bulk {

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

u64 uint_member(const Value& v, const char* name, u64 max) {
  if (!v.IsUint64() || v.GetUint64() > max)
    fail(absl::StrFormat("\"%s\" must be an integer 0..%d (found %s)", name, max, found(v, v.IsNumber())));
  return v.GetUint64();
}

void require_game(Game actual, Game needed, const char* op) {
  if (actual != needed)
    fail(absl::StrFormat("%s is an %s operation (this file is %s)", op, game_name(needed), game_name(actual)));
}

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

Matrix Motion::apply(const Matrix& before, const std::string& where) const {
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

}  // namespace anvil::patch::bulk
