// view/map_png.hpp in a build without Anti-Grain Geometry (view/CMakeLists.txt): `anvilrt map --png` is
// refused in one line that says what to do instead; the SVG is the same map.
#include <absl/status/status.h>

#include "view/map_png.hpp"

namespace anvil::view {

bool png_maps_available() { return false; }

absl::StatusOr<std::vector<u8>> render_map_png(const MapScene&) {
  return absl::UnimplementedError(
      "--png: this build of anvilrt draws no PNG (it was built without Anti-Grain Geometry); write the SVG "
      "(the same map) without --png");
}

absl::StatusOr<std::vector<u8>> render_map_png(const PlacedInstances& before, const PlacedInstances* after,
                                               const MapOptions& options) {
  return render_map_png(build_map_scene(before, after, options));
}

}  // namespace anvil::view
