// The editor's map (docs/serve.md, The map): the page draws every placed instance of the input on a canvas
// from one compact answer, fetched once (each instance's x and y as float32 and its object, packed, base64
// in the JSON), then redraws from memory as it pans and zooms; after each edit it asks only for what the
// pending patch changes (serve/map_changes.hpp), drawn as arrows. The instances before are read once, on
// the first request (a level file in parts on the threads, outside the session's lock, so that the
// search index built meanwhile does not hold the map back); after, only the data files the patch edits
// are read again (view/map_file.hpp instances_after).
#pragma once

#include <absl/status/statusor.h>

#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "serve/map_changes.hpp"
#include "serve/session.hpp"
#include "view/placed_instances.hpp"

namespace anvil::serve {

class MapView {
 public:
  MapView(Session& session, unsigned threads) : session_(session), threads_(threads) {}

  // The JSON answer of /api/map: with `marks`, every instance of the input ("instances", "unplaced",
  // "bounds", "keys": the objects' keys, one a line; "datafile": each object's data file, u32; "object":
  // each instance's object, u32; "xy": each instance's x and y, float32; the arrays little-endian, in
  // base64); always "changed", "removed" and "added": what `patch_json` changes. Errors are one line (the
  // patch's, as `anvilrt patch` says it).
  absl::StatusOr<std::string> reply(std::string_view patch_json, bool marks);
  // Reads the instances and packs them ahead of the first request (the server does so as it starts);
  // an error is kept for that request to answer.
  void prepare();

 private:
  absl::Status read_before();  // under lock_
  std::string marks_json() const;

  Session& session_;
  unsigned threads_;
  std::mutex lock_;
  std::optional<view::PlacedInstances> before_;
  MapRuns runs_;
  std::string marks_;  // marks_json(), made once
};

}  // namespace anvil::serve
