// Planted near misses: a valid object encoded, then one checked field overwritten, so that the carver
// must reject it with a known check (what `stats` counts as a near miss). The checked field is found by
// its name in the object's layout declaration (model/check_locator.hpp), so its offset, size and the
// failure the reader reports are the declaration's, never typed here.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/check_locator.hpp"
#include "model/object.hpp"

namespace anvil::gen {

// Candidates the generator can plant.
enum class Planted {
  // ac2
  instance_tag,         // Visual instance tag 05
  streams_count,        // direct MeshInstanceData streams count 3
  material_info_class,  // a material info class 0xDEADBEEF
  tail_class,           // VisualShaderConstants class 0xBFF5DF98
  slot_class,           // a LODSelectorInstance slot of class 0x12345678
  // sws
  light_instance,     // instance class LightInstance (no known sws length)
  submesh_class,      // SubMeshInstanceData class 0x128A77ED
  compiled_constant,  // CompiledMeshInstance constant 22 instead of 21
};

// The kinds a dialect plants, in the order they are cycled through.
std::span<const Planted> planted_kinds(Game game);
// The check a kind plants on: its kind and name in the declaration (CheckedField::what), and the value
// written there instead of a valid one (its low bytes when the check is shorter than 4 bytes).
struct PlantedCheck {
  CheckedField::Kind kind;
  const char* what;
  u32 value;
};
const PlantedCheck& planted_check(Planted kind);

class Ac2Objects;
class SwsObjects;

// A candidate of `kind`: a valid object of the kind's dialect drawn, encoded into `bytes`, then its check
// overwritten. Returns the failure the reader gives it (CheckFailure::kind(): "path: check").
std::string plant_near_miss(Planted kind, Ac2Objects& ac2, SwsObjects& sws, std::vector<u8>& bytes);

}  // namespace anvil::gen
