#include "gen/near_miss.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "gen/ac2_objects.hpp"
#include "gen/sws_objects.hpp"
#include "writer/encode.hpp"

namespace anvil::gen {

std::span<const Planted> planted_kinds(Game game) {
  static constexpr Planted ac2[] = {Planted::instance_tag, Planted::streams_count, Planted::material_info_class,
                                    Planted::tail_class, Planted::slot_class};
  static constexpr Planted sws[] = {Planted::light_instance, Planted::submesh_class, Planted::compiled_constant};
  if (game == Game::ac2) return ac2;
  return sws;
}

std::string_view planted_name(Planted kind) {
  switch (kind) {
    case Planted::instance_tag:
      return "instance_tag";
    case Planted::streams_count:
      return "streams_count";
    case Planted::material_info_class:
      return "material_info_class";
    case Planted::tail_class:
      return "tail_class";
    case Planted::slot_class:
      return "slot_class";
    case Planted::light_instance:
      return "light_instance";
    case Planted::submesh_class:
      return "submesh_class";
    case Planted::compiled_constant:
      return "compiled_constant";
  }
  return "?";
}

const PlantedCheck& planted_check(Planted kind) {
  static const PlantedCheck checks[] = {
      // in the order of Planted
      {CheckedField::kPointerTag, "instance", 0x05},
      {CheckedField::kConstant, "streams count", 3},
      {CheckedField::kConstant, "material info class", 0xDEADBEEF},
      {CheckedField::kConstant, "VisualShaderConstants class", class_id::kVisualShaderConstants - 1},
      {CheckedField::kClass, "slot class", 0x12345678},
      {CheckedField::kClass, "instance class", class_id::kLightInstance},
      {CheckedField::kConstant, "SubMeshInstanceData class", class_id::kSubMeshInstanceData + 1},
      {CheckedField::kConstant, "CompiledMeshInstance constant 21", 22},
  };
  return checks[static_cast<std::size_t>(kind)];
}

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
