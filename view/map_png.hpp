// The map as a PNG picture (`anvilrt map --png`): the scene of view/map_scene.hpp drawn by Anti-Grain
// Geometry (antialiased shapes and its built-in vector font) and encoded by libpng, the same marks, axes
// and legend as the SVG, options.width x options.height pixels.
#pragma once

#include <absl/status/statusor.h>

#include <vector>

#include "model/primitives.hpp"
#include "view/map_scene.hpp"

namespace anvil::view {

// Whether this build draws PNG maps: false where Anti-Grain Geometry could not be built for it (a Windows
// build whose deps had no AGG source package: view/CMakeLists.txt), where render_map_png refuses in one line.
bool png_maps_available();

absl::StatusOr<std::vector<u8>> render_map_png(const MapScene& scene);
absl::StatusOr<std::vector<u8>> render_map_png(const PlacedInstances& before, const PlacedInstances* after,
                                               const MapOptions& options);

}  // namespace anvil::view
