// The map as SVG: a top-down picture of placed instances (view/map_scene.hpp), one element per instance
// carrying `data-key="0x…"` and `data-index="N"` and a <title> naming them (what a browser shows on hover
// and a tool reads), coloured by what the instance shows, with axes, a scale bar and a legend. Compared
// with a list after a patch: a moved instance is a line of class `moved` (an arrow from where it was), an
// added or removed one a circle of class `added` or `removed`, the rest faded (`kept`). Styles are CSS
// classes, so the file grows by one short element per instance.
//
// The marks group (`<g id="marks">`) states the frame: level (x, y) is at pixel
// (data-origin-x + data-scale * x, data-origin-y - data-scale * y); coordinates are rounded to 0.1 pixel.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "view/map_scene.hpp"

namespace anvil::view {

std::string render_map_svg(const MapScene& scene);
// The same text written to `out`, the marks rendered in chunks on up to `threads` threads and written in
// order, so that the text is never held whole; false when a write fails (errno says why).
bool write_map_svg(const MapScene& scene, std::FILE* out, unsigned threads);

// `text` with & < > " ' as XML entities (and bytes an XML document may not hold as U+FFFD).
void append_xml_escaped(std::string& out, std::string_view text);

}  // namespace anvil::view
