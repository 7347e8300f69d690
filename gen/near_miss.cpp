#include "gen/near_miss.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#include "gen/ac2_objects.hpp"
#include "gen/sws_objects.hpp"
#include "writer/encode.hpp"

namespace anvil::gen {

namespace {

// Each kind: its dialect and the check it plants on, in the order of Planted (facts() indexes
// by it); planted_kinds cycles through a dialect's kinds in this order.
struct PlantedFacts {
  Planted kind;
  Game game;
  PlantedCheck check;
};

constexpr PlantedFacts kPlanted[] = {
    {Planted::instance_tag, Game::ac2, {CheckedField::kPointerTag, "instance", 0x05}},
    {Planted::streams_count, Game::ac2, {CheckedField::kConstant, "streams count", 3}},
    {Planted::material_info_class, Game::ac2, {CheckedField::kConstant, "material info class", 0xDEADBEEF}},
    {Planted::tail_class,
     Game::ac2,
     {CheckedField::kConstant, "VisualShaderConstants class", class_id::kVisualShaderConstants - 1}},
    {Planted::slot_class, Game::ac2, {CheckedField::kClass, "slot class", 0x12345678}},
    {Planted::light_instance, Game::sws, {CheckedField::kClass, "instance class", class_id::kLightInstance}},
    {Planted::submesh_class,
     Game::sws,
     {CheckedField::kConstant, "SubMeshInstanceData class", class_id::kSubMeshInstanceData + 1}},
    {Planted::compiled_constant, Game::sws, {CheckedField::kConstant, "CompiledMeshInstance constant 21", 22}},
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(kPlanted); ++i)
    if (static_cast<std::size_t>(kPlanted[i].kind) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kPlanted is in the order of Planted");

const PlantedFacts& facts(Planted kind) { return kPlanted[static_cast<std::size_t>(kind)]; }

}  // namespace

std::span<const Planted> planted_kinds(Game game) {
  static const auto by_game = [] {
    std::array<std::vector<Planted>, std::size(kGames)> out;
    for (const PlantedFacts& p : kPlanted) out[static_cast<std::size_t>(p.game)].push_back(p.kind);
    return out;
  }();
  return by_game[static_cast<std::size_t>(game)];
}

const PlantedCheck& planted_check(Planted kind) { return facts(kind).check; }

std::string plant_near_miss(Planted kind, Ac2Objects& ac2, SwsObjects& sws, std::vector<u8>& bytes) {
  Object object;
  switch (kind) {
    case Planted::instance_tag:
    case Planted::streams_count:
      ac2.visual(object, Ac2Instance::mesh);
      break;
    case Planted::material_info_class:
      ac2.visual(object, Ac2Instance::mesh, nullptr, true);
      break;
    case Planted::tail_class:
      ac2.visual(object, Ac2Instance::none);
      break;
    case Planted::slot_class:
      ac2.visual(object, Ac2Instance::lod_selector, "M....");
      break;
    case Planted::light_instance:
    case Planted::submesh_class:  // a MeshInstanceData has at least one submesh
    case Planted::compiled_constant:
      sws.visual(object, SwsInstance::mesh);
      break;
  }
  const PlantedCheck& plant = planted_check(kind);
  std::vector<CheckedField> checks = std::visit([](const auto& o) { return checked_fields(o); }, object);
  auto check = std::find_if(checks.begin(), checks.end(),
                            [&](const CheckedField& c) { return c.kind == plant.kind && c.what == plant.what; });
  if (check == checks.end()) throw std::logic_error("gen: no check named " + std::string(plant.what));
  bytes.clear();
  encode_object(object, bytes);
  u32 value = plant.value;
  std::memcpy(bytes.data() + check->offset, &value, check->size);  // little-endian: its low bytes
  return check->failure();
}

}  // namespace anvil::gen
