// The editor's map: `anvilrt map`'s SVG (view/map_svg.hpp) of the opened file, before and, with a pending
// patch, after it (moved instances as arrows, added and removed ones marked), so that a click on a mark
// opens its object and a selected object's marks are highlighted in the page. The instances before are
// read once, on the first request; after, only the data files the patch edits are read again.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "serve/session.hpp"
#include "view/placed_instances.hpp"

namespace anvil::serve {

class MapView {
 public:
  MapView(Session& session, unsigned threads) : session_(session), threads_(threads) {}

  // The SVG of the instances of `objects` (every object's when empty), as `patch_json` leaves them
  // compared with the input. Errors are one line (the patch's, as `anvilrt patch` says it).
  absl::StatusOr<std::string> svg(std::string_view patch_json, const std::vector<std::string>& objects);

 private:
  Session& session_;
  unsigned threads_;
  std::optional<view::PlacedInstances> before_;
};

}  // namespace anvil::serve
