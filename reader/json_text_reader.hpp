// The fast loading JSON archive: reads a structure straight from JSON text through the same layout
// declaration as JsonReader, without building a DOM, when the text is laid out as the writer prints
// it: fields in declaration order, no escape sequences, numbers in plain forms. It checks what
// JsonReader checks, but it does not explain: on any departure (a failed check, another field order,
// an escape, a number it leaves to RapidJSON) it stops, and the caller reads the same text with
// JsonReader, which takes every field order and names what is wrong. So it never accepts text that
// JsonReader refuses, and what it accepts it reads to the same values.
// This is the fast path; JsonReader (reader/json_reader.hpp) is the reference. Kept in agreement by
// tests/json_text_reader_test.cpp (JsonTextReader.*), tests/build_in_order_test.cpp (BuildInOrder*) and
// the fuzz invariants (fuzz/invariants.cpp) that tests/regress_test.cpp replays.
// simdjson's On-Demand API was measured as this fast path, with the same contract, and lost: 0.64 × on
// verify, 0.48 × on build, 5.5 × the peak RSS of build (docs/performance.md, "The JSON fast path").
#pragma once

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/class_ids.hpp"
#include "model/json_text.hpp"
#include "model/layout.hpp"

namespace anvil {

class JsonTextReader : public ArchiveContext {
 public:
  using is_loading = std::true_type;
  using is_saving = std::false_type;

  explicit JsonTextReader(std::string_view text, std::size_t pos = 0) : text_(text), pos_(pos) {}

  bool ok() const { return ok_; }
  std::size_t pos() const { return pos_; }
  void stop() { ok_ = false; }

  // Reads a JSON object whose members `body` reads with member() and the archive operators.
  template <class F>
  void object(F&& body) {
    if (!punctuation('{')) return;
    bool outer = first_;
    first_ = true;
    body();
    first_ = outer;
    punctuation('}');
  }

  // Reads a JSON array, calling `item` for each element.
  template <class F>
  void array(F&& item) {
    if (!punctuation('[')) return;
    if (peek() == ']') {
      ++pos_;
      return;
    }
    do item();
    while (ok_ && separator(']'));
  }

  // The next member of the open object must be `key`; true when it is, at its value. As the writer
  // spells it, `,"key":` (no comma first) is compared as a whole, the key's length being known;
  // anything else (whitespace, another key) takes spaced_member. The key needs no escaping, so the
  // text that matches it holds no escape either.
  [[gnu::always_inline]] bool member(Key key) {
    if (!ok_) return false;
    const char* p = text_.data();
    std::size_t at = pos_ + !first_, end = at + key.size + 3;
    if (end <= text_.size() && (first_ || p[pos_] == ',') && p[at] == '"' &&
        std::memcmp(p + at + 1, key.text, key.size) == 0 && p[end - 2] == '"' && p[end - 1] == ':') [[likely]] {
      pos_ = end;
      first_ = false;
      return true;
    }
    return spaced_member(key);
  }

  // The key of the open object's next member, at its value; false at the end of the object.
  bool next_member(std::string_view& key) {
    if (!ok_ || peek() == '}') return false;
    if (!first_ && !punctuation(',')) return false;
    first_ = false;
    return string(key) && punctuation(':');
  }

  // A string without escapes; `out` views the text.
  [[gnu::always_inline]] bool string(std::string_view& out) {
    if (!punctuation('"')) return false;
    std::size_t start = pos_;
    pos_ = string_end(pos_);
    if (pos_ == text_.size() || text_[pos_] != '"') return fail();
    out = text_.substr(start, pos_++ - start);
    return true;
  }

  // A non-negative integer written without fraction, exponent or sign, up to 19 digits.
  [[gnu::always_inline]] bool number(u64& out) {
    if (!ok_) return false;
    skip_space();
    const char* p = text_.data();
    const std::size_t size = text_.size(), start = pos_;
    u64 v = 0;
    for (; pos_ < size && is_digit(p[pos_]); ++pos_) v = v * 10 + static_cast<u64>(p[pos_] - '0');
    std::size_t digits = pos_ - start;
    if (digits == 0 || digits > 19 || (digits > 1 && text_[start] == '0') || continues_number()) return fail();
    out = v;
    return true;
  }

  bool null() {
    if (!ok_) return false;
    skip_space();
    if (text_.substr(pos_, 4) != "null") return fail();
    pos_ += 4;
    return true;
  }

  // What the next value starts with, 0 at the end.
  [[gnu::always_inline]] char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  // The operators are inlined into each layout declaration, so that every key's length is a constant
  // where member() compares it.
  template <class T>
  [[gnu::always_inline]] JsonTextReader& operator&(const Field<T>& field) {
    if (member(field.key)) read_value(field.value());
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] JsonTextReader& operator&(const Expect<T>& e) {
    if (e.name.text == nullptr || !member(e.name)) return *this;
    T found{};
    read_value(found);
    if (found != e.value) fail();
    return *this;
  }

  template <class Count, class T>
  [[gnu::always_inline]] JsonTextReader& operator&(const Counted<Count, T>& c) {
    if (!member(c.name)) return *this;
    std::size_t n = 0;  // elements read: the vector's earlier elements are reused, keeping their storage
    array([&] {
      if (n == c.items.size()) c.items.emplace_back();
      read_value(c.items[n++]);
    });
    c.items.resize(n);
    return *this;
  }

  template <class Count>
  [[gnu::always_inline]] JsonTextReader& operator&(const CountedBytes<Count>& c) {
    if (member(c.name)) read_hex(c.data.bytes);
    return *this;
  }

  template <class... Alts>
  JsonTextReader& operator&(const ClassSwitch<Alts...>& s) {
    std::string_view name;
    if (!member("class") || !string(name)) return *this;
    auto cls = class_id::parse(name);
    if (!cls || !select_class(s.body, *cls)) {
      fail();
      return *this;
    }
    std::visit([this](auto& alt) { alt.serialize(*this, version_); }, s.body);
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] JsonTextReader& operator&(const PresentIf<T>& p) {
    if (!member(p.name)) return *this;
    if ((peek() == 'n') == p.present) {
      fail();
      return *this;
    }
    read_value(p.target);
    return *this;
  }

  template <class T, std::size_t N>
  [[gnu::always_inline]] JsonTextReader& operator&(const EachFollowedBy<T, N>& e) {
    if (member(e.name)) read_value(e.items);
    return *this;
  }

  [[gnu::always_inline]] JsonTextReader& operator&(const UntilTail& u) {
    if (member(u.name)) read_hex(u.data.bytes);
    return *this;
  }

 private:
  static bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

  bool fail() {
    ok_ = false;
    return false;
  }

  // Every JSON character but whitespace is above ' ': one compare for the usual case of none.
  [[gnu::always_inline]] void skip_space() {
    while (pos_ < text_.size() && static_cast<unsigned char>(text_[pos_]) <= ' ' &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }

  [[gnu::always_inline]] bool punctuation(char c) {
    if (!ok_) return false;
    if (pos_ < text_.size() && text_[pos_] == c) [[likely]] {  // the writer puts no space before it
      ++pos_;
      return true;
    }
    skip_space();
    if (pos_ == text_.size() || text_[pos_] != c) return fail();
    ++pos_;
    return true;
  }

  // member() where the text is not spelled as the writer spells it.
  [[gnu::noinline]] bool spaced_member(Key key) {
    if (!ok_) return false;
    if (!first_ && !punctuation(',')) return false;
    first_ = false;
    std::string_view found;
    if (!string(found)) return false;
    if (found != std::string_view(key.text, key.size)) return fail();
    return punctuation(':');
  }

  // After an array element: true at `,` (another follows), false at `close` (consumed).
  [[gnu::always_inline]] bool separator(char close) {
    char c = peek();
    ++pos_;
    if (c == ',') return true;
    if (c != close) fail();
    return false;
  }

  bool continues_number() const {
    return pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E');
  }

  // The first position from `pos` that holds a quote, a backslash or a control character (or the end).
  std::size_t string_end(std::size_t pos) const {
    const char* data = text_.data();
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), control = _mm_set1_epi8(0x1f);
    for (; pos + 16 <= text_.size(); pos += 16) {
      __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + pos));
      __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                                  _mm_cmpeq_epi8(_mm_min_epu8(x, control), x));  // x <= 0x1f
      if (unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(stop)))
        return pos + static_cast<std::size_t>(__builtin_ctz(mask));
    }
#endif
    for (; pos < text_.size(); ++pos) {
      unsigned char c = static_cast<unsigned char>(data[pos]);
      if (c == '"' || c == '\\' || c < 0x20) break;
    }
    return pos;
  }

  // A string of `prefix` and then exactly 2 * n hex digits, decoded into `out`. The digits' check stands
  // for the string's (no quote, backslash or control character is among them), so the closing quote
  // is at a known place and the string needs no scan.
  [[gnu::always_inline]] bool hex_string(std::string_view prefix, std::size_t n, u8* out) {
    if (!punctuation('"')) return false;
    const std::size_t size = prefix.size() + 2 * n;
    const char* p = text_.data() + pos_;
    if (text_.size() - pos_ <= size || std::memcmp(p, prefix.data(), prefix.size()) != 0 || p[size] != '"' ||
        !json_text::decode_hex(p + prefix.size(), n, out))
      return fail();
    pos_ += size + 1;
    return true;
  }

  void read_hex(std::vector<u8>& out) {
    std::string_view s;
    if (string(s) && !json_text::parse_hex(s, out)) fail();
  }

  template <class T>
  void read_value(T& out) {
    if (!ok_) return;
    if constexpr (std::is_same_v<T, f32>) {
      read_f32(out);
    } else if constexpr (std::is_arithmetic_v<T>) {
      u64 v = 0;
      if (!number(v)) return;
      if (v > std::numeric_limits<T>::max()) return void(fail());
      out = static_cast<T>(v);
    } else if constexpr (requires { out.value; }) {  // Id<T>
      constexpr std::size_t width = sizeof out.value;
      static_assert(width <= 8 && std::endian::native == std::endian::little);
      u8 bytes[8] = {};
      if (!hex_string("0x", width, bytes)) return;
      u64 first_byte_low;  // the digits' bytes, most significant first: a big-endian number
      std::memcpy(&first_byte_low, bytes, 8);
      out.value = static_cast<decltype(out.value)>(__builtin_bswap64(first_byte_low) >> (64 - 8 * width));
    } else if constexpr (kIsOpaque<T>) {
      hex_string("", out.bytes.size(), out.bytes.data());
    } else if constexpr (requires { out.has_value(); }) {  // pointer: object or null
      if (peek() == 'n') {
        if (null()) out.reset();
      } else {
        if (!out) out.emplace();
        read_value(*out);
      }
    } else if constexpr (requires {
                           out.size();
                           out[0];
                         }) {  // std::array
      std::size_t n = 0;
      array([&] {
        if (n == out.size()) return void(fail());
        read_value(out[n++]);
      });
      if (n != out.size()) fail();
    } else {
      object([&] { out.serialize(*this, version_); });
    }
  }

  // A number as JsonReader reads one with RapidJSON's full precision (correctly rounded to a double,
  // then to the nearest f32), or "f32:0x…". Numbers RapidJSON reads otherwise, or misreads
  // (reader/json_numbers.hpp), are left to it: "-0" (an integer zero there), a zero with an exponent,
  // more than 19 digits, a number beyond the double range.
  void read_f32(f32& out) {
    if (peek() == '"') {
      std::string_view s;
      if (!string(s)) return;
      auto bits = json_text::parse_f32_bits(s);
      if (!bits) return void(fail());
      out = *bits;
      return;
    }
    const char* p = text_.data();
    const std::size_t size = text_.size(), start = pos_;
    bool minus = pos_ < size && p[pos_] == '-';
    pos_ += minus;
    u64 mantissa = 0;  // the digits as an integer (exact, and 0 only for zero: at most 19 are taken)
    std::size_t digits = 0;
    auto run = [&] {
      std::size_t from = pos_;
      for (; pos_ < size && is_digit(p[pos_]); ++pos_) mantissa = mantissa * 10 + static_cast<u64>(p[pos_] - '0');
      digits += pos_ - from;
      return pos_ - from;
    };
    std::size_t integer = run();
    if (integer == 0 || (integer > 1 && p[pos_ - integer] == '0')) return void(fail());
    std::size_t fraction_digits = 0;
    bool fraction = pos_ < size && p[pos_] == '.';
    if (fraction && (++pos_, fraction_digits = run()) == 0) return void(fail());
    bool exponent = pos_ < size && (p[pos_] == 'e' || p[pos_] == 'E');
    long power = 0;  // the written exponent, held at 10,000 once beyond it
    if (exponent) {
      ++pos_;
      bool negative = pos_ < size && p[pos_] == '-';
      if (pos_ < size && (p[pos_] == '+' || p[pos_] == '-')) ++pos_;
      std::size_t from = pos_;
      for (; pos_ < size && is_digit(p[pos_]); ++pos_) power = std::min(power * 10 + (p[pos_] - '0'), 10'000L);
      if (pos_ == from) return void(fail());
      if (negative) power = -power;
    }
    if (digits > 19 || (mantissa == 0 && (exponent || (minus && !fraction)))) return void(fail());
    double d = 0;
    power -= static_cast<long>(fraction_digits);
    if (mantissa <= (u64{1} << 53) && power >= -22 && power <= 22) {
      // Clinger's fast path: the digits and the power of ten are both exact doubles, so one IEEE
      // multiplication or division rounds correctly, as from_chars would.
      d = power >= 0 ? static_cast<double>(mantissa) * kPowersOfTen[power]
                     : static_cast<double>(mantissa) / kPowersOfTen[-power];
      if (minus) d = -d;
    } else {
      auto [end, ec] = std::from_chars(p + start, p + pos_, d);
      if (ec != std::errc() || end != p + pos_) return void(fail());
    }
    if (!(std::fabs(d) < 0x1.ffffffp127)) return void(fail());  // as JsonReader: beyond, it is not an f32
    out = static_cast<f32>(d);
  }

  static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

  std::string_view text_;
  std::size_t pos_;
  bool ok_ = true;
  bool first_ = true;  // no member of the open object read yet
};

}  // namespace anvil
