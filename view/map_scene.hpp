// What a map of placed instances shows, decided once for both pictures (view/map_svg.hpp, view/map_png.hpp):
// the frame (the top-down plane, its bounds, the scale from level units to pixels), the axes' ticks, the
// legend's colours, and one mark per instance; with a second list (the level after a patch), each instance
// paired with itself before and marked kept, moved, added or removed.
//
// Top-down: FORMAT.md 5 names elements 12, 13, 14 of an instance matrix its translation x, y, z, and the
// Anvil engine's world is z-up, so the map's plane is x (to the right) and y (up the picture); z is not
// drawn. kUpAxis below is that choice, written once.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "view/placed_instances.hpp"

namespace anvil::view {

// The axis the map looks down: the horizontal ones are the other two, x to the right and y up.
inline constexpr char kUpAxis = 'z';

struct MapOptions {
  unsigned width = 1200, height = 900;  // of the whole picture, in pixels (PNG) or user units (SVG)
  std::vector<std::string> objects;     // only the instances of these keys; all when empty
  std::size_t colours = 10;             // the most common shown objects with a colour of their own
};

enum class MarkKind { plain, kept, moved, added, removed, unplaced };

struct Mark {
  const PlacedInstance* instance = nullptr;  // the instance's record (after a patch: as it is after, unless removed)
  MarkKind kind = MarkKind::plain;
  std::size_t colour = 0;         // index into MapScene::legend
  double at_x = 0, at_y = 0;      // where it is drawn, in pixels
  double from_x = 0, from_y = 0;  // moved: where it was
};

struct LegendEntry {
  std::string shows;  // a key; "" for the entry of every other shown object (and none)
  std::size_t instances = 0;
  const char* colour;  // "#rrggbb"
};

struct Tick {
  double value = 0;  // in level units
  double pixel = 0;  // along its axis
};

struct MapScene {
  MapOptions options;
  const std::vector<std::string>* datafiles = nullptr;  // the records' data files' names
  // The plot: level (x, y) is drawn at pixel (origin_x + scale * x, origin_y - scale * y).
  double plot_left = 0, plot_top = 0, plot_right = 0, plot_bottom = 0;
  double origin_x = 0, origin_y = 0, scale = 1;
  std::vector<Tick> x_ticks, y_ticks;
  double scale_bar_units = 0;  // a round length, drawn as a bar under the legend
  std::vector<LegendEntry> legend;
  std::vector<Mark> marks;  // in the order of the records (after a patch: the kept, moved and added ones in
                            // the order of the list after, then the removed ones)
  bool compared = false;    // built from a list before and a list after
  std::size_t moved = 0, added = 0, removed = 0, unplaced = 0;

  double to_px(double x) const { return origin_x + scale * x; }
  double to_py(double y) const { return origin_y - scale * y; }
};

// The scene of `before` alone, or of `before` against `after` (both must outlive it). Instances whose x or y
// is not finite cannot be placed: they are marked `unplaced`, in a row under the plot.
// `after` holds the same set's records (its datafiles are before's).
// Its passes over the marks run on up to `threads` threads.
MapScene build_map_scene(const PlacedInstances& before, const PlacedInstances* after, const MapOptions& options,
                         unsigned threads = 1);

// The text of a mark's kind as its SVG class says it ("kept", "moved", ...; "" for plain).
const char* mark_class(MarkKind kind);

}  // namespace anvil::view
