// The bulk operations on a Visual's instances and materials (FORMAT.md section 5): duplicate_instance,
// remove_instance and add_material.
#include <absl/strings/escaping.h>
#include <absl/strings/str_format.h>

#include <algorithm>

#include "patch/bulk_operands.hpp"
#include "reader/json_messages.hpp"

namespace anvil::patch {

using namespace bulk;

// The Visuals of duplicate_instance and remove_instance, each with its own instance count; `index` must
// be one of its instances (a Visual of "*" where it is not, or with no instance list, is passed over).
template <class Edit>
void Engine::instance_op(const Value& op, const char* name, Edit&& edit) {
  std::size_t index = uint_member(required_member(op, "index"), "index", 0xffffffffu);
  const std::size_t matches = each_visual(op, [&](std::size_t piece, Object& object, bool star) -> std::size_t {
    std::vector<InstanceList> lists = instance_lists(object, key_pointer(piece));
    if (lists.empty()) return 0;
    const std::size_t count = lists.front().matrices->size();
    if (index >= count) {
      if (star) return 0;
      fail(absl::StrFormat("\"index\" %d is out of range: %s has %s", index, lists.front().pointer,
                           count == 1 ? std::string("1 instance") : absl::StrFormat("%d instances", count)));
    }
    // Every list of the Visual's own count: all its LOD levels hold the instance.
    for (InstanceList& list : lists)
      if (list.matrices->size() == count) edit(piece, list, index, count);
    commit(piece, std::move(object));
    return 1;
  });
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

}  // namespace anvil::patch
