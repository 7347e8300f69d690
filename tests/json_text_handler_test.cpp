// The compact JSON text writer (writer/json_text_handler.hpp) prints the bytes rapidjson::Writer printed:
// escaping, separators, numbers, the f32 spellings of FORMAT.md section 4, the window it writes into, and
// JsonWriter's direct id/hex/f32 emission against the Document route that patches and diffs take.
#include "writer/json_text_handler.hpp"

#include <absl/strings/str_format.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "model/json_text.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/object_json.hpp"

namespace anvil {
namespace {

using Text = JsonTextHandler<rapidjson::StringBuffer>;

// The text handler as it was before the compact writer: rapidjson::Writer printing an exact f32 as its
// shortest form. The new one must print the same bytes for every sequence of events.
class RapidJsonTextHandler : public rapidjson::Writer<rapidjson::StringBuffer> {
  using Base = rapidjson::Writer<rapidjson::StringBuffer>;

 public:
  explicit RapidJsonTextHandler(rapidjson::StringBuffer& os) : Base(os) {}

  bool Double(double d) {
    if (std::isfinite(d) && std::fabs(d) <= std::numeric_limits<float>::max() &&
        static_cast<double>(static_cast<float>(d)) == d) {
      std::string text;
      json_text::append_f32(text, static_cast<float>(d));
      return Base::RawValue(text.data(), text.size(), rapidjson::kNumberType);
    }
    return Base::Double(d);
  }
};

// The text that `events` writes through our handler and through `Reference`.
template <class Reference = RapidJsonTextHandler, class Events>
std::pair<std::string, std::string> both(Events events) {
  rapidjson::StringBuffer ours_buffer, theirs_buffer;
  {
    Text handler(ours_buffer);
    events(handler);
  }
  Reference theirs(theirs_buffer);
  events(theirs);
  return {std::string(ours_buffer.GetString(), ours_buffer.GetSize()),
          std::string(theirs_buffer.GetString(), theirs_buffer.GetSize())};
}

// Asserts that `events` print the same through our handler, the old one and (without f32s) rapidjson::Writer.
template <class Events>
void ExpectSameAsRapidJson(Events events, const std::string& context = {}, bool plain_writer_too = true) {
  auto [o, t] = both(events);
  EXPECT_EQ(o, t) << context;
  if (plain_writer_too) {
    auto [o2, t2] = both<rapidjson::Writer<rapidjson::StringBuffer>>(events);
    EXPECT_EQ(o2, t2) << context;
  }
}

template <class Events>
std::string ours(Events events) {
  rapidjson::StringBuffer buffer;
  Text handler(buffer);
  events(handler);
  return {buffer.GetString(), buffer.GetSize()};
}

std::string string_value(const std::string& s) {
  return ours([&](auto& h) { h.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); });
}

TEST(JsonTextHandler, EscapesEveryControlCharacterAsRapidJson) {
  for (int c = 0; c < 0x20; ++c) {
    std::string s(1, static_cast<char>(c));
    ExpectSameAsRapidJson([&](auto& h) { h.String(s.data(), 1); });
    ExpectSameAsRapidJson([&](auto& h) {
      h.StartObject();
      h.Key(s.data(), 1);
      h.Uint(c);
      h.EndObject();
    });
  }
  EXPECT_EQ(string_value(std::string("\0", 1)), R"("\u0000")");
  EXPECT_EQ(string_value("\x01\x1f"), R"("\u0001\u001F")");
  EXPECT_EQ(string_value("\b\t\n\f\r"), R"("\b\t\n\f\r")");
  EXPECT_EQ(string_value("\x0b\x0e\x1a"), R"("\u000B\u000E\u001A")");
}

TEST(JsonTextHandler, EscapesQuoteAndBackslashOnly) {
  EXPECT_EQ(string_value(R"(say "hi" \o/)"), R"("say \"hi\" \\o/")");
  EXPECT_EQ(string_value("\x7f ~ /"), "\"\x7f ~ /\"");
  for (int c = 0x20; c < 0x100; ++c) {
    std::string s(1, static_cast<char>(c));
    ExpectSameAsRapidJson([&](auto& h) { h.String(s.data(), 1); });
  }
}

TEST(JsonTextHandler, NonAsciiUtf8BytesPassThrough) {
  const std::string utf8 = "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";  // é € 😀
  EXPECT_EQ(string_value(utf8), "\"" + utf8 + "\"");
  const std::string invalid = "\xff\xc3 \x80";  // not validated, as rapidjson::Writer without the flag
  EXPECT_EQ(string_value(invalid), "\"" + invalid + "\"");
  ExpectSameAsRapidJson([&](auto& h) { h.String(invalid.data(), 4); });
}

// Every length around the word size, with one character to escape at every position: the word-at-a-time
// scan and the short copies.
TEST(JsonTextHandler, EscapeAtEveryPositionOfEveryShortLength) {
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string plain(n, 'a');
    for (std::size_t i = 0; i < n; ++i) plain[i] = static_cast<char>('a' + i % 26);
    EXPECT_EQ(string_value(plain), "\"" + plain + "\"");
    for (char special : {'"', '\\', '\n', '\x01', '\x1f'}) {
      for (std::size_t at = 0; at < n; ++at) {
        std::string s = plain;
        s[at] = special;
        auto size = static_cast<rapidjson::SizeType>(s.size());
        std::string context = std::to_string(n) + " " + std::to_string(at);
        ExpectSameAsRapidJson([&](auto& h) { h.String(s.data(), size); }, context);
        ExpectSameAsRapidJson(
            [&](auto& h) {
              h.StartObject();
              h.Key(s.data(), size);
              h.Null();
              h.EndObject();
            },
            context);
      }
    }
  }
}

// Every byte value at every position of strings of the word-check lengths, among bytes that need no
// escaping (high ones included: the word check must not take them, or a borrow from them, for an escape).
TEST(JsonTextHandler, EveryByteAtEveryPositionAmongOthers) {
  for (char background : {'a', ' ', '#', ']', '\x7f', '\x80', '\xc3', '\xff'}) {
    for (std::size_t n : {4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 24u}) {
      for (int c = 0; c < 256; ++c) {
        for (std::size_t at = 0; at < n; ++at) {
          std::string s(n, background);
          s[at] = static_cast<char>(c);
          auto [o, t] = both<rapidjson::Writer<rapidjson::StringBuffer>>(
              [&](auto& h) { h.String(s.data(), static_cast<rapidjson::SizeType>(n)); });
          ASSERT_EQ(o, t) << "byte " << c << " at " << at << " of " << n;
        }
      }
    }
  }
}

TEST(JsonTextHandler, NestingAndCommas) {
  auto text = ours([](auto& h) {
    h.StartObject();
    h.Key("a");
    h.StartArray();
    h.Uint(1);
    h.StartArray();
    h.EndArray();
    h.StartObject();
    h.EndObject();
    h.StartArray();
    h.Int(-2);
    h.StartObject();
    h.Key("b");
    h.Null();
    h.Key("c");
    h.Bool(true);
    h.EndObject();
    h.EndArray();
    h.EndArray();
    h.Key("d");
    h.StartObject();
    h.EndObject();
    h.Key("e");
    h.Bool(false);
    h.EndObject();
  });
  EXPECT_EQ(text, R"({"a":[1,[],{},[-2,{"b":null,"c":true}]],"d":{},"e":false})");
  EXPECT_EQ(ours([](auto& h) { h.Uint(7); }), "7");
  EXPECT_EQ(ours([](auto& h) {
              h.StartArray();
              h.EndArray();
            }),
            "[]");
}

std::string f32_text(float f) {
  return ours([&](auto& h) { h.Double(static_cast<double>(f)); });
}

TEST(JsonTextHandler, F32ShortestForms) {
  EXPECT_EQ(f32_text(0.1f), "0.1");
  EXPECT_EQ(f32_text(0.0f), "0");
  EXPECT_EQ(f32_text(-0.0f), "-0.0");
  EXPECT_EQ(f32_text(1.0f), "1");
  EXPECT_EQ(f32_text(-2.5f), "-2.5");
  EXPECT_EQ(f32_text(92.875f), "92.875");
  EXPECT_EQ(f32_text(16777216.0f), "16777216");
  EXPECT_EQ(f32_text(FLT_MAX), "3.4028235e+38");
  EXPECT_EQ(f32_text(-FLT_MAX), "-3.4028235e+38");
  EXPECT_EQ(f32_text(FLT_MIN), "1.1754944e-38");
  EXPECT_EQ(f32_text(std::numeric_limits<float>::denorm_min()), "1e-45");
  EXPECT_EQ(f32_text(-std::numeric_limits<float>::denorm_min()), "-1e-45");
  EXPECT_EQ(f32_text(99999.0f), "99999");
  EXPECT_EQ(f32_text(100000.0f), "1e+05");
  EXPECT_EQ(f32_text(-100000.0f), "-1e+05");
  EXPECT_EQ(f32_text(99999.5f), "99999.5");
  // Whole numbers (the integer fast path and around it) as json_text::append_f32 spells them.
  for (int i = -300000; i <= 300000; ++i) {
    std::string want;
    json_text::append_f32(want, static_cast<float>(i));
    ASSERT_EQ(f32_text(static_cast<float>(i)), want) << i;
  }
  // Float(f) prints what Double(f) prints and what append_f32 prints, and reads back as the same f32.
  std::mt19937 random(7);
  for (int i = 0; i < 20000; ++i) {
    auto f = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
    if (!std::isfinite(f)) continue;
    std::string text = f32_text(f), want;
    json_text::append_f32(want, f);
    EXPECT_EQ(text, want);
    EXPECT_EQ(ours([&](auto& h) { h.Float(f); }), text);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(std::strtof(text.c_str(), nullptr)), std::bit_cast<std::uint32_t>(f))
        << text;
  }
}

TEST(JsonTextHandler, OtherDoublesAsRapidJson) {
  for (double d : {0.1, 1e300, -1e300, 5e-324, 1.7976931348623157e308, 2.5e-10, 123456789012.0, 1e21, 1e-7,
                   3.4028235677973366e38, 1.0 / 3}) {
    ExpectSameAsRapidJson([&](auto& h) { h.Double(d); }, std::to_string(d), false);
  }
  std::mt19937_64 random(11);
  for (int i = 0; i < 20000; ++i) {
    auto d = std::bit_cast<double>(random());
    if (!std::isfinite(d)) continue;
    ExpectSameAsRapidJson([&](auto& h) { h.Double(d); }, std::to_string(d), false);
  }
  // Not finite: refused, as rapidjson::Writer refuses it, the separator written all the same.
  for (double d : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    ExpectSameAsRapidJson([&](auto& h) {
      h.StartArray();
      h.Uint(1);
      EXPECT_FALSE(h.Double(d));
      h.Uint(2);
      h.EndArray();
    });
  }
}

TEST(JsonTextHandler, IntegerLimits) {
  EXPECT_EQ(ours([](auto& h) { h.Uint64(std::numeric_limits<std::uint64_t>::max()); }), "18446744073709551615");
  EXPECT_EQ(ours([](auto& h) { h.Int64(std::numeric_limits<std::int64_t>::min()); }), "-9223372036854775808");
  EXPECT_EQ(ours([](auto& h) { h.Int64(std::numeric_limits<std::int64_t>::max()); }), "9223372036854775807");
  EXPECT_EQ(ours([](auto& h) { h.Uint(std::numeric_limits<unsigned>::max()); }), "4294967295");
  EXPECT_EQ(ours([](auto& h) { h.Int(std::numeric_limits<int>::min()); }), "-2147483648");
  EXPECT_EQ(ours([](auto& h) { h.Uint64(0); }), "0");
}

TEST(JsonTextHandler, IdAndHexStrings) {
  EXPECT_EQ(ours([](auto& h) { h.IdString(0x0123456789abcdefu, 8); }), R"("0x0123456789abcdef")");
  EXPECT_EQ(ours([](auto& h) { h.IdString(0x1234, 4); }), R"("0x00001234")");
  EXPECT_EQ(ours([](auto& h) { h.IdString(~0ull, 8); }), R"("0xffffffffffffffff")");
  const u8 bytes[] = {0x00, 0x0f, 0xa5, 0xff};
  EXPECT_EQ(ours([&](auto& h) { h.HexString(bytes, 4); }), R"("000fa5ff")");
  EXPECT_EQ(ours([&](auto& h) { h.HexString(bytes, 0); }), R"("")");
}

TEST(JsonTextHandler, HexAndIdDigitsOfEveryLengthAndWidth) {
  std::mt19937_64 random(5);
  for (std::size_t size = 0; size <= 41; ++size) {
    std::vector<u8> bytes(size);
    for (u8& b : bytes) b = static_cast<u8>(random());
    std::string naive;
    for (u8 b : bytes) naive += absl::StrFormat("%02x", b);
    std::string text(2 * size, '?');
    json_text::encode_hex(text.data(), bytes.data(), size);
    EXPECT_EQ(text, naive);
    EXPECT_EQ(ours([&](auto& h) { h.HexString(bytes.data(), size); }), "\"" + naive + "\"");
  }
  for (int i = 0; i < 1000; ++i) {
    u64 value = random() >> (i % 64);
    for (std::size_t width : {1u, 2u, 4u, 8u}) {
      u64 masked = width == 8 ? value : value & ((u64{1} << (8 * width)) - 1);
      std::string want = absl::StrFormat("0x%0*x", static_cast<int>(2 * width), masked);
      EXPECT_EQ(json_text::format_id(masked, width), want);
      EXPECT_EQ(ours([&](auto& h) { h.IdString(masked, width); }), "\"" + want + "\"");
    }
  }
}

// PlainKey (a layout Key: no escaping needed) prints what rapidjson::Writer prints for the key, at
// every length copy_short treats apart (0-3, 4-7, 8-16, longer), within a window and across its growth.
TEST(JsonTextHandler, PlainKeysAsRapidJsonKeys) {
  std::vector<std::string> names = {"id", "instance_bounds", "is_an_optimized_component", "\xc3\xa9t\xc3\xa9",
                                    std::string(300, 'k')};
  for (std::size_t size = 0; size <= 40; ++size) names.push_back(std::string(size, static_cast<char>('a' + size % 26)));
  for (const std::string& name : names) {
    rapidjson::StringBuffer reference;
    rapidjson::Writer<rapidjson::StringBuffer> writer(reference);
    writer.StartObject();
    for (unsigned i = 0; i < 300; ++i) {
      writer.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
      writer.Uint(i);
    }
    writer.EndObject();
    std::string plain = ours([&](auto& h) {
      h.StartObject();
      for (unsigned i = 0; i < 300; ++i) {
        h.PlainKey(name.data(), name.size());
        h.Uint(i);
      }
      h.EndObject();
    });
    EXPECT_EQ(plain, std::string(reference.GetString(), reference.GetSize())) << name;
  }
}

// One pseudo-random document of every kind of event; the same seed gives the same events.
template <class Handler>
void random_events(Handler& h, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  auto pick = [&](int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); };
  auto text = [&] {
    std::string s(static_cast<std::size_t>(pick(3) == 0 ? pick(200) : pick(12)), 'x');
    for (char& c : s) c = static_cast<char>(pick(8) == 0 ? random() : 'a' + random() % 26);
    return s;
  };
  std::vector<bool> in_object;
  h.StartObject();
  in_object.push_back(true);
  for (int event = 0; event < 3000 || !in_object.empty(); ++event) {
    bool closing = event >= 3000 || (in_object.size() > 1 && pick(6) == 0);
    if (closing) {
      if (in_object.back())
        h.EndObject();
      else
        h.EndArray();
      in_object.pop_back();
      if (in_object.empty()) break;
      continue;
    }
    if (in_object.back()) {
      std::string key = text();
      h.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    }
    switch (pick(11)) {
      case 0:
        h.Null();
        break;
      case 1:
        h.Bool(pick(2) == 0);
        break;
      case 2:
        h.Int(static_cast<int>(random()));
        break;
      case 3:
        h.Uint(static_cast<unsigned>(random()));
        break;
      case 4:
        h.Int64(static_cast<std::int64_t>(random()) >> pick(64));
        break;
      case 5:
        h.Uint64(random() >> pick(64));
        break;
      case 6: {
        auto f = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
        h.Double(std::isfinite(f) ? f : 1.5);
        break;
      }
      case 7: {
        auto d = std::bit_cast<double>(random());
        h.Double(std::isfinite(d) ? d : -0.0);
        break;
      }
      case 8: {
        std::string s = text();
        h.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
        break;
      }
      case 9:
        h.StartObject();
        in_object.push_back(true);
        break;
      default:
        h.StartArray();
        in_object.push_back(false);
    }
  }
}

TEST(JsonTextHandler, RandomEventsAsRapidJson) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    ExpectSameAsRapidJson([&](auto& h) { random_events(h, seed); }, "seed " + std::to_string(seed), false);
    EXPECT_GT(ours([&](auto& h) { random_events(h, seed); }).size(), 20000u);
  }
}

// A Document written back through Accept (what patch's to_text does).
TEST(JsonTextHandler, DocumentAcceptAsRapidJson) {
  const char* json =
      R"({"a\u0001\"\\/é":[1,-2,3.25,0.1,1e300,-9223372036854775808,18446744073709551615,true,false,null,{},[],"x"],)"
      R"("b":{"c":[-0.0,5e-324,1.7976931348623157e308,3.4028234663852886e38]}})";
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json);
  ASSERT_FALSE(doc.HasParseError());
  ExpectSameAsRapidJson([&](auto& h) { doc.Accept(h); }, "", false);
}

TEST(JsonTextHandler, LongStringsGrowTheWindow) {
  std::string plain(1 << 20, 'p');
  std::string escaped(100000, '\x01');
  for (std::size_t i = 0; i < escaped.size(); i += 7) escaped[i] = 'e';
  ExpectSameAsRapidJson([&](auto& h) {
    h.StartArray();
    h.String(plain.data(), static_cast<rapidjson::SizeType>(plain.size()));
    h.String(escaped.data(), static_cast<rapidjson::SizeType>(escaped.size()));
    for (int i = 0; i < 100000; ++i) h.Uint(static_cast<unsigned>(i));
    h.EndArray();
  });
}

// The buffer holds exactly the text once the root value ends, while the handler is still there (as
// verify parses it in place), and IsComplete says so.
TEST(JsonTextHandler, BufferHoldsTheTextWhenTheRootEnds) {
  rapidjson::StringBuffer buffer;
  Text handler(buffer);
  EXPECT_FALSE(handler.IsComplete());
  handler.StartObject();
  handler.Key("k");
  handler.String("v");
  EXPECT_FALSE(handler.IsComplete());
  handler.EndObject();
  EXPECT_TRUE(handler.IsComplete());
  EXPECT_STREQ(buffer.GetString(), R"({"k":"v"})");
  EXPECT_EQ(buffer.GetSize(), 9u);
}

TEST(JsonTextHandler, FileStreamWritesTheSameText) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  auto events = [](auto& h) { random_events(h, 99); };
  {
    JsonFileStream stream(file, 64);  // small: every window and long string flushes
    JsonTextHandler<JsonFileStream> handler(stream);
    events(handler);
    EXPECT_TRUE(handler.IsComplete());
  }
  std::fflush(file);
  std::string written(static_cast<std::size_t>(std::ftell(file)), '\0');
  std::rewind(file);
  ASSERT_EQ(std::fread(written.data(), 1, written.size(), file), written.size());
  std::fclose(file);
  EXPECT_EQ(written, ours(events));
}

// JsonWriter's direct id, hex and f32 emission prints what the Document route prints.
TEST(JsonTextHandler, JsonWriterDirectEmissionMatchesTheDocumentRoute) {
  for (const char* folder : {"ac2", "sws"}) {
    for (const std::string& file : test::corpus_files(folder)) {
      auto bytes = test::read_file(file);
      Game game = std::string(folder) == "ac2" ? Game::ac2 : Game::sws;
      int objects = 0;
      carve_level(bytes, game, [&](const Piece& piece, const Object& object) {
        ++objects;
        Extent extent{piece.offset, piece.length};
        std::string direct = ours([&](auto& h) {
          JsonWriter<Text> w(h);
          write_object_value(w, extent, object);
        });
        rapidjson::Document doc;
        auto generate = [&](rapidjson::Document& h) {
          JsonWriter<rapidjson::Document> w(h);
          write_object_value(w, extent, object);
          return true;
        };
        doc.Populate(generate);
        EXPECT_EQ(direct, ours([&](auto& h) { doc.Accept(h); })) << file;
        rapidjson::StringBuffer reference;
        RapidJsonTextHandler writer(reference);
        doc.Accept(writer);
        EXPECT_EQ(direct, std::string(reference.GetString(), reference.GetSize())) << file;
      });
      EXPECT_GT(objects, 0) << file;
    }
  }
}

}  // namespace
}  // namespace anvil
