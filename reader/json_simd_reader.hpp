// The fast loading JSON archive on simdjson's On-Demand API (libsimdjson-dev 3.0.1), the experiment of
// issue 14 against the hand-written tokenizer (JsonTextReader, reader/json_text_reader.hpp), selected by
// -DANVILRT_JSON_FAST_PATH=simdjson. Same interface and same contract: it reads a structure through its
// layout declaration when the text is laid out as the writer prints it (fields in declaration order,
// no escape sequences, numbers in the forms RapidJSON reads correctly), checks what JsonReader checks,
// and on any departure stops, so that the caller reads the text again with JsonReader, the reference.
// simdjson indexes the structure of the whole text first (stage 1: the offset of every structural
// character, room for 4 bytes per byte of text) and then iterates it in order; fields are taken one by
// one from the object's iterator and compared with the layout's key, never looked up, so a missing,
// extra or reordered field stops it. Strings are read raw (a view of the text, no unescaping): an
// escape or a control character stops it. Numbers are simdjson's (exactly rounded); the forms that
// RapidJSON reads otherwise (reader/json_numbers.hpp) stop it, as they stop JsonTextReader.
// simdjson reads up to SIMDJSON_PADDING (64) bytes past the text: a text without that room is copied
// into a padded buffer of the reader's own (`readable`: how many bytes from text.data() may be read).
#pragma once

#include <simdjson.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
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

class JsonSimdReader {
 public:
  using is_loading = std::true_type;
  using is_saving = std::false_type;

  explicit JsonSimdReader(std::string_view text, std::size_t readable = 0) {
    if (readable < text.size() + simdjson::SIMDJSON_PADDING) {
      copy_ = simdjson::padded_string(text);
      if (copy_.data() == nullptr && !text.empty()) {
        fail();
        return;
      }
      text = std::string_view(copy_.data(), copy_.size());
    }
    base_ = last_ = text.data();
    size_ = text.size();
    // A small text (an object of verify) reuses the thread's parser and its buffers; a large one (a dump
    // being built) has a parser of its own, whose buffers (about 6 bytes per byte of text) go with it.
    simdjson::ondemand::parser* parser = &small_parser();
    if (text.size() > kSmall) parser = (own_parser_ = std::make_unique<simdjson::ondemand::parser>()).get();
    if (parser
            ->iterate(simdjson::padded_string_view(text.data(), text.size(), text.size() + simdjson::SIMDJSON_PADDING))
            .get(doc_))
      fail();
  }
  JsonSimdReader(const JsonSimdReader&) = delete;
  JsonSimdReader& operator=(const JsonSimdReader&) = delete;

  bool ok() const { return ok_; }
  // Where the reading has come to: the last key read (for progress).
  std::size_t pos() const { return static_cast<std::size_t>(last_ - base_); }
  void stop() { ok_ = false; }

  // Reads a JSON object whose members `body` reads with member() and the archive operators.
  template <class F>
  void object(F&& body) {
    if (!ok_) return;
    simdjson::ondemand::object object;
    if ((root_ ? doc_.get_object().get(object) : value_.get_object().get(object)) != simdjson::SUCCESS)
      return void(fail());
    bool root = root_;
    root_ = false;
    Members members;
    if (object.begin().get(members.it) != simdjson::SUCCESS) return void(fail());
    Members* outer = members_;
    members_ = &members;
    body();
    members_ = outer;
    if (!ok_) return;
    if (!members.ended) {
      if (members.started) ++members.it;
      if (open(members.it)) return void(fail());  // another member (or an error) where the object must end
    }
    ended_ = root;
  }

  // Reads a JSON array, calling `item` for each element.
  template <class F>
  void array(F&& item) {
    if (!ok_) return;
    simdjson::ondemand::array array;
    simdjson::ondemand::array_iterator it;
    if (value_.get_array().get(array) != simdjson::SUCCESS || array.begin().get(it) != simdjson::SUCCESS)
      return void(fail());
    while (it != it) {  // the iterator's != asks whether the array is still open
      if ((*it).get(value_) != simdjson::SUCCESS) return void(fail());
      item();
      if (!ok_) return;
      ++it;
    }
  }

  // The next member of the open object must be `key`; true when it is, at its value. The key needs no
  // escaping, so a raw key that matches it byte for byte, closing quote included, holds no escape.
  [[gnu::always_inline]] bool member(Key key) {
    simdjson::ondemand::field field;
    if (!next_field(field)) return fail();
    const char* raw = field.key().raw();
    if (std::memcmp(raw, key.text, key.size) != 0 || raw[key.size] != '"') return fail();
    value_ = field.value();
    return true;
  }

  // The key of the open object's next member, at its value; false at the end of the object.
  bool next_member(std::string_view& key) {
    simdjson::ondemand::field field;
    if (!next_field(field)) return false;
    if (!raw_string(field.key().raw(), key)) return false;
    value_ = field.value();
    return true;
  }

  // A string without escapes; `out` views the text.
  [[gnu::always_inline]] bool string(std::string_view& out) {
    if (!ok_) return false;
    simdjson::ondemand::raw_json_string raw;
    if (value_.get_raw_json_string().get(raw) != simdjson::SUCCESS) return fail();
    return raw_string(raw.raw(), out);
  }

  // A non-negative integer written without fraction, exponent or sign.
  [[gnu::always_inline]] bool number(u64& out) {
    if (!ok_) return false;
    if (value_.get_uint64().get(out) != simdjson::SUCCESS) return fail();
    return true;
  }

  bool null() {
    if (!ok_) return false;
    bool is_null = false;
    if (value_.is_null().get(is_null) != simdjson::SUCCESS || !is_null) return fail();
    return true;
  }

  // What the next value starts with; 0 at the end of the text, once the top-level value is read.
  [[gnu::always_inline]] char peek() {
    if (!ok_) return '\1';
    if (ended_) return doc_.current_location().error() == simdjson::OUT_OF_BOUNDS ? '\0' : '\1';
    if (root_) return '{';
    std::string_view token = value_.raw_json_token();
    return token.empty() ? '\0' : token[0];
  }

  template <class T>
  [[gnu::always_inline]] JsonSimdReader& operator&(const Field<T>& field) {
    if (member(field.key)) read_value(field.value());
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] JsonSimdReader& operator&(const Expect<T>& e) {
    if (e.name.text == nullptr || !member(e.name)) return *this;
    T found{};
    read_value(found);
    if (found != e.value) fail();
    return *this;
  }

  template <class Count, class T>
  [[gnu::always_inline]] JsonSimdReader& operator&(const Counted<Count, T>& c) {
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
  [[gnu::always_inline]] JsonSimdReader& operator&(const CountedBytes<Count>& c) {
    if (member(c.name)) read_hex(c.data.bytes);
    return *this;
  }

  template <class... Alts>
  JsonSimdReader& operator&(const ClassSwitch<Alts...>& s) {
    std::string_view name;
    if (!member("class") || !string(name)) return *this;
    auto cls = class_id::parse(name);
    if (!cls || !select_class(s.body, *cls)) {
      fail();
      return *this;
    }
    std::visit([this](auto& alt) { alt.serialize(*this, 0); }, s.body);
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] JsonSimdReader& operator&(const PresentIf<T>& p) {
    if (!member(p.name)) return *this;
    if ((peek() == 'n') == p.present) {
      fail();
      return *this;
    }
    read_value(p.target);
    return *this;
  }

  template <class T, std::size_t N>
  [[gnu::always_inline]] JsonSimdReader& operator&(const EachFollowedBy<T, N>& e) {
    if (member(e.name)) read_value(e.items);
    return *this;
  }

  [[gnu::always_inline]] JsonSimdReader& operator&(const UntilTail& u) {
    if (member(u.name)) read_hex(u.data.bytes);
    return *this;
  }

 private:
  static constexpr std::size_t kSmall = std::size_t{1} << 20;

  // An open object: its iterator, whether a member has been taken from it, whether it has ended.
  struct Members {
    simdjson::ondemand::object_iterator it;
    bool started = false;
    bool ended = false;
  };

  static simdjson::ondemand::parser& small_parser() {
    static thread_local simdjson::ondemand::parser parser;
    return parser;
  }

  static bool open(simdjson::ondemand::object_iterator& it) { return it != it; }

  bool fail() {
    ok_ = false;
    return false;
  }

  // The open object's next member (its key read, its value not yet), or false at its end or an error.
  [[gnu::always_inline]] bool next_field(simdjson::ondemand::field& field) {
    if (!ok_ || members_->ended) return false;
    Members& m = *members_;
    if (m.started) ++m.it;
    m.started = true;
    if (!open(m.it)) {
      m.ended = true;
      return false;
    }
    if ((*m.it).get(field) != simdjson::SUCCESS) return fail();
    last_ = field.key().raw();
    return true;
  }

  // The string whose text starts at `s` (after its opening quote), when it holds no escape or control
  // character; simdjson has found its closing quote, and the padding is there for the 16-byte steps.
  bool raw_string(const char* s, std::string_view& out) {
    const char* p = s;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), control = _mm_set1_epi8(0x1f);
    for (;; p += 16) {
      __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                                  _mm_cmpeq_epi8(_mm_min_epu8(x, control), x));  // x <= 0x1f
      if (unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(stop))) {
        p += __builtin_ctz(mask);
        break;
      }
    }
#else
    while (*p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
#endif
    if (*p != '"') return fail();
    out = std::string_view(s, static_cast<std::size_t>(p - s));
    return true;
  }

  // A string of `prefix` and then exactly 2 * n hex digits, decoded into `out`. The digits' check stands
  // for the string's (no quote, backslash or control character is among them).
  [[gnu::always_inline]] bool hex_string(std::string_view prefix, std::size_t n, u8* out) {
    if (!ok_) return false;
    simdjson::ondemand::raw_json_string raw;
    if (value_.get_raw_json_string().get(raw) != simdjson::SUCCESS) return fail();
    const char* p = raw.raw();
    const std::size_t size = prefix.size() + 2 * n;
    if (static_cast<std::size_t>(base_ + size_ - p) <= size || std::memcmp(p, prefix.data(), prefix.size()) != 0 ||
        p[size] != '"' || !json_text::decode_hex(p + prefix.size(), n, out))
      return fail();
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
    } else if constexpr (std::is_signed_v<T>) {
      i64 v = 0;
      if (value_.get_int64().get(v) != simdjson::SUCCESS || v > std::numeric_limits<T>::max() ||
          v < std::numeric_limits<T>::min())
        return void(fail());
      out = static_cast<T>(v);
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
      object([&] { out.serialize(*this, 0); });
    }
  }

  // A number as JsonReader reads one with RapidJSON's full precision (correctly rounded to a double,
  // then to the nearest f32), or "f32:0x…". simdjson's double is correctly rounded; the numbers RapidJSON
  // reads otherwise, or misreads (reader/json_numbers.hpp), stop the reader, as JsonTextReader: "-0" (an
  // integer zero there), a zero with an exponent, more than 19 digits, a number beyond the double range
  // (simdjson refuses it), and one that underflows to zero.
  void read_f32(f32& out) {
    if (peek() == '"') {
      std::string_view s;
      if (!string(s)) return;
      auto bits = json_text::parse_f32_bits(s);
      if (!bits) return void(fail());
      out = *bits;
      return;
    }
    std::string_view token = value_.raw_json_token();  // the number and any whitespace after it
    double d = 0;
    if (value_.get_double().get(d) != simdjson::SUCCESS) return void(fail());
    // simdjson has checked the syntax: -?digits(.digits)?([eE][+-]?digits)?
    std::size_t digits = 0;
    bool nonzero = false, fraction = false, exponent = false;
    for (char c : token) {
      if (c >= '0' && c <= '9') {
        ++digits;
        nonzero |= c != '0';
      } else if (c == '.') {
        fraction = true;
      } else if (c != '-') {
        exponent = c == 'e' || c == 'E';
        break;
      }
    }
    if (digits > 19 || (!nonzero && (exponent || (token[0] == '-' && !fraction))) || (nonzero && d == 0))
      return void(fail());
    if (!(std::fabs(d) < 0x1.ffffffp127)) return void(fail());  // as JsonReader: beyond, it is not an f32
    out = static_cast<f32>(d);
  }

  simdjson::padded_string copy_;  // the text, when it came without the padding
  std::unique_ptr<simdjson::ondemand::parser> own_parser_;
  simdjson::ondemand::document doc_;
  simdjson::ondemand::value value_;  // the value the next read takes
  Members* members_ = nullptr;       // the innermost open object
  const char* base_ = nullptr;
  std::size_t size_ = 0;
  const char* last_ = nullptr;
  bool ok_ = true;
  bool root_ = true;    // the next value is the document's (an object)
  bool ended_ = false;  // the document's object has been read
};

}  // namespace anvil
