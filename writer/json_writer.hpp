// The saving JSON archive: emits a structure's fields as SAX events through its one layout
// declaration, to any RapidJSON handler (a text writer, or a Document for patches and diffs). The NVP
// name is the JSON key. Checked constants without a name are left out; counts are array lengths.
// A handler may offer Float(f32), HexString(bytes, size), IdString(value, width) and PlainKey(text,
// size) (a key known to need no escaping) to print those itself (JsonTextHandler does, straight into
// its output), and kIgnoresCounts when its EndObject/EndArray need no member counts; other handlers
// (a Document) get Double and String.
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

#include <bit>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "model/class_ids.hpp"
#include "model/json_text.hpp"
#include "model/layout.hpp"

namespace anvil {

template <class Handler>
class JsonWriter : public ArchiveContext {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  explicit JsonWriter(Handler& out) : out_(out) {}

  // Building blocks for the document around the objects (FORMAT.md section 4).
  void key(std::string_view name) {
    if constexpr (kCounts) ++sizes_.back();
    out_.Key(name.data(), static_cast<unsigned>(name.size()), true);
  }
  // Out of line: where GCC 12 inlines a Document's String with a length it knows (a class name), it
  // warns falsely of RapidJSON's short-string copy (-Wstringop-overflow).
  [[gnu::noinline]] void string(std::string_view s) {
    count_value();
    out_.String(s.data(), static_cast<unsigned>(s.size()), true);
  }
  void number(u64 v) {
    count_value();
    out_.Uint64(v);
  }
  void start_object() {
    count_value();
    out_.StartObject();
    open(false);
  }
  void end_object() { out_.EndObject(close()); }
  void start_array() {
    count_value();
    out_.StartArray();
    open(true);
  }
  void end_array() { out_.EndArray(close()); }

  // The fields of a structure, into the object that is open.
  template <class T>
  void fields(const T& value) {
    const_cast<T&>(value).serialize(*this, version_);
  }

  // The operators are inlined into each layout declaration, so that every key's length is a constant
  // where the handler copies it.
  template <class T>
  [[gnu::always_inline]] JsonWriter& operator&(const Field<T>& field) {
    literal_key(field.key);
    value(field.value());
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] JsonWriter& operator&(const Expect<T>& e) {
    if (e.name.text != nullptr) {
      literal_key(e.name);
      number(e.value);
    }
    return *this;
  }

  template <class Count, class T>
  [[gnu::always_inline]] JsonWriter& operator&(const Counted<Count, T>& c) {
    literal_key(c.name);
    start_array();
    for (auto& item : c.items) value(item);
    end_array();
    return *this;
  }

  template <class Count>
  [[gnu::always_inline]] JsonWriter& operator&(const CountedBytes<Count>& c) {
    literal_key(c.name);
    hex(c.data.bytes.data(), c.data.bytes.size());
    return *this;
  }

  template <class... Alts>
  JsonWriter& operator&(const ClassSwitch<Alts...>& s) {
    literal_key(Key("class"));
    u32 id = class_id_of(s.body);
    if (auto name = class_id::name_of(id))
      string(*name);
    else
      string(class_id::to_json(id));
    std::visit([this](auto& alt) { alt.serialize(*this, version_); }, s.body);
    return *this;
  }

  template <class T>
  [[gnu::always_inline]] JsonWriter& operator&(const PresentIf<T>& p) {
    literal_key(p.name);
    value(p.target);
    return *this;
  }

  template <class T, std::size_t N>
  [[gnu::always_inline]] JsonWriter& operator&(const EachFollowedBy<T, N>& e) {
    literal_key(e.name);
    value(e.items);
    return *this;
  }

  [[gnu::always_inline]] JsonWriter& operator&(const UntilTail& u) {
    literal_key(u.name);
    hex(u.data.bytes.data(), u.data.bytes.size());
    return *this;
  }

  JsonWriter& operator&(const Require&) { return *this; }

  template <class Count>
  JsonWriter& operator&(const SizeOf<Count>&) {
    return *this;  // derived from the run it sizes
  }

  JsonWriter& operator&(const RestBytes& r) {
    literal_key(r.name);
    hex(r.data.bytes.data(), r.data.bytes.size());
    return *this;
  }

  JsonWriter& operator&(const SizedBytes& s) {
    literal_key(s.name);
    hex(s.data.bytes.data(), s.data.bytes.size());
    return *this;
  }

  template <class Count, class T>
  JsonWriter& operator&(const Heads<Count, T>& h) {
    literal_key(h.name);
    start_array();
    for (auto& item : h.items) {
      HeadOf<T> head{item};
      value(head);
    }
    end_array();
    return *this;
  }

  template <class T>
  JsonWriter& operator&(const Bodies<T>& b) {
    literal_key(b.name);
    start_array();
    for (auto& item : b.items) {
      BodyOf<T> body{item};
      value(body);
    }
    end_array();
    return *this;
  }

  template <class T>
  JsonWriter& operator&(const UntilEnd<T>& u) {
    literal_key(u.name);
    start_array();
    for (auto& item : u.items) value(item);
    end_array();
    return *this;
  }

 private:
  static constexpr bool kCounts = !requires { requires Handler::kIgnoresCounts; };

  // A key from the layout declarations (inlined, so that its length is a constant where it is copied).
  [[gnu::always_inline]] void literal_key(Key name) {
    if constexpr (requires { out_.PlainKey(name.text, name.size); }) {
      if constexpr (kCounts) ++sizes_.back();
      out_.PlainKey(name.text, name.size);
    } else {
      key({name.text, name.size});
    }
  }

  void count_value() {
    if constexpr (kCounts)
      if (!in_array_.empty() && in_array_.back()) ++sizes_.back();
  }
  void open(bool array) {
    if constexpr (kCounts) {
      sizes_.push_back(0);
      in_array_.push_back(array);
    }
  }
  // The number of members or elements of the object or array that closes.
  unsigned close() {
    if constexpr (kCounts) {
      unsigned size = sizes_.back();
      sizes_.pop_back();
      in_array_.pop_back();
      return size;
    } else {
      return 0;
    }
  }

  void hex(const u8* data, std::size_t size) {
    if constexpr (requires { out_.HexString(data, size); }) {
      count_value();
      out_.HexString(data, size);
    } else {
      scratch_.clear();
      json_text::append_hex(scratch_, data, size);
      string(scratch_);
    }
  }

  template <class T>
  void value(T& v) {
    if constexpr (std::is_same_v<T, f32>) {
      count_value();
      if (std::isfinite(v)) {
        if constexpr (requires { out_.Float(v); })
          out_.Float(v);
        else
          out_.Double(static_cast<double>(v));  // exact; text handlers print it as the shortest f32
      } else {
        std::string bits = json_text::format_f32_bits(v);
        out_.String(bits.data(), static_cast<unsigned>(bits.size()), true);
      }
    } else if constexpr (std::is_signed_v<T>) {
      count_value();
      out_.Int64(v);
    } else if constexpr (std::is_arithmetic_v<T>) {
      count_value();
      out_.Uint64(v);
    } else if constexpr (requires { v.value; }) {  // Id<T>
      if constexpr (requires { out_.IdString(v.value, sizeof v.value); }) {
        count_value();
        out_.IdString(v.value, sizeof v.value);
      } else {
        char id[json_text::kMaxIdChars];
        string({id, json_text::format_id(id, v.value, sizeof v.value)});
      }
    } else if constexpr (kIsFixedString<T>) {
      std::size_t text = json_text::fixed_string_text(v.bytes.data(), v.bytes.size());
      if (text != json_text::kNotText)
        string({reinterpret_cast<const char*>(v.bytes.data()), text});
      else
        hex(v.bytes.data(), v.bytes.size());
    } else if constexpr (requires { v.bytes.size(); }) {  // Opaque<N>
      hex(v.bytes.data(), v.bytes.size());
    } else if constexpr (requires { v.has_value(); }) {  // pointer: object or null
      if (v) {
        value(*v);
      } else {
        count_value();
        out_.Null();
      }
    } else if constexpr (requires {
                           v.size();
                           v[0];
                         }) {  // std::array
      start_array();
      for (auto& item : v) value(item);
      end_array();
    } else {
      start_object();
      v.serialize(*this, version_);
      end_object();
    }
  }

  Handler& out_;
  std::vector<unsigned> sizes_{0};
  std::vector<bool> in_array_;
  std::string scratch_;
};

}  // namespace anvil
