// The compact JSON text writer: a RapidJSON SAX handler (what JsonWriter and Value::Accept drive) that
// prints exactly the bytes rapidjson::Writer printed, faster. Every double holding an exact f32 is the
// shortest decimal that reads back as that f32 (FORMAT.md section 4: `0.1`, not `0.10000000149011612`;
// `-0.0` kept); other doubles are RapidJSON's own dtoa. Strings are escaped as RapidJSON escapes them
// (`\"`, `\\`, `\b \t \n \f \r`, other control characters `\u00XX`; every other byte as is).
//
// It writes straight into a window of contiguous room taken from the stream with Push(n) and given back
// with Pop(n) (rapidjson::StringBuffer, or JsonFileStream below for files); the window is given back when
// the root value ends (where rapidjson::Writer flushes) and when the handler goes, so the stream holds
// exactly the text written whenever the handler is between documents.
//
// Reference and fast path (writing): rapidjson::Writer's text, and JsonWriter into a RapidJSON Document
// (the route of patch and diff), are the reference; JsonTextHandler (writer/json_text_handler.hpp, its
// string scanning in writer/json_text_escape.hpp) with JsonWriter's direct Float/HexString/IdString/
// PlainKey is the fast path, which must print the same bytes. They are kept in agreement by
// tests/json_text_handler_test.cpp (JsonTextHandler.RandomEventsAsRapidJson,
// .EveryByteAtEveryPositionAmongOthers, .DocumentAcceptAsRapidJson,
// .JsonWriterDirectEmissionMatchesTheDocumentRoute and the rest) and, for the hex and id digits
// (model/json_text.hpp), tests/json_text_hex_test.cpp.
#pragma once

#include <rapidjson/internal/dtoa.h>
#include <rapidjson/rapidjson.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "model/json_text.hpp"
#include "model/primitives.hpp"
#include "writer/json_text_escape.hpp"

namespace anvil {

// A buffered FILE* output for JsonTextHandler: the same Push/Pop/Flush surface as rapidjson::StringBuffer,
// written to the file in large blocks (on Flush, and when a Push does not fit).
class JsonFileStream {
 public:
  using Ch = char;
  explicit JsonFileStream(std::FILE* out, std::size_t capacity = std::size_t{1} << 20)
      : out_(out), capacity_(capacity), buffer_(new char[capacity]) {}
  JsonFileStream(const JsonFileStream&) = delete;
  JsonFileStream& operator=(const JsonFileStream&) = delete;
  ~JsonFileStream() { Flush(); }

  char* Push(std::size_t count) {
    if (capacity_ - size_ < count) {
      Flush();
      if (capacity_ < count) {
        capacity_ = count;
        buffer_.reset(new char[capacity_]);
      }
    }
    char* at = buffer_.get() + size_;
    size_ += count;
    return at;
  }
  void Pop(std::size_t count) { size_ -= count; }
  void Put(char c) { *Push(1) = c; }
  void Flush() {
    if (size_ > 0) std::fwrite(buffer_.get(), 1, size_, out_);
    size_ = 0;
  }

 private:
  std::FILE* out_;
  std::size_t capacity_;
  std::size_t size_ = 0;
  std::unique_ptr<char[]> buffer_;
};

template <class OutputStream>
class JsonTextHandler {
 public:
  using Ch = char;
  using SizeType = rapidjson::SizeType;
  // JsonWriter need not count members and elements: EndObject and EndArray ignore the counts.
  static constexpr bool kIgnoresCounts = true;

  explicit JsonTextHandler(OutputStream& os) : os_(os) {}
  JsonTextHandler(const JsonTextHandler&) = delete;
  JsonTextHandler& operator=(const JsonTextHandler&) = delete;
  ~JsonTextHandler() { give_back(); }

  // The RapidJSON handler interface.
  bool Null() { return literal("null", 4); }
  bool Bool(bool b) { return b ? literal("true", 4) : literal("false", 5); }
  bool Int(int i) { return integer(i); }
  bool Uint(unsigned u) { return integer(u); }
  bool Int64(std::int64_t i) { return integer(i); }
  bool Uint64(std::uint64_t u) { return integer(u); }

  bool Double(double d) {
    if (std::isfinite(d) && std::fabs(d) <= std::numeric_limits<float>::max() &&
        static_cast<double>(static_cast<float>(d)) == d)
      return Float(static_cast<float>(d));
    char* p = start_value(25);
    if (!std::isfinite(d)) return end_value(p, false);  // rapidjson::Writer without kWriteNanAndInfFlag
    return end_value(rapidjson::internal::dtoa(d, p, kRapidJsonMaxDecimalPlaces));
  }

  // rapidjson::Writer 1.1.0 writes a raw number as a string.
  bool RawNumber(const Ch* str, SizeType length, bool copy = false) { return String(str, length, copy); }

  bool String(const Ch* str, SizeType length, bool copy = false) {
    (void)copy;
    if (json_text_detail::all_plain(str, length)) [[likely]] {
      char* p = start_value(length + 2 + kCopySlack);
      *p++ = '"';
      json_text_detail::copy_short(p, str, length);
      p += length;
      *p++ = '"';
      return end_value(p);
    }
    cur_ = start_value(0);
    write_escaped_string(str, length);
    return end_value(cur_);
  }
  bool String(const Ch* str) { return String(str, static_cast<SizeType>(std::strlen(str))); }
  bool String(const std::string& str) { return String(str.data(), static_cast<SizeType>(str.size())); }

  bool Key(const Ch* str, SizeType length, bool copy = false) {
    (void)copy;
    if (json_text_detail::all_plain(str, length)) [[likely]]
      return PlainKey(str, length);
    cur_ = start_value(0);
    write_escaped_string(str, length);
    reserve(1);
    *cur_++ = ':';
    need_comma_ = false;
    return true;
  }
  bool Key(const Ch* str) { return Key(str, static_cast<SizeType>(std::strlen(str))); }
  bool Key(const std::string& str) { return Key(str.data(), static_cast<SizeType>(str.size())); }

  bool StartObject() { return open('{'); }
  bool EndObject(SizeType member_count = 0) {
    (void)member_count;
    return close('}');
  }
  bool StartArray() { return open('['); }
  bool EndArray(SizeType element_count = 0) {
    (void)element_count;
    return close(']');
  }

  // Well-formed JSON text as a value, copied as is.
  bool RawValue(const Ch* json, std::size_t length, rapidjson::Type type) {
    (void)type;
    char* p = start_value(length);
    std::memcpy(p, json, length);
    return end_value(p + length);
  }

  // Whether one complete root value has been written.
  bool IsComplete() const { return complete_ && depth_ == 0; }

  // Extensions that JsonWriter uses when the handler has them (FORMAT.md section 4 spellings).
  // A finite f32 as its shortest round-tripping decimal ("-0.0" for negative zero).
  bool Float(float f) {
    char* p = start_value(32);
    if (f == 0 && std::signbit(f)) {
      std::memcpy(p, "-0.0", 4);
      return end_value(p + 4);
    }
    // A whole number below 1e5 in magnitude: to_chars's shortest form is its integer digits (from 1e5
    // on, "1e+05" is shorter), which the integer conversion finds faster.
    if (f > -1e5f && f < 1e5f) {
      auto whole = static_cast<int>(f);
      if (static_cast<float>(whole) == f) return end_value(std::to_chars(p, p + 32, whole).ptr);
    }
    return end_value(std::to_chars(p, p + 32, f).ptr);
  }
  // Bytes as a string of lowercase hex digits.
  bool HexString(const u8* data, std::size_t size) {
    char* p = start_value(2 * size + 2);
    *p++ = '"';
    json_text::encode_hex(p, data, size);
    p += 2 * size;
    *p++ = '"';
    return end_value(p);
  }
  // An id as the string "0x" + 2 * width_bytes lowercase hex digits (width_bytes at most 8).
  [[gnu::always_inline]] bool IdString(u64 value, std::size_t width_bytes) {
    char* p = start_value(2 * width_bytes + 4);
    *p++ = '"';
    p += json_text::format_id(p, value, width_bytes);
    *p++ = '"';
    return end_value(p);
  }
  // A key known to need no escaping (a layout declaration's Key): copied as it is.
  [[gnu::always_inline]] bool PlainKey(const Ch* text, std::size_t size) {
    char* p = start_value(size + 3 + kCopySlack);
    *p++ = '"';
    json_text_detail::copy_short(p, text, size);
    p += size;
    std::memcpy(p, "\":", 2);
    cur_ = p + 2;
    need_comma_ = false;
    return true;
  }

 private:
  static constexpr std::size_t kMaxSeparator = 1;         // ','
  static constexpr std::size_t kCopySlack = 16;           // copy_short may write up to 16 characters
  static constexpr int kRapidJsonMaxDecimalPlaces = 324;  // rapidjson::Writer's default: no truncation
  static constexpr std::size_t kMinWindow = 512, kMaxWindow = std::size_t{1} << 16;

  // Room for `n` more characters at cur_.
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - cur_) < n) [[unlikely]]
      grow(n);
  }

  [[gnu::noinline]] void grow(std::size_t n) {
    give_back();
    std::size_t size = std::max(n, window_);
    window_ = std::min(2 * window_, kMaxWindow);
    cur_ = os_.Push(size);
    end_ = cur_ + size;
  }

  // Returns the unused part of the window to the stream.
  void give_back() {
    if (cur_ != nullptr) os_.Pop(static_cast<std::size_t>(end_ - cur_));
    cur_ = end_ = nullptr;
  }

  // Room for a separator and `n` characters; writes the separator if one is due and returns where the
  // value goes. The text is written through a local pointer (a char store may alias the members, so
  // writing through cur_ would reload it after every character) and stored back by end_value.
  char* start_value(std::size_t n) {
    reserve(kMaxSeparator + n);
    char* p = cur_;
    *p = ',';
    return p + need_comma_;
  }

  bool end_value(char* p, bool ok = true) {
    cur_ = p;
    need_comma_ = true;
    if (depth_ == 0) flush();
    return ok;
  }

  // The end of the root value: the stream gets exactly the text (rapidjson::Writer flushes here).
  void flush() {
    complete_ = true;
    give_back();
    os_.Flush();
  }

  bool literal(const char* text, std::size_t size) {
    char* p = start_value(size);
    std::memcpy(p, text, size);
    return end_value(p + size);
  }

  template <class Int>
  bool integer(Int v) {
    char* p = start_value(20);
    if (static_cast<std::make_unsigned_t<Int>>(v) < 10) {  // most fields are flags and small counts
      *p = static_cast<char>('0' + v);
      return end_value(p + 1);
    }
    return end_value(std::to_chars(p, p + 20, v).ptr);
  }

  bool open(char bracket) {
    char* p = start_value(1);
    *p++ = bracket;
    cur_ = p;
    ++depth_;
    need_comma_ = false;
    return true;
  }

  bool close(char bracket) {
    reserve(1);
    *cur_++ = bracket;
    --depth_;
    return end_value(cur_);
  }

  // A quoted string with characters to escape, at cur_.
  [[gnu::noinline]] void write_escaped_string(const Ch* s, std::size_t n) {
    std::size_t plain = json_text_detail::plain_prefix(s, n);
    reserve(plain + 2);
    *cur_++ = '"';
    std::memcpy(cur_, s, plain);
    cur_ += plain;
    write_escaped(s + plain, n - plain);
    *cur_++ = '"';
  }

  // The rest of a string from its first character that needs escaping; leaves room for the closing quote.
  [[gnu::noinline]] void write_escaped(const Ch* s, std::size_t n) {
    std::size_t i = 0;
    while (i < n) {
      reserve(json_text_detail::kMaxEscape + 1);
      cur_ = json_text_detail::write_escape(cur_, static_cast<unsigned char>(s[i++]));
      std::size_t plain = json_text_detail::plain_prefix(s + i, n - i);
      reserve(plain + 1);
      std::memcpy(cur_, s + i, plain);
      cur_ += plain;
      i += plain;
    }
  }

  OutputStream& os_;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  std::size_t window_ = kMinWindow;
  int depth_ = 0;
  bool need_comma_ = false;
  bool complete_ = false;  // a root value has ended
};

}  // namespace anvil
