// `anvilrt map` through the binary: one mark per instance of every corpus file (the instances counted from
// `dump`, not from the map's own reading), the arrow of a moved instance at the dump's positions, the
// classes of added and removed instances, the PNG's size and pixels, the errors; the map of a game folder
// and of a folder's patch; and the library's two readings of a level file agreeing.
#include <gtest/gtest.h>
#include <png.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "gen/generator.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"
#include "view/map_png.hpp"
#include "view/map_scene.hpp"
#include "view/map_svg.hpp"
#include "view/one_level_set.hpp"
#include "view/placed_instances.hpp"

namespace anvil::test {
namespace {

// One mark of a map, as its SVG element says.
struct MapMark {
  std::string element, classes, key, title;
  std::size_t index = 0;
  std::map<std::string, double> numbers;  // cx, cy, x1, ...
};

struct ParsedMap {
  std::vector<MapMark> marks;
  double origin_x = 0, origin_y = 0, scale = 0;
};

ParsedMap parse_map(const std::string& svg) {
  ParsedMap map;
  static const std::regex frame(R"re(data-origin-x="([^"]+)" data-origin-y="([^"]+)" data-scale="([^"]+)")re");
  std::smatch m;
  EXPECT_TRUE(std::regex_search(svg, m, frame)) << "no frame on the marks group";
  if (!m.empty()) map.origin_x = std::stod(m[1]), map.origin_y = std::stod(m[2]), map.scale = std::stod(m[3]);
  static const std::regex mark(
      R"re(<(circle|line) class="([^"]*)"([^>]*) data-key="([^"]*)" data-index="(\d+)"><title>([^<]*)</title>)re");
  static const std::regex number(R"re((\w+)="(-?[0-9.]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), mark); it != std::sregex_iterator(); ++it) {
    MapMark k{(*it)[1], (*it)[2], (*it)[4], (*it)[6], std::stoull((*it)[5]), {}};
    const std::string attributes = (*it)[3];
    for (auto n = std::sregex_iterator(attributes.begin(), attributes.end(), number); n != std::sregex_iterator(); ++n)
      k.numbers[(*n)[1]] = std::stod((*n)[2]);
    map.marks.push_back(std::move(k));
  }
  return map;
}

bool has_class(const MapMark& m, const std::string& c) {
  return (" " + m.classes + " ").find(" " + c + " ") != std::string::npos;
}

// (data file, key, index) of every instance the dump shows: each object whose "instance" holds an
// "instances" array (FORMAT.md 2.2, 2.3, 3.2), one per element.
using InstanceId = std::tuple<std::string, std::string, std::size_t>;

void count_objects(const rapidjson::Value& objects, const std::string& datafile, std::multiset<InstanceId>& out) {
  for (auto o = objects.MemberBegin(); o != objects.MemberEnd(); ++o) {
    auto instance = o->value.FindMember("instance");
    if (instance == o->value.MemberEnd() || !instance->value.IsObject()) continue;
    auto list = instance->value.FindMember("instances");
    if (list == instance->value.MemberEnd()) continue;
    for (rapidjson::SizeType n = 0; n < list->value.Size(); ++n) out.insert({datafile, o->name.GetString(), n});
  }
}

std::multiset<InstanceId> dumped_instances(const std::string& file, rapidjson::Document& doc) {
  CliResult dump = run_cli({"dump", file, "-q"});
  EXPECT_EQ(dump.exit_code, 0) << file << ": " << dump.err;
  doc.Parse(dump.out.c_str());
  EXPECT_FALSE(doc.HasParseError()) << file;
  std::multiset<InstanceId> out;
  if (doc.HasMember("datafiles")) {
    for (auto d = doc["datafiles"].MemberBegin(); d != doc["datafiles"].MemberEnd(); ++d)
      count_objects(d->value["objects"], d->name.GetString(), out);
  } else {
    count_objects(doc["objects"], "", out);
  }
  return out;
}

// The data file a mark's title names ("KEY instance N in NAME, shows …"), "" for none.
std::string title_datafile(const MapMark& m) {
  static const std::regex in(R"re( instance \d+ in (.*?)(, shows |: x ))re");
  std::smatch s;
  return std::regex_search(m.title, s, in) ? std::string(s[1]) : std::string();
}

std::vector<std::string> corpus_inputs() {
  std::vector<std::string> files = corpus_files("ac2");
  for (const std::string& f : corpus_files("sws")) files.push_back(f);
  for (const auto& entry : std::filesystem::directory_iterator(corpus("forge")))
    if (entry.path().extension() == ".forge") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Map, EveryCorpusInstanceHasExactlyOneMark) {
  TempDir dir;
  std::size_t total = 0;
  for (const std::string& file : corpus_inputs()) {
    SCOPED_TRACE(file);
    rapidjson::Document doc;
    std::multiset<InstanceId> want = dumped_instances(file, doc);
    CliResult map = run_cli({"map", file, "-o", dir.path("map.svg"), "-q"});
    ASSERT_EQ(map.exit_code, 0) << map.err;
    ParsedMap got = parse_map(read_text(dir.path("map.svg")));
    std::multiset<InstanceId> found;
    for (const MapMark& m : got.marks) {
      EXPECT_EQ(m.title.rfind(m.key + " instance " + std::to_string(m.index), 0), 0u) << m.title;
      found.insert({title_datafile(m), m.key, m.index});
    }
    EXPECT_EQ(found, want);
    total += want.size();
  }
  EXPECT_GT(total, 10u);  // the corpus places instances: the comparison above is not of two empty sets
}

// A dump's number (or nothing for a NaN or infinity, spelled as a string).
std::optional<double> number(const rapidjson::Value& v) {
  if (v.IsNumber()) return v.GetDouble();
  return std::nullopt;
}

TEST(Map, PatchMovingOneInstanceDrawsOneArrowFromItsOldPlace) {
  TempDir dir;
  const std::string file = corpus("ac2/lod_selector_slots.bin");
  rapidjson::Document doc;
  dumped_instances(file, doc);
  // The first object with a finite instance 0.
  std::string key;
  double x = 0, y = 0;
  for (auto o = doc["objects"].MemberBegin(); o != doc["objects"].MemberEnd() && key.empty(); ++o) {
    auto instance = o->value.FindMember("instance");
    if (instance == o->value.MemberEnd() || !instance->value.IsObject() || !instance->value.HasMember("instances"))
      continue;
    const auto& list = instance->value["instances"];
    if (list.Empty()) continue;
    auto px = number(list[0][12]), py = number(list[0][13]);
    if (px && py) key = o->name.GetString(), x = *px, y = *py;
  }
  ASSERT_FALSE(key.empty());
  const double nx = x + 24, ny = y - 16;  // exact in f32 for the corpus's values
  const std::string at = "/objects/" + key + "/instance/instances/0/";
  const std::string patch = "[{\"op\":\"replace\",\"path\":\"" + at + "12\",\"value\":" + std::to_string(nx) +
                            "},{\"op\":\"replace\",\"path\":\"" + at + "13\",\"value\":" + std::to_string(ny) + "}]";
  write_file(dir.path("move.json"), std::span<const u8>(reinterpret_cast<const u8*>(patch.data()), patch.size()));
  CliResult map = run_cli({"map", file, "--patch", dir.path("move.json"), "-o", dir.path("map.svg"), "-q"});
  ASSERT_EQ(map.exit_code, 0) << map.err;
  ParsedMap got = parse_map(read_text(dir.path("map.svg")));
  std::vector<const MapMark*> moved;
  for (const MapMark& m : got.marks) {
    if (has_class(m, "moved")) moved.push_back(&m);
    EXPECT_FALSE(has_class(m, "added") || has_class(m, "removed")) << m.title;
  }
  ASSERT_EQ(moved.size(), 1u);
  const MapMark& arrow = *moved[0];
  EXPECT_EQ(arrow.element, "line");
  EXPECT_EQ(arrow.key, key);
  EXPECT_EQ(arrow.index, 0u);
  // The frame of the marks' group, applied to the dump's numbers; coordinates are rounded to 0.1.
  EXPECT_NEAR(arrow.numbers.at("x1"), got.origin_x + got.scale * x, 0.051);
  EXPECT_NEAR(arrow.numbers.at("y1"), got.origin_y - got.scale * y, 0.051);
  EXPECT_NEAR(arrow.numbers.at("x2"), got.origin_x + got.scale * nx, 0.051);
  EXPECT_NEAR(arrow.numbers.at("y2"), got.origin_y - got.scale * ny, 0.051);
  // Every other instance is drawn once, faded.
  std::size_t kept = 0;
  for (const MapMark& m : got.marks) kept += has_class(m, "kept");
  EXPECT_EQ(kept + 1, got.marks.size());
}

TEST(Map, DuplicatedAndRemovedInstancesAreMarked) {
  TempDir dir;
  const std::string archive = corpus("forge/ac2_five_forms.forge");
  rapidjson::Document doc;
  const std::multiset<InstanceId> before = dumped_instances(archive, doc);
  const std::string duplicate =
      R"([{"op": "duplicate_instance", "objects": ["0xa7f13e8d804b9c06"], "index": 0, "translate": [7, 9, 10]}])";
  const std::string remove = R"([{"op": "remove_instance", "objects": ["0xa7f13e8d804b9c06"], "index": 0}])";
  write_file(dir.path("dup.json"),
             std::span<const u8>(reinterpret_cast<const u8*>(duplicate.data()), duplicate.size()));
  write_file(dir.path("rm.json"), std::span<const u8>(reinterpret_cast<const u8*>(remove.data()), remove.size()));

  CliResult map = run_cli({"map", archive, "--patch", dir.path("dup.json"), "-o", dir.path("dup.svg"), "-q"});
  ASSERT_EQ(map.exit_code, 0) << map.err;
  ParsedMap got = parse_map(read_text(dir.path("dup.svg")));
  std::vector<const MapMark*> added;
  for (const MapMark& m : got.marks) {
    if (has_class(m, "added")) added.push_back(&m);
    EXPECT_FALSE(has_class(m, "moved") || has_class(m, "removed")) << m.title;
  }
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0]->key, "0xa7f13e8d804b9c06");
  EXPECT_EQ(added[0]->index, 1u);  // appended
  EXPECT_EQ(got.marks.size(), before.size() + 1);

  // Removed: its one instance is gone, marked where it was.
  map = run_cli({"map", archive, "--patch", dir.path("rm.json"), "-o", dir.path("rm.svg"), "-q"});
  ASSERT_EQ(map.exit_code, 0) << map.err;
  got = parse_map(read_text(dir.path("rm.svg")));
  std::vector<const MapMark*> removed;
  for (const MapMark& m : got.marks) {
    if (has_class(m, "removed")) removed.push_back(&m);
    EXPECT_FALSE(has_class(m, "moved") || has_class(m, "added")) << m.title;
  }
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0]->key, "0xa7f13e8d804b9c06");
  EXPECT_EQ(removed[0]->index, 0u);
  EXPECT_EQ(got.marks.size(), before.size());

  // The patches apply in order, each to what the one before left: the copy added, then removed again.
  const std::string remove_copy = R"([{"op": "remove_instance", "objects": ["0xa7f13e8d804b9c06"], "index": 1}])";
  write_file(dir.path("rm1.json"),
             std::span<const u8>(reinterpret_cast<const u8*>(remove_copy.data()), remove_copy.size()));
  map = run_cli(
      {"map", archive, "--patch", dir.path("dup.json"), dir.path("rm1.json"), "-o", dir.path("both.svg"), "-q"});
  ASSERT_EQ(map.exit_code, 0) << map.err;
  got = parse_map(read_text(dir.path("both.svg")));
  EXPECT_EQ(got.marks.size(), before.size());
  for (const MapMark& m : got.marks) EXPECT_TRUE(has_class(m, "kept")) << m.title;
}

// Decodes a PNG through libpng's simplified API: width, height and RGB pixels.
struct Picture {
  unsigned width = 0, height = 0;
  std::vector<u8> rgb;
};
std::optional<Picture> decode_png(const std::vector<u8>& bytes) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size())) return std::nullopt;
  image.format = PNG_FORMAT_RGB;
  Picture p{image.width, image.height, std::vector<u8>(PNG_IMAGE_SIZE(image))};
  if (!png_image_finish_read(&image, nullptr, p.rgb.data(), 0, nullptr)) return std::nullopt;
  return p;
}

TEST(Map, PngIsOfTheRequestedSizeAndMarksDifferFromTheBackground) {
  TempDir dir;
  const std::string file = corpus("ac2/lod_selector_slots.bin");
  CliResult png = run_cli({"map", file, "--png", "--width", "420", "--height", "300", "-o", dir.path("map.png"), "-q"});
  if (!view::png_maps_available()) {
    EXPECT_NE(png.exit_code, 0);
    EXPECT_NE(png.err.find("--png: this build of anvilrt draws no PNG"), std::string::npos) << png.err;
    EXPECT_EQ(std::count(png.err.begin(), png.err.end(), '\n'), 1) << png.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path("map.png")));
    GTEST_SKIP() << "this build has no Anti-Grain Geometry (view::png_maps_available()): --png refused in one line";
  }
  ASSERT_EQ(png.exit_code, 0) << png.err;
  CliResult svg = run_cli({"map", file, "--width", "420", "--height", "300", "-o", dir.path("map.svg"), "-q"});
  ASSERT_EQ(svg.exit_code, 0) << svg.err;
  const std::vector<u8> bytes = read_file(dir.path("map.png"));
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8), 0);
  auto picture = decode_png(bytes);
  ASSERT_TRUE(picture);
  EXPECT_EQ(picture->width, 420u);
  EXPECT_EQ(picture->height, 300u);
  // Where the SVG puts a mark, the PNG is not the plot's background (#fcfcfc) nor white.
  ParsedMap map = parse_map(read_text(dir.path("map.svg")));
  ASSERT_FALSE(map.marks.empty());
  std::size_t checked = 0;
  for (const MapMark& m : map.marks) {
    if (!m.numbers.count("cx") || has_class(m, "unplaced")) continue;
    const auto px = static_cast<std::size_t>(m.numbers.at("cx")), py = static_cast<std::size_t>(m.numbers.at("cy"));
    ASSERT_LT(px, 420u);
    ASSERT_LT(py, 300u);
    const u8* rgb = &picture->rgb[(py * 420 + px) * 3];
    const bool background =
        (rgb[0] == 0xfc && rgb[1] == 0xfc && rgb[2] == 0xfc) || (rgb[0] == 0xff && rgb[1] == 0xff && rgb[2] == 0xff);
    EXPECT_FALSE(background) << m.title << " at " << px << "," << py;
    ++checked;
  }
  EXPECT_GT(checked, 0u);
  // The plot's background is there too (the marks are not all the picture).
  std::size_t background = 0;
  for (std::size_t i = 0; i + 2 < picture->rgb.size(); i += 3)
    background += picture->rgb[i] == 0xfc && picture->rgb[i + 1] == 0xfc && picture->rgb[i + 2] == 0xfc;
  EXPECT_GT(background, 1000u);
}

TEST(Map, ErrorsAreOneLineNamingTheFile) {
  TempDir dir;
  const std::string file = corpus("ac2/lod_selector_slots.bin");
  CliResult r = run_cli({"map", file, "--objects", "0x00000000deadbeef", "-o", dir.path("m.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("anvilrt: " + file + ": --objects 0x00000000deadbeef", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_FALSE(std::filesystem::exists(dir.path("m.svg")));

  const std::string bad = R"([{"op": "replace", "path": "/objects/0x0000000000000001/active", "value": 1}])";
  write_file(dir.path("bad.json"), std::span<const u8>(reinterpret_cast<const u8*>(bad.data()), bad.size()));
  r = run_cli({"map", file, "--patch", dir.path("bad.json"), "-o", dir.path("m.svg")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("anvilrt: " + dir.path("bad.json") + ": op 0", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("m.svg")));

  r = run_cli({"map", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing -o OUT"), std::string::npos) << r.err;
}

TEST(Map, ObjectsNarrowTheMarks) {
  TempDir dir;
  const std::string file = corpus("forge/ac2_v27.forge");
  rapidjson::Document doc;
  std::multiset<InstanceId> all = dumped_instances(file, doc);
  ASSERT_FALSE(all.empty());
  const std::string key = std::get<1>(*all.begin());
  CliResult r = run_cli({"map", file, "--objects", key, "-o", dir.path("m.svg"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ParsedMap got = parse_map(read_text(dir.path("m.svg")));
  const auto of_key = std::count_if(all.begin(), all.end(), [&](const InstanceId& i) { return std::get<1>(i) == key; });
  EXPECT_EQ(static_cast<std::ptrdiff_t>(got.marks.size()), of_key);
  EXPECT_LT(got.marks.size(), all.size());
  for (const MapMark& m : got.marks) EXPECT_EQ(m.key, key);
}

// An object whose count of instances changed pairs equal positions: removing the middle one of three is
// one removal, not two moves and a removal; with the same count, a changed position is a move.
TEST(Map, InstancesArePairedByPositionWhenTheCountChanges) {
  auto at = [](std::size_t n, double x) {
    view::PlacedInstance p{.id = 1, .shows = 9, .index = n, .x = x, .y = 2 * x, .has_shows = true};
    return p;
  };
  view::PlacedInstances before{{""}, {at(0, 1), at(1, 5), at(2, 9)}, {}};
  view::PlacedInstances after{{""}, {at(0, 1), at(1, 9)}, {}};
  view::MapScene scene = view::build_map_scene(before, &after, {});
  ASSERT_EQ(scene.marks.size(), 3u);
  EXPECT_EQ(scene.removed, 1u);
  EXPECT_EQ(scene.moved, 0u);
  for (const view::Mark& m : scene.marks)
    if (m.kind == view::MarkKind::removed) {
      EXPECT_EQ(m.instance->x, 5);
    }

  after.records = {at(0, 1), at(1, 6), at(2, 9)};
  scene = view::build_map_scene(before, &after, {});
  EXPECT_EQ(scene.moved, 1u);
  EXPECT_EQ(scene.removed + scene.added, 0u);
}

// An instance whose x or y is not finite still has its one mark, in the row under the plot.
TEST(Map, InstancesThatCannotBePlacedKeepTheirMark) {
  view::PlacedInstances placed{{""},
                               {{.id = 1, .index = 0, .x = 1, .y = 2, .z = 3},
                                {.id = 1, .index = 1, .x = std::nan(""), .y = 2, .z = 3},
                                {.id = 2, .index = 0, .x = 4, .y = INFINITY, .z = 3}},
                               {}};
  view::MapScene scene = view::build_map_scene(placed, nullptr, {});
  EXPECT_EQ(scene.unplaced, 2u);
  for (const view::Mark& m : scene.marks) {
    EXPECT_TRUE(std::isfinite(m.at_x) && std::isfinite(m.at_y));
    if (m.kind == view::MarkKind::unplaced)
      EXPECT_GT(m.at_y, scene.plot_bottom);
    else
      EXPECT_LT(m.at_y, scene.plot_bottom);
  }
  ParsedMap map = parse_map(view::render_map_svg(scene));
  ASSERT_EQ(map.marks.size(), 3u);
  EXPECT_EQ(
      std::count_if(map.marks.begin(), map.marks.end(), [](const MapMark& m) { return has_class(m, "unplaced"); }), 2);
}

TEST(Map, XmlEscapesWhatComesFromTheData) {
  std::string out;
  view::append_xml_escaped(out, std::string("a<b>&\"'\x01\xff\xc3\xa9", 11));
  EXPECT_EQ(out, "a&lt;b&gt;&amp;&quot;&apos;\xEF\xBF\xBD\xEF\xBF\xBD\xc3\xa9");
}

// The split reading of a level file (all threads, objects visited as carved) and the set's reading (carved,
// then each object parsed) give the same records, repeated ids' keys included.
TEST(Map, LevelFileReadInPartsEqualsTheSetReading) {
  gen::Options options;
  options.game = Game::ac2;
  options.visuals = 6000;
  options.seed = 7;
  std::vector<u8> bytes = gen::generate_bytes(options);
  ASSERT_GT(bytes.size(), std::size_t{3} << 20);  // several parts of at least 1 MiB
  // A repeated id: the first object's bytes again at the end, in another part than the first.
  {
    Level level = carve_level(bytes, Game::ac2);
    auto first = std::find_if(level.pieces.begin(), level.pieces.end(), [&](const Piece& p) {
      std::vector<view::PlacedInstance> placed;
      if (p.is_object()) view::append_instances(parse_piece(level, p), placed);
      return !placed.empty();
    });
    ASSERT_NE(first, level.pieces.end());
    std::vector<u8> copy(bytes.begin() + static_cast<std::ptrdiff_t>(first->offset),
                         bytes.begin() + static_cast<std::ptrdiff_t>(first->offset + first->length));
    bytes.insert(bytes.end(), copy.begin(), copy.end());
  }
  view::OneLevelSet one(bytes, Source{}, Game::ac2);
  auto from_set = view::placed_instances(one, 2);
  ASSERT_TRUE(from_set.ok()) << from_set.status();
  ASSERT_GT(from_set->records.size(), 1000u);
  EXPECT_NE(view::key_of(from_set->records.back()).find('@'), std::string::npos)
      << view::key_of(from_set->records.back());
  EXPECT_EQ(view::placed_instances_in_level_file(bytes, Game::ac2, 3), *from_set);
  EXPECT_EQ(view::placed_instances_in_level_file(bytes, Game::ac2, 1), *from_set);
}

// The binary's map of a level file on three threads (the carve, the matching of its objects, the scene's
// passes and the text each in several parts) and on one: the same bytes, and the default budget's too.
TEST(Map, SameBytesWhateverTheJobs) {
  TempDir dir;
  CliResult gen = run_cli({"gen", "--game", "ac2", "--visuals", "70000", "--seed", "5", "-o", dir.path("level.bin")});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  std::string first;
  for (const char* jobs : {"1", "3", ""}) {
    std::vector<std::string> args = {"map", dir.path("level.bin"), "-o", dir.path("m.svg"), "-q"};
    if (*jobs != 0) args.insert(args.end(), {"--jobs", jobs});
    CliResult map = run_cli(args);
    ASSERT_EQ(map.exit_code, 0) << map.err;
    const std::string svg = read_text(dir.path("m.svg"));
    ASSERT_GT(parse_map(svg).marks.size(), 3u * 16384);  // several ranges of marks per thread
    if (first.empty())
      first = svg;
    else
      EXPECT_TRUE(svg == first) << "--jobs " << jobs;
  }
}

// The map of a game folder: every instance of every archive, its title naming "A.forge/NAME".
TEST(MapFolder, EveryInstanceOfEveryArchiveHasExactlyOneMark) {
  TempDir dir;
  const std::string game = dir.path("game");
  generate_game_folder(game, "ac2", {"A.forge", "B.forge"}, {1, 2});
  std::multiset<InstanceId> want;
  for (const std::string name : {"A.forge", "B.forge"}) {
    rapidjson::Document doc;
    for (const auto& [datafile, key, index] : dumped_instances(game + "/" + name, doc))
      want.insert({name + "/" + datafile, key, index});
  }
  ASSERT_GT(want.size(), 4u);
  CliResult map = run_cli({"map", game, "-o", dir.path("map.svg")});
  ASSERT_EQ(map.exit_code, 0) << map.err;
  EXPECT_EQ(map.out, dir.path("map.svg") + ": " + std::to_string(want.size()) + " instances\n");
  std::multiset<InstanceId> found;
  for (const MapMark& m : parse_map(read_text(dir.path("map.svg"))).marks)
    found.insert({title_datafile(m), m.key, m.index});
  EXPECT_EQ(found, want);
}

// The first object of an archive with a finite instance 0: its key and x, y.
std::tuple<std::string, double, double> first_placed(const std::string& archive) {
  rapidjson::Document doc;
  dumped_instances(archive, doc);
  for (auto d = doc["datafiles"].MemberBegin(); d != doc["datafiles"].MemberEnd(); ++d)
    for (auto o = d->value["objects"].MemberBegin(); o != d->value["objects"].MemberEnd(); ++o) {
      auto instance = o->value.FindMember("instance");
      if (instance == o->value.MemberEnd() || !instance->value.IsObject() || !instance->value.HasMember("instances"))
        continue;
      const auto& list = instance->value["instances"];
      if (list.Empty()) continue;
      auto x = number(list[0][12]), y = number(list[0][13]);
      if (x && y) return {o->name.GetString(), *x, *y};
    }
  return {};
}

void write_text(const std::string& path, const std::string& text) {
  write_file(path, std::span<const u8>(reinterpret_cast<const u8*>(text.data()), text.size()));
}

// A folder patch addressing an object by its key alone (/objects/KEY: the one archive holding it) draws
// one arrow, in that archive's data file; `anvilrt patch DIR` takes the same patch.
TEST(MapFolder, FolderPatchMovingOneInstanceDrawsOneArrow) {
  TempDir dir;
  const std::string game = dir.path("game");
  generate_game_folder(game, "ac2", {"A.forge", "B.forge"}, {1, 2});
  const auto [key, x, y] = first_placed(game + "/B.forge");
  ASSERT_FALSE(key.empty());
  write_text(dir.path("move.json"), "[{\"op\":\"replace\",\"path\":\"/objects/" + key +
                                        "/instance/instances/0/12\",\"value\":" + std::to_string(x + 24) + "}]");
  CliResult dry = run_cli({"patch", game, dir.path("move.json"), "--dry-run", "-q"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  CliResult map = run_cli({"map", game, "--patch", dir.path("move.json"), "-o", dir.path("map.svg"), "-q"});
  ASSERT_EQ(map.exit_code, 0) << map.err;
  ParsedMap got = parse_map(read_text(dir.path("map.svg")));
  std::vector<const MapMark*> moved;
  for (const MapMark& m : got.marks)
    if (has_class(m, "moved")) moved.push_back(&m);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0]->key, key);
  EXPECT_EQ(title_datafile(*moved[0]).rfind("B.forge/", 0), 0u) << moved[0]->title;
  EXPECT_NEAR(moved[0]->numbers.at("x1"), got.origin_x + got.scale * x, 0.051);
  EXPECT_NEAR(moved[0]->numbers.at("x2"), got.origin_x + got.scale * (x + 24), 0.051);
  EXPECT_NEAR(moved[0]->numbers.at("y2"), got.origin_y - got.scale * y, 0.051);
}

// A key two archives hold is refused by /objects/KEY with `anvilrt patch DIR`'s own line.
TEST(MapFolder, RefusesAsPatchOfTheFolderDoes) {
  TempDir dir;
  const std::string game = dir.path("game");
  generate_game_folder(game, "ac2", {"A.forge", "B.forge"}, {5, 5});
  const auto [key, x, y] = first_placed(game + "/A.forge");
  ASSERT_FALSE(key.empty());
  write_text(dir.path("p.json"),
             "[{\"op\":\"replace\",\"path\":\"/objects/" + key + "/instance/instances/0/12\",\"value\":1}]");
  CliResult patch = run_cli({"patch", game, dir.path("p.json"), "--dry-run", "-q"});
  ASSERT_EQ(patch.exit_code, 2);
  ASSERT_NE(patch.err.find("several archives"), std::string::npos) << patch.err;
  CliResult map = run_cli({"map", game, "--patch", dir.path("p.json"), "-o", dir.path("m.svg")});
  EXPECT_EQ(map.exit_code, 2);
  EXPECT_EQ(map.err, patch.err);
  EXPECT_FALSE(std::filesystem::exists(dir.path("m.svg")));
}

// Several patches of a folder apply in order, each to what the ones before it left (as `anvilrt patch DIR`
// run once per patch): the second tests the position the first gave and moves the instance on, and moves
// one of the other archive. A failing operation is named by its own patch and its index there.
TEST(MapFolder, SeveralPatchesApplyInOrder) {
  TempDir dir;
  const std::string game = dir.path("game");
  generate_game_folder(game, "ac2", {"A.forge", "B.forge"}, {1, 2});
  const auto [key, x, y] = first_placed(game + "/B.forge");
  const auto [key_a, x_a, y_a] = first_placed(game + "/A.forge");
  ASSERT_FALSE(key.empty());
  ASSERT_FALSE(key_a.empty());
  ASSERT_NE(key, key_a);
  const std::string b_x = "/objects/" + key + "/instance/instances/0/12";
  const std::string a_x = "/objects/" + key_a + "/instance/instances/0/12";
  auto op = [](const std::string& name, const std::string& path, double value) {
    return "{\"op\":\"" + name + "\",\"path\":\"" + path + "\",\"value\":" + std::to_string(value) + "}";
  };
  write_text(dir.path("first.json"), "[" + op("replace", b_x, x + 24) + "]");
  write_text(dir.path("second.json"), "[" + op("test", b_x, x + 24) + "," + op("replace", b_x, x + 48) + "," +
                                          op("replace", a_x, x_a + 10) + "]");
  CliResult map = run_cli(
      {"map", game, "--patch", dir.path("first.json"), dir.path("second.json"), "-o", dir.path("map.svg"), "-q"});
  ASSERT_EQ(map.exit_code, 0) << map.err;
  ParsedMap got = parse_map(read_text(dir.path("map.svg")));
  std::map<std::string, const MapMark*> moved;
  for (const MapMark& m : got.marks)
    if (has_class(m, "moved")) moved[m.key] = &m;
  ASSERT_EQ(moved.size(), 2u);
  ASSERT_EQ(moved.count(key), 1u);
  ASSERT_EQ(moved.count(key_a), 1u);
  EXPECT_NEAR(moved[key]->numbers.at("x1"), got.origin_x + got.scale * x, 0.051);
  EXPECT_NEAR(moved[key]->numbers.at("x2"), got.origin_x + got.scale * (x + 48), 0.051);
  EXPECT_NEAR(moved[key_a]->numbers.at("x2"), got.origin_x + got.scale * (x_a + 10), 0.051);
  EXPECT_EQ(title_datafile(*moved[key_a]).rfind("A.forge/", 0), 0u) << moved[key_a]->title;

  // The second alone tests the folder as it is, and fails there: named by its own op 0.
  map = run_cli({"map", game, "--patch", dir.path("second.json"), "-o", dir.path("m.svg")});
  EXPECT_EQ(map.exit_code, 1) << map.err;
  EXPECT_EQ(map.err.rfind("anvilrt: " + dir.path("second.json") + ": op 0 (", 0), 0u) << map.err;
  // After both, a third testing the first's position fails at its own op 1.
  write_text(dir.path("third.json"), "[" + op("replace", a_x, x_a + 11) + "," + op("test", b_x, x + 24) + "]");
  map = run_cli({"map", game, "--patch", dir.path("first.json"), dir.path("second.json"), dir.path("third.json"), "-o",
                 dir.path("m.svg")});
  EXPECT_EQ(map.exit_code, 1) << map.err;
  EXPECT_EQ(map.err.rfind("anvilrt: " + dir.path("third.json") + ": op 1 (" + b_x + ")", 0), 0u) << map.err;
  EXPECT_EQ(std::count(map.err.begin(), map.err.end(), '\n'), 1);
  EXPECT_FALSE(std::filesystem::exists(dir.path("m.svg")));
}

}  // namespace
}  // namespace anvil::test
