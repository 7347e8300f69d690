#include "view/map_svg.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string_view>

#include "model/counted.hpp"
#include "model/json_text.hpp"
#include "model/parallel.hpp"

namespace anvil::view {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at text[i], or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = b(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if ((n == 2 && c < 0xC2) || (n == 3 && c == 0xE0 && b(i + 1) < 0xA0) ||
      (n == 4 && (c > 0xF4 || (c == 0xF0 && b(i + 1) < 0x90))))
    return 0;                                             // overlong, or past U+10FFFF
  if (n == 3 && c == 0xED && b(i + 1) >= 0xA0) return 0;  // a surrogate
  return n;
}

// A coordinate in pixels, rounded to 0.1, written at `at` (before `end`); where it ends.
char* write_coordinate(char* at, char* end, double v) {
  const double tenths = std::round(v * 10);
  // Within 10^15 tenths the rounded value is k/10 for a whole k, which prints as k's digits with a point
  // before the last unless it is 0: the same text as to_chars below, without its general algorithm.
  if (std::abs(tenths) < 1e15) {
    const long long k = static_cast<long long>(tenths);
    unsigned long long magnitude =
        k < 0 ? 0ULL - static_cast<unsigned long long>(k) : static_cast<unsigned long long>(k);
    if (k < 0) *at++ = '-';
    at = std::to_chars(at, end, magnitude / 10).ptr;
    if (magnitude % 10 != 0) {
      *at++ = '.';
      *at++ = static_cast<char>('0' + magnitude % 10);
    }
    return at;
  }
  const double rounded = tenths / 10;
  auto [past, ec] = std::to_chars(at, end, rounded == 0 ? 0.0 : rounded, std::chars_format::fixed,
                                  std::abs(rounded - std::round(rounded)) < 1e-9 ? 0 : 1);
  return ec == std::errc() ? past : at;
}
void append_coordinate(std::string& out, double v) {
  char buffer[32];
  out.append(buffer, write_coordinate(buffer, buffer + sizeof buffer, v));
}

// A level value as a person reads it: up to 6 significant digits.
char* write_level_number(char* at, char* end, double v) {
  auto [past, ec] = std::to_chars(at, end, v, std::chars_format::general, 6);
  return ec == std::errc() ? past : at;
}
void append_level_number(std::string& out, double v) {
  char buffer[32];
  out.append(buffer, write_level_number(buffer, buffer + sizeof buffer, v));
}
std::string level_number(double v) {
  std::string out;
  append_level_number(out, v);
  return out;
}

void append_attribute(std::string& out, const char* name, double v) {
  absl::StrAppend(&out, " ", name, "=\"");
  append_coordinate(out, v);
  out += '"';
}

void append_style(std::string& out, const MapScene& scene) {
  out += "<style>\n";
  out += "text{fill:#333}.tick{stroke:#bbb;stroke-width:1}.frame{fill:#fcfcfc;stroke:#888}\n";
  for (std::size_t i = 0; i < scene.legend.size(); ++i)
    absl::StrAppend(&out, ".c", i, "{fill:", scene.legend[i].colour, ";stroke:", scene.legend[i].colour, "}\n");
  // The kinds after the colours: a later rule of the same weight wins.
  out +=
      "circle{stroke-width:0}.kept{opacity:.3}"
      ".moved{stroke-width:1.6;marker-end:url(#arrow)}"
      ".added{stroke:#111;stroke-width:1.5}"
      ".removed{fill:none;stroke-width:1.5;stroke-dasharray:2 1.5}"
      ".unplaced{stroke:#111;stroke-width:1}\n";
  out += "</style>\n";
  out +=
      "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
      "orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\"#333\"/></marker></defs>\n";
}

void append_axes(std::string& out, const MapScene& s) {
  absl::StrAppend(&out, "<rect class=\"frame\"");
  append_attribute(out, "x", s.plot_left);
  append_attribute(out, "y", s.plot_top);
  append_attribute(out, "width", s.plot_right - s.plot_left);
  append_attribute(out, "height", s.plot_bottom - s.plot_top);
  out += "/>\n";
  for (const Tick& t : s.x_ticks) {
    absl::StrAppend(&out, "<line class=\"tick\"");
    append_attribute(out, "x1", t.pixel);
    append_attribute(out, "y1", s.plot_top);
    append_attribute(out, "x2", t.pixel);
    append_attribute(out, "y2", s.plot_bottom + 4);
    absl::StrAppend(&out, "/><text text-anchor=\"middle\"");
    append_attribute(out, "x", t.pixel);
    append_attribute(out, "y", s.plot_bottom + 17);
    absl::StrAppend(&out, ">", level_number(t.value), "</text>\n");
  }
  for (const Tick& t : s.y_ticks) {
    absl::StrAppend(&out, "<line class=\"tick\"");
    append_attribute(out, "x1", s.plot_left - 4);
    append_attribute(out, "y1", t.pixel);
    append_attribute(out, "x2", s.plot_right);
    append_attribute(out, "y2", t.pixel);
    absl::StrAppend(&out, "/><text text-anchor=\"end\"");
    append_attribute(out, "x", s.plot_left - 6);
    append_attribute(out, "y", t.pixel + 4);
    absl::StrAppend(&out, ">", level_number(t.value), "</text>\n");
  }
  const double mid_x = (s.plot_left + s.plot_right) / 2, mid_y = (s.plot_top + s.plot_bottom) / 2;
  absl::StrAppend(&out, "<text text-anchor=\"middle\" font-weight=\"bold\"");
  append_attribute(out, "x", mid_x);
  append_attribute(out, "y", s.plot_bottom + 34);
  absl::StrAppend(&out, ">x</text>\n<text text-anchor=\"middle\" font-weight=\"bold\"");
  append_attribute(out, "x", s.plot_left - 52);
  append_attribute(out, "y", mid_y);
  out += ">y</text>\n";
  if (s.unplaced > 0) {
    absl::StrAppend(&out, "<text");
    append_attribute(out, "x", s.plot_left);
    append_attribute(out, "y", s.plot_bottom + 48 + 4);
    absl::StrAppend(&out, " font-size=\"10\">not placed (x or y not finite): ", s.unplaced, "</text>\n");
  }
}

void append_legend(std::string& out, const MapScene& s) {
  const double x = s.plot_right + 16;
  double y = s.plot_top + 4;
  auto line = [&](const std::string& text, const char* extra = "") {
    absl::StrAppend(&out, "<text", extra);
    append_attribute(out, "x", x);
    append_attribute(out, "y", y);
    out += '>';
    append_xml_escaped(out, text);
    out += "</text>\n";
    y += 16;
  };
  line("Top-down: x right, y up;", " font-weight=\"bold\"");
  line(absl::StrCat(std::string(1, kUpAxis), " (the Anvil world's up) not drawn"));
  y += 6;
  line("What the instances show", " font-weight=\"bold\"");
  for (std::size_t i = 0; i < s.legend.size(); ++i) {
    const LegendEntry& e = s.legend[i];
    absl::StrAppend(&out, "<circle class=\"c", i, "\" r=\"5\"");
    append_attribute(out, "cx", x + 5);
    append_attribute(out, "cy", y - 4);
    out += "/>";
    absl::StrAppend(&out, "<text");
    append_attribute(out, "x", x + 16);
    append_attribute(out, "y", y);
    out += '>';
    append_xml_escaped(out, e.shows.empty() ? std::string("other") : e.shows);
    absl::StrAppend(&out, " (", e.instances, ")</text>\n");
    y += 16;
  }
  y += 6;
  if (s.compared) {
    line(absl::StrFormat("moved %d (arrows), added %d", s.moved, s.added));
    line(absl::StrFormat("(ringed), removed %d (dashed)", s.removed));
  }
  line(counted(s.marks.size(), "instance"));
  // The scale bar.
  y += 4;
  absl::StrAppend(&out, "<line stroke=\"#333\" stroke-width=\"2\"");
  append_attribute(out, "x1", x);
  append_attribute(out, "y1", y);
  append_attribute(out, "x2", x + s.scale_bar_units * s.scale);
  append_attribute(out, "y2", y);
  out += "/>\n";
  y += 16;
  line(absl::StrCat(level_number(s.scale_bar_units), " level units"));
}

// A mark's element, built in a buffer of its own and appended to the text in one piece (with the data
// file's name, of any length, between): the keys and numbers are formatted in place, never as strings.
class MarkText {
 public:
  explicit MarkText(std::string& out) : out_(out) {}
  ~MarkText() { flush(); }
  MarkText(const MarkText&) = delete;
  MarkText& operator=(const MarkText&) = delete;

  template <std::size_t N>
  void put(const char (&literal)[N]) {
    std::memcpy(at_, literal, N - 1);
    at_ += N - 1;
  }
  void put(std::string_view text) {
    if (text.size() > 64) {  // a data file's name: straight into the text
      flush();
      out_.append(text);
      return;
    }
    std::memcpy(at_, text.data(), text.size());
    at_ += text.size();
  }
  void count(std::size_t n) { at_ = std::to_chars(at_, end(), n).ptr; }
  void key(const PlacedInstance& p) { at_ += format_key(at_, p); }
  void id(u64 value, std::size_t width) { at_ += json_text::format_id(at_, value, width); }
  // ` NAME="V"` (`name_and_quote` is ` NAME="`), as append_attribute writes it.
  template <std::size_t N>
  void attribute(const char (&name_and_quote)[N], double v) {
    put(name_and_quote);
    at_ = write_coordinate(at_, end(), v);
    *at_++ = '"';
  }
  void level_number(double v) { at_ = write_level_number(at_, end(), v); }

 private:
  char* end() { return buffer_ + sizeof buffer_; }
  void flush() {
    out_.append(buffer_, static_cast<std::size_t>(at_ - buffer_));
    at_ = buffer_;
  }
  std::string& out_;
  char buffer_[1024];  // a mark's fixed parts take at most about 400 bytes
  char* at_ = buffer_;
};

// `datafiles`: the scene's data files' names, XML-escaped.
void append_mark(std::string& out, const Mark& m, const std::vector<std::string>& datafiles) {
  const PlacedInstance& p = *m.instance;
  const bool arrow = m.kind == MarkKind::moved;
  MarkText w(out);
  if (arrow)
    w.put("<line class=\"c");
  else
    w.put("<circle class=\"c");
  w.count(m.colour);
  if (m.kind != MarkKind::plain) {
    w.put(" ");
    w.put(std::string_view(mark_class(m.kind)));
  }
  w.put("\"");
  if (arrow) {
    w.attribute(" x1=\"", m.from_x);
    w.attribute(" y1=\"", m.from_y);
    w.attribute(" x2=\"", m.at_x);
    w.attribute(" y2=\"", m.at_y);
  } else {
    w.attribute(" cx=\"", m.at_x);
    w.attribute(" cy=\"", m.at_y);
    if (m.kind == MarkKind::plain || m.kind == MarkKind::kept)
      w.put(" r=\"2.5\"");
    else
      w.put(" r=\"4\"");
  }
  // Keys are hex digits, `x` and `@`: nothing in them needs escaping.
  w.put(" data-key=\"");
  w.key(p);
  w.put("\" data-index=\"");
  w.count(p.index);
  w.put("\"><title>");
  w.key(p);
  w.put(" instance ");
  w.count(p.index);
  if (const std::string& datafile = datafiles.at(p.datafile); !datafile.empty()) {
    w.put(" in ");
    w.put(datafile);
  }
  if (p.has_shows) {
    w.put(", shows ");
    w.id(p.shows, p.id_width);
  }
  w.put(": x ");
  w.level_number(p.x);
  w.put(", y ");
  w.level_number(p.y);
  w.put(", z ");
  w.level_number(p.z);
  if (m.kind != MarkKind::plain && m.kind != MarkKind::unplaced) {
    w.put(" (");
    w.put(std::string_view(mark_class(m.kind)));
    w.put(")");
  }
  if (arrow)
    w.put("</title></line>\n");
  else
    w.put("</title></circle>\n");
}

// The scene's data files' names as a title holds them.
std::vector<std::string> escaped_datafiles(const MapScene& scene) {
  std::vector<std::string> out;
  if (scene.datafiles)
    for (const std::string& name : *scene.datafiles) append_xml_escaped(out.emplace_back(), name);
  return out;
}

}  // namespace

void append_xml_escaped(std::string& out, std::string_view text) {
  // Most text (keys, names) holds nothing to escape: it is appended whole.
  if (std::all_of(text.begin(), text.end(), [](char c) {
        return c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'';
      })) {
    out.append(text);
    return;
  }
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&apos;";
        ++i;
        continue;
      default:
        break;
    }
    const std::size_t n = utf8_length(text, i);
    // XML 1.0 holds no C0 control character but tab and the line ends, and only valid UTF-8.
    if (n == 0 || (n == 1 && static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
}

namespace {

// Everything before the marks.
std::string svg_head(const MapScene& scene) {
  std::string out;
  const MapOptions& o = scene.options;
  absl::StrAppend(
      &out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", o.width,
      "\" height=\"", o.height, "\" viewBox=\"0 0 ", o.width, " ", o.height,
      "\" font-family=\"sans-serif\" font-size=\"12\">\n<title>anvilrt map: ", counted(scene.marks.size(), "instance"),
      "</title>\n");
  append_style(out, scene);
  absl::StrAppend(&out, "<rect width=\"", o.width, "\" height=\"", o.height, "\" fill=\"#fff\"/>\n");
  append_axes(out, scene);
  append_legend(out, scene);
  absl::StrAppend(&out, "<g id=\"marks\" data-origin-x=\"", absl::StrFormat("%.17g", scene.origin_x),
                  "\" data-origin-y=\"", absl::StrFormat("%.17g", scene.origin_y), "\" data-scale=\"",
                  absl::StrFormat("%.17g", scene.scale), "\">\n");
  return out;
}

constexpr const char* kSvgTail = "</g>\n</svg>\n";
constexpr std::size_t kChunk = 4096;         // marks rendered at a time by one thread (about 850 KB of text)
constexpr std::size_t kWindowPerThread = 8;  // chunks rendered ahead of the writes, per thread

}  // namespace

bool write_map_svg(const MapScene& scene, std::FILE* out, unsigned threads) {
  auto put = [&](std::string_view text) { return std::fwrite(text.data(), 1, text.size(), out) == text.size(); };
  if (!put(svg_head(scene))) return false;
  threads = std::max(1u, threads);
  const std::size_t chunks = (scene.marks.size() + kChunk - 1) / kChunk;
  const std::vector<std::string> datafiles = escaped_datafiles(scene);
  // Chunks rendered on the threads while this one writes those done, in order; a window of them at a
  // time, so that no more than a window's text waits for the writes (the text is never held whole).
  const std::size_t window = kWindowPerThread * threads;
  bool written = true;
  // The chunks' buffers are used again once written: fresh memory costs a page fault and a zeroed page
  // per 4 KiB, about as much as the text itself.
  std::vector<std::string> spare;
  std::mutex spare_mutex;
  for (std::size_t first = 0; first < chunks && written; first += window) {
    for_each_index_in_order<std::string>(
        std::min(window, chunks - first), threads,
        [&](std::size_t k) {
          std::string chunk;
          {
            std::lock_guard lock(spare_mutex);
            if (!spare.empty()) {
              chunk = std::move(spare.back());
              spare.pop_back();
            }
          }
          chunk.clear();
          chunk.reserve(kChunk * 224);
          const std::size_t begin = (first + k) * kChunk, end = std::min(scene.marks.size(), begin + kChunk);
          for (std::size_t i = begin; i < end; ++i) append_mark(chunk, scene.marks[i], datafiles);
          return chunk;
        },
        [&](std::size_t, std::string& chunk) {
          written = written && put(chunk);
          std::lock_guard lock(spare_mutex);
          spare.push_back(std::move(chunk));
        });
  }
  return written && put(kSvgTail);
}

std::string render_map_svg(const MapScene& scene) {
  std::string out = svg_head(scene);
  const std::vector<std::string> datafiles = escaped_datafiles(scene);
  for (const Mark& m : scene.marks) append_mark(out, m, datafiles);
  out += kSvgTail;
  return out;
}

}  // namespace anvil::view
