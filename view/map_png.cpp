#include "view/map_png.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <agg_basics.h>
#include <agg_conv_dash.h>
#include <agg_conv_stroke.h>
#include <agg_ellipse.h>
#include <agg_gsv_text.h>
#include <agg_path_storage.h>
#include <agg_pixfmt_rgb.h>
#include <agg_rasterizer_scanline_aa.h>
#include <agg_renderer_base.h>
#include <agg_renderer_scanline.h>
#include <agg_rendering_buffer.h>
#include <agg_scanline_p.h>
#include <png.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "model/counted.hpp"

namespace anvil::view {
namespace {

using Renderer = agg::renderer_base<agg::pixfmt_rgb24>;

agg::rgba8 colour(const char* hex, double opacity = 1) {
  const unsigned long v = std::strtoul(hex + 1, nullptr, 16);
  return agg::rgba8((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff, static_cast<unsigned>(std::lround(255 * opacity)));
}

// Draws filled shapes and strokes on one picture.
class Canvas {
 public:
  Canvas(unsigned width, unsigned height)
      : pixels_(std::size_t{width} * height * 3, 255),
        buffer_(pixels_.data(), width, height, static_cast<int>(width * 3)),
        format_(buffer_),
        renderer_(format_) {}

  template <class Path>
  void fill(Path& path, agg::rgba8 c) {
    rasterizer_.reset();
    rasterizer_.add_path(path);
    agg::render_scanlines_aa_solid(rasterizer_, scanline_, renderer_, c);
  }
  template <class Path>
  void stroke(Path& path, double width, agg::rgba8 c) {
    agg::conv_stroke<Path> s(path);
    s.width(width);
    fill(s, c);
  }
  void line(double x1, double y1, double x2, double y2, double width, agg::rgba8 c) {
    agg::path_storage p;
    p.move_to(x1, y1);
    p.line_to(x2, y2);
    stroke(p, width, c);
  }
  void disc(double x, double y, double r, agg::rgba8 c) {
    agg::ellipse e(x, y, r, r, 16);
    fill(e, c);
  }
  void ring(double x, double y, double r, double width, agg::rgba8 c, bool dashed) {
    agg::ellipse e(x, y, r, r, 16);
    if (!dashed) return stroke(e, width, c);
    agg::conv_dash<agg::ellipse> d(e);
    d.add_dash(2, 1.5);
    stroke(d, width, c);
  }
  // Text in AGG's vector font; `anchor` 0 left, 1 centre, 2 right of x. Outside printable ASCII: '?'.
  void text(double x, double y, const std::string& s, agg::rgba8 c, int anchor = 0, double size = 9) {
    std::string ascii = s;
    for (char& ch : ascii)
      if (ch < 0x20 || ch > 0x7e) ch = '?';
    agg::gsv_text t;
    t.flip(true);
    t.size(size);
    t.text(ascii.c_str());
    const double w = t.text_width();
    t.start_point(x - (anchor == 1 ? w / 2 : anchor == 2 ? w : 0), y);
    stroke(t, 1.0, c);
  }
  void rectangle(double x1, double y1, double x2, double y2, agg::rgba8 fill_colour, agg::rgba8 edge) {
    agg::path_storage p;
    p.move_to(x1, y1);
    p.line_to(x2, y1);
    p.line_to(x2, y2);
    p.line_to(x1, y2);
    p.close_polygon();
    fill(p, fill_colour);
    stroke(p, 1, edge);
  }
  const std::vector<u8>& pixels() const { return pixels_; }

 private:
  std::vector<u8> pixels_;
  agg::rendering_buffer buffer_;
  agg::pixfmt_rgb24 format_;
  Renderer renderer_;
  agg::rasterizer_scanline_aa<> rasterizer_;
  agg::scanline_p8 scanline_;
};

const agg::rgba8 kInk(0x33, 0x33, 0x33), kTick(0xbb, 0xbb, 0xbb), kDark(0x11, 0x11, 0x11);

void draw_axes(Canvas& c, const MapScene& s) {
  c.rectangle(s.plot_left, s.plot_top, s.plot_right, s.plot_bottom, agg::rgba8(0xfc, 0xfc, 0xfc),
              agg::rgba8(0x88, 0x88, 0x88));
  for (const Tick& t : s.x_ticks) {
    c.line(t.pixel, s.plot_top, t.pixel, s.plot_bottom + 4, 1, kTick);
    c.text(t.pixel, s.plot_bottom + 17, absl::StrFormat("%.6g", t.value), kInk, 1);
  }
  for (const Tick& t : s.y_ticks) {
    c.line(s.plot_left - 4, t.pixel, s.plot_right, t.pixel, 1, kTick);
    c.text(s.plot_left - 6, t.pixel + 4, absl::StrFormat("%.6g", t.value), kInk, 2);
  }
  c.text((s.plot_left + s.plot_right) / 2, s.plot_bottom + 34, "x", kInk, 1, 11);
  c.text(s.plot_left - 52, (s.plot_top + s.plot_bottom) / 2, "y", kInk, 1, 11);
  if (s.unplaced > 0)
    c.text(s.plot_left, s.plot_bottom + 52, absl::StrCat("not placed (x or y not finite): ", s.unplaced), kInk);
}

void draw_legend(Canvas& c, const MapScene& s) {
  const double x = s.plot_right + 16;
  double y = s.plot_top + 4;
  auto line = [&](const std::string& text) {
    c.text(x, y, text, kInk);
    y += 16;
  };
  line("Top-down: x right, y up;");
  line(absl::StrCat(std::string(1, kUpAxis), " (the Anvil world's up) not drawn"));
  y += 6;
  line("What the instances show");
  for (const LegendEntry& e : s.legend) {
    c.disc(x + 5, y - 4, 5, colour(e.colour));
    c.text(x + 16, y, absl::StrCat(e.shows.empty() ? std::string("other") : e.shows, " (", e.instances, ")"), kInk);
    y += 16;
  }
  y += 6;
  if (s.compared) {
    line(absl::StrFormat("moved %d (arrows), added %d", s.moved, s.added));
    line(absl::StrFormat("(ringed), removed %d (dashed)", s.removed));
  }
  line(counted(s.marks.size(), "instance"));
  y += 4;
  c.line(x, y, x + s.scale_bar_units * s.scale, y, 2, kInk);
  y += 16;
  line(absl::StrFormat("%.6g level units", s.scale_bar_units));
}

void draw_arrow(Canvas& c, const Mark& m, agg::rgba8 ink) {
  c.line(m.from_x, m.from_y, m.at_x, m.at_y, 1.6, ink);
  const double dx = m.at_x - m.from_x, dy = m.at_y - m.from_y, length = std::hypot(dx, dy);
  if (length < 1e-9) return;
  const double ux = dx / length, uy = dy / length, head = 6;
  agg::path_storage p;
  p.move_to(m.at_x, m.at_y);
  p.line_to(m.at_x - head * ux - head / 2 * uy, m.at_y - head * uy + head / 2 * ux);
  p.line_to(m.at_x - head * ux + head / 2 * uy, m.at_y - head * uy - head / 2 * ux);
  p.close_polygon();
  c.fill(p, kInk);
}

void draw_mark(Canvas& c, const MapScene& s, const Mark& m) {
  const char* hex = s.legend[m.colour].colour;
  switch (m.kind) {
    case MarkKind::plain:
      return c.disc(m.at_x, m.at_y, 2.5, colour(hex));
    case MarkKind::kept:
      return c.disc(m.at_x, m.at_y, 2.5, colour(hex, 0.3));
    case MarkKind::moved:
      return draw_arrow(c, m, colour(hex));
    case MarkKind::added:
      c.disc(m.at_x, m.at_y, 4, colour(hex));
      return c.ring(m.at_x, m.at_y, 4, 1.5, kDark, false);
    case MarkKind::removed:
      return c.ring(m.at_x, m.at_y, 4, 1.5, colour(hex), true);
    case MarkKind::unplaced:
      c.disc(m.at_x, m.at_y, 4, colour(hex));
      return c.ring(m.at_x, m.at_y, 4, 1, kDark, false);
  }
}

}  // namespace

bool png_maps_available() { return true; }

absl::StatusOr<std::vector<u8>> render_map_png(const MapScene& scene) {
  const MapOptions& o = scene.options;
  Canvas canvas(o.width, o.height);
  draw_axes(canvas, scene);
  draw_legend(canvas, scene);
  // Kept (faded) marks first, so that what changed is drawn over them.
  for (const Mark& m : scene.marks)
    if (m.kind == MarkKind::kept) draw_mark(canvas, scene, m);
  for (const Mark& m : scene.marks)
    if (m.kind != MarkKind::kept) draw_mark(canvas, scene, m);

  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = o.width;
  image.height = o.height;
  image.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  // Asked for its size first, then written into a buffer of that size.
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, canvas.pixels().data(), 0, nullptr))
    return absl::InternalError(absl::StrCat("cannot encode the PNG: ", image.message));
  std::vector<u8> out(size);
  if (!png_image_write_to_memory(&image, out.data(), &size, 0, canvas.pixels().data(), 0, nullptr))
    return absl::InternalError(absl::StrCat("cannot encode the PNG: ", image.message));
  out.resize(size);
  return out;
}

absl::StatusOr<std::vector<u8>> render_map_png(const PlacedInstances& before, const PlacedInstances* after,
                                               const MapOptions& options) {
  return render_map_png(build_map_scene(before, after, options));
}

}  // namespace anvil::view
