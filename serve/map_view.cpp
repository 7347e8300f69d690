// The editor's map (serve/map_view.hpp).
#include "serve/map_view.hpp"

#include "view/map_file.hpp"
#include "view/map_svg.hpp"

namespace anvil::serve {

absl::StatusOr<std::string> MapView::svg(std::string_view patch_json, const std::vector<std::string>& objects) {
  absl::StatusOr<std::string> out;
  session_.with_levels([&](LevelSet& set) {
    const ServeInput& input = session_.input();
    if (!before_) {
      auto before = view::placed_instances(set, threads_);
      if (!before.ok()) {
        out = before.status();
        return;
      }
      before_ = std::move(*before);
    }
    view::MapOptions options;
    options.width = 900;
    options.height = 700;
    options.objects = objects;
    const bool unpatched = patch_json.find_first_not_of(" \t\r\n[]") == std::string_view::npos;
    if (unpatched) {
      out = view::render_map_svg(*before_, nullptr, options);
      return;
    }
    view::MapInput map_input;
    map_input.path = input.path;
    map_input.set = &set;
    map_input.archive = session_.is_archive();
    map_input.folder = session_.folder_set();
    map_input.variant = input.archive != nullptr ? input.archive->variant() : input.source.variant;
    const view::NamedPatch patch{"the pending patch", std::string(patch_json)};
    auto after = view::instances_after(map_input, {&patch, 1}, *before_, threads_);
    if (!after.ok()) {
      out = after.status();
      return;
    }
    out = view::render_map_svg(*before_, &*after, options);
  });
  return out;
}

}  // namespace anvil::serve
