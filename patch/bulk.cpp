// The bulk operations (FORMAT.md section 5), which name the objects they touch by value: each edits the
// typed model of every object it matches, with the arithmetic the contract fixes, and refuses a result
// that is not a finite number.
#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cmath>

#include "patch/bulk_operands.hpp"
#include "reader/json_messages.hpp"
#include "writer/encode.hpp"

namespace anvil::patch {

using namespace bulk;

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
  const std::size_t matches = each_visual(op, [&](std::size_t piece, Object& object, bool) {
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
    return here;
  });
  if (matches == 0) fail("matched no instance matrix in the named objects", kTestFailed);
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
