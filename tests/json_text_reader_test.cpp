// The fast JSON reader (reader/json_text_reader.hpp) against the general one (JsonReader over a
// RapidJSON document): on the writer's own text it reads every object, to the same bytes; wherever it
// departs it stops, and it never accepts what the general reader refuses.
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>

#include <bit>
#include <random>

#include "gen/generator.hpp"
#include "reader/carver.hpp"
#include "reader/object_json.hpp"
#include "test_support.hpp"
#include "writer/encode.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/object_json.hpp"

namespace anvil {
namespace {

std::string object_text(const Extent& extent, const Object& object) {
  rapidjson::StringBuffer buffer;
  JsonTextHandler<rapidjson::StringBuffer> handler(buffer);
  JsonWriter<JsonTextHandler<rapidjson::StringBuffer>> w(handler);
  write_object_value(w, extent, object);
  return {buffer.GetString(), buffer.GetSize()};
}

// The encoding read by the fast reader, or nothing when it stops.
std::optional<std::vector<u8>> fast(std::string_view text, Game game) {
  Object object;
  u64 offset = 0, length = 0;
  JsonTextReader reader(text);
  if (!read_object_json(reader, game, object, offset, length) || reader.peek() != '\0') return std::nullopt;
  std::vector<u8> out;
  encode_object(object, out);
  return out;
}

// The encoding read by the general reader, or nothing when it refuses.
std::optional<std::vector<u8>> general(const std::string& text, Game game) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  if (doc.HasParseError()) return std::nullopt;
  Object object;
  if (read_object_json(doc, game, "", object)) return std::nullopt;
  std::vector<u8> out;
  encode_object(object, out);
  return out;
}

// Every object of `bytes` reads back through the fast reader to its own bytes.
void ExpectEveryObjectReadsFast(std::span<const u8> bytes, Game game) {
  Carver carver(bytes, game);
  Object object;
  std::size_t n = 0;
  while (auto extent = carver.next(object)) {
    std::string text = object_text(*extent, object);
    auto got = fast(text, game);
    ASSERT_TRUE(got.has_value()) << "object at " << extent->offset << ": " << text.substr(0, 200);
    auto original = bytes.subspan(extent->offset, extent->length);
    ASSERT_EQ(*got, std::vector<u8>(original.begin(), original.end())) << "object at " << extent->offset;
    ++n;
  }
  EXPECT_GT(n, 0u);
}

TEST(JsonTextReader, ReadsEveryCorpusObject) {
  for (const char* folder : {"ac2", "sws"})
    for (const auto& path : test::corpus_files(folder))
      ExpectEveryObjectReadsFast(test::read_file(path), std::string_view(folder) == "ac2" ? Game::ac2 : Game::sws);
}

TEST(JsonTextReader, ReadsEveryGeneratedObject) {
  for (Game game : {Game::ac2, Game::sws}) {
    gen::Options options;
    options.game = game;
    options.visuals = 300;
    options.seed = 7;
    ExpectEveryObjectReadsFast(gen::generate_bytes(options), game);
  }
}

// The JSON text of an object with an instance, for the departure tests.
std::string first_object_text() {
  auto bytes = test::read_file(test::corpus("ac2/direct_mesh.bin"));
  Carver carver(bytes, Game::ac2);
  Object object;
  auto extent = carver.next(object);
  EXPECT_TRUE(extent.has_value());
  return object_text(*extent, object);
}

TEST(JsonTextReader, StopsWhereTheTextDepartsAndTheGeneralReaderDecides) {
  const std::string text = first_object_text();
  ASSERT_TRUE(fast(text, Game::ac2));
  const auto want = general(text, Game::ac2);
  ASSERT_TRUE(want);
  auto replaced = [&](std::string_view from, std::string_view to) {
    std::string t = text;
    auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  // Same meaning, another spelling: the fast reader stops, the general one reads the same object.
  // Whitespace is fine, before a top-level key and around a nested one: the same bytes.
  for (const std::string& spaced : {replaced(",\"length\"", " ,\n\t\"length\""),
                                    replaced(",\"shader_constants\":3", " , \"shader_constants\" :\r3")})
    EXPECT_EQ(fast(spaced, Game::ac2), want) << spaced.substr(0, 80);
  std::string escaped = replaced("\"length\"", "\"l\\u0065ngth\"");
  std::string unknown = replaced("{\"offset\"", "{\"zz\":0,\"offset\"");
  std::size_t comma = text.find(',');  // {"offset":N,"length":M,... -> {"length":M,"offset":N,...
  std::size_t next = text.find(',', comma + 1);
  std::string reordered =
      "{" + text.substr(comma + 1, next - comma - 1) + "," + text.substr(1, comma - 1) + text.substr(next);
  for (const std::string& t : {escaped, reordered}) {
    EXPECT_FALSE(fast(t, Game::ac2)) << t.substr(0, 80);
    EXPECT_EQ(general(t, Game::ac2), want);
  }
  // Refused by both.
  EXPECT_FALSE(fast(unknown, Game::ac2));
  EXPECT_FALSE(general(unknown, Game::ac2));
  for (const std::string& t :
       {text.substr(0, text.size() - 1), text + "}", replaced("\"class\":\"Visual\"", "\"class\":\"Vis\""),
        replaced("\"shader_constants\":3", "\"shader_constants\":4"),
        replaced("\"shader_constants\":3", "\"shader_constants\":3.0"),
        replaced("\"shader_constants\":3", "\"shader_constants\":03"), replaced("\"managed\":0", "\"managed\":256"),
        replaced("\"instance\":{", "\"instance\":null,\"x\":{")}) {
    EXPECT_FALSE(fast(t, Game::ac2)) << t.substr(0, 80);
    EXPECT_FALSE(general(t, Game::ac2)) << t.substr(0, 80);  // a refusal, not a stricter reader
  }
}

// A structure of one f32 and one u8, for the number forms.
struct Numbers {
  f32 x = 0;
  u8 b = 0;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar& make_nvp("x", x);
    ar& make_nvp("b", b);
  }
};

std::optional<std::pair<u32, u8>> fast_numbers(const std::string& text) {
  Numbers n;
  JsonTextReader reader(text);
  reader.object([&] { n.serialize(reader, 0); });
  if (!reader.ok() || reader.peek() != '\0') return std::nullopt;
  return std::pair{std::bit_cast<u32>(n.x), n.b};
}

std::optional<std::pair<u32, u8>> general_numbers(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  if (doc.HasParseError()) return std::nullopt;
  Numbers n;
  JsonReader reader;
  reader.fields(doc, n);
  if (!reader.ok()) return std::nullopt;
  return std::pair{std::bit_cast<u32>(n.x), n.b};
}

TEST(JsonTextReader, NumbersReadAsTheGeneralReaderReadsThem) {
  std::vector<std::string> forms = {"0",
                                    "-0",
                                    "-0.0",
                                    "0.0",
                                    "1",
                                    "-1",
                                    "0.1",
                                    "1e5",
                                    "1E+5",
                                    "1e-5",
                                    "-2.5e-3",
                                    "3.4028235e38",
                                    "3.4028236e38",
                                    "3.40282357e38",
                                    "1e39",
                                    "1e-46",
                                    "1.4e-45",
                                    "1e400",
                                    "0e5",
                                    "00",
                                    "01",
                                    "1.",
                                    ".5",
                                    "+1",
                                    "1e",
                                    "-",
                                    "9999999999999999999",
                                    "18446744073709551615",
                                    "123456789012345678901",
                                    "0.30000001192092896",
                                    "1.5e-7",
                                    "123.456e3",
                                    "0.000001",
                                    "4.2e22",
                                    "4.2e23",
                                    "1e-22",
                                    "1e-23",
                                    "9007199254740993",
                                    "9007199254740992e-22",
                                    "9007199254740992e-23",
                                    "1e00005",
                                    "1e-99999",
                                    "-1.17549435e-38",
                                    "\"f32:0x7fc00000\"",
                                    "\"f32:0x7f80000\"",
                                    "\"0.5\"",
                                    "null",
                                    "true"};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 3000; ++i) {
    double d = std::bit_cast<double>(rng());
    if (!std::isfinite(d)) continue;
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific, 1 + i % 19);
    forms.emplace_back(buf, end);
    float f = std::bit_cast<float>(static_cast<u32>(rng()));
    if (!std::isfinite(f)) continue;
    auto [end2, ec2] = std::to_chars(buf, buf + sizeof buf, f);
    forms.emplace_back(buf, end2);
  }
  // Around the fast path (at most 2^53 in the digits, a power of ten within 10^±22) and across its
  // edges: digits up to 2^54, powers up to 10^±25, as an exponent and as a decimal point; and the
  // shortest spellings of floats of every magnitude the corpus holds.
  for (int i = 0; i < 3000; ++i) {
    u64 digits = rng() % (u64{1} << (1 + i % 54));
    int power = static_cast<int>(rng() % 51) - 25;
    std::string whole = std::to_string(digits);
    forms.push_back(whole + "e" + std::to_string(power));
    std::size_t point = rng() % (whole.size() + 1);
    if (point < whole.size() && (point > 1 || whole[0] != '0'))
      forms.push_back(whole.substr(0, point == 0 ? 1 : point) + "." + whole.substr(point == 0 ? 1 : point));
    float f = static_cast<float>(static_cast<double>(static_cast<std::int64_t>(rng() % 2'000'000) - 1'000'000) /
                                 static_cast<double>(u64{1} << (rng() % 20)));
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f);
    forms.emplace_back(buf, end);
  }
  std::size_t read = 0;
  for (const std::string& x : forms) {
    for (const char* b : {"7", "255", "256", "-0", "1.0", "07"}) {
      std::string text = "{\"x\":" + x + ",\"b\":" + b + "}";
      auto got = fast_numbers(text);
      if (!got) continue;
      ++read;
      EXPECT_EQ(got, general_numbers(text)) << text;
    }
  }
  EXPECT_GT(read, 20000u);
}

}  // namespace
}  // namespace anvil
