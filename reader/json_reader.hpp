// The loading JSON archive: reads a structure's fields from a RapidJSON value through its one layout
// declaration, checking each value against the field it lands on (a u8 gets 0..255, an id a
// fixed-width hex string, a float a number or "f32:0x…"), refusing checked constants that differ,
// missing fields and unknown ones. The first failure latches, with its JSON pointer.
//
// Reference and fast path (reading): JsonReader over a RapidJSON document (reader/json_reader.hpp) is
// the reference; JsonTextReader straight from the text (reader/json_text_reader.hpp) is the fast path,
// which stops wherever it departs and leaves the verdict to the reference. They are kept in agreement
// by tests/json_text_reader_test.cpp (JsonTextReader.ReadsEveryCorpusObject, .ReadsEveryGeneratedObject,
// .StopsWhereTheTextDepartsAndTheGeneralReaderDecides, .NumbersReadAsTheGeneralReaderReadsThem), by
// tests/build_in_order_test.cpp (build's one-pass path against its document path) and by the fuzz
// invariants (fuzz/invariants.cpp), whose findings tests/regress_test.cpp replays.
#pragma once

#include <absl/strings/str_format.h>
#include <rapidjson/document.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "model/check_text.hpp"
#include "model/class_ids.hpp"
#include "model/json_text.hpp"
#include "model/layout.hpp"
#include "reader/check_failure.hpp"
#include "reader/json_messages.hpp"

namespace anvil {

class JsonReader : public ArchiveContext {
 public:
  using is_loading = std::true_type;
  using is_saving = std::false_type;
  using Value = rapidjson::Value;

  // `base` is the JSON pointer of the value the reader starts at, for errors.
  explicit JsonReader(std::string base = "") : path_(std::move(base)) {}

  bool ok() const { return !failure_.has_value(); }
  const std::optional<CheckFailure>& failure() const { return failure_; }

  void fail(std::string check, std::string found = "") {
    if (failure_) return;
    failure_ = CheckFailure{0, path_.empty() ? std::string("/") : path_, std::move(check), std::move(found)};
  }

  // Reads the fields of `value` from the JSON object `object`; keys in `extra` are allowed besides.
  template <class T>
  void fields(const Value& object, T& value, std::initializer_list<const char*> extra = {}) {
    if (!object.IsObject()) return fail("must be an object", kind(object));
    scopes_.push_back({&object, used_.size()});
    for (const char* name : extra) used_.push_back(name);
    value.serialize(*this, version_);
    close_scope();
  }

  template <class T>
  JsonReader& operator&(const boost::serialization::nvp<T>& field) {
    if (const Value* v = member(field.name())) at(field.name(), [&] { read_value(*v, field.value()); });
    return *this;
  }

  template <class T>
  JsonReader& operator&(const Expect<T>& e) {
    if (e.name.text == nullptr) return *this;
    if (const Value* v = member(e.name.text)) {
      at(e.name.text, [&] {
        T found{};
        read_value(*v, found);
        if (ok() && found != e.value)
          fail(absl::StrFormat("%s must be %d (a checked constant)", e.name.text, u64{e.value}),
               std::to_string(u64{found}));
      });
    }
    return *this;
  }

  template <class Count, class T>
  JsonReader& operator&(const Counted<Count, T>& c) {
    if (const Value* v = member(c.name.text)) {
      at(c.name.text, [&] {
        if (!v->IsArray()) return fail("must be an array", kind(*v));
        c.items.resize(v->Size());
        for (rapidjson::SizeType i = 0; i < v->Size() && ok(); ++i)
          at(std::to_string(i), [&] { read_value((*v)[i], c.items[i]); });
      });
    }
    return *this;
  }

  template <class Count>
  JsonReader& operator&(const CountedBytes<Count>& c) {
    if (const Value* v = member(c.name.text)) at(c.name.text, [&] { read_hex(*v, c.data.bytes); });
    return *this;
  }

  template <class... Alts>
  JsonReader& operator&(const ClassSwitch<Alts...>& s) {
    const Value* v = member("class");
    if (v == nullptr) return *this;
    at("class", [&] {
      std::optional<u32> cls;
      if (v->IsString()) cls = class_id::parse({v->GetString(), v->GetStringLength()});
      if (!cls) return fail("must be a class name or \"0x\" + 8 hex digits", v->IsString() ? written(*v) : kind(*v));
      if (!select_class(s.body, *cls)) fail(must_be_known_text(s.what), class_id::to_json(*cls));
    });
    if (ok()) std::visit([this](auto& alt) { alt.serialize(*this, version_); }, s.body);
    return *this;
  }

  template <class T>
  JsonReader& operator&(const PresentIf<T>& p) {
    const Value* v = member(p.name.text);
    if (v == nullptr) return *this;
    at(p.name.text, [&] {
      if (p.present && v->IsNull()) return fail("must be present here", "null");
      if (!p.present && !v->IsNull()) return fail("must be null here", kind(*v));
      read_value(*v, p.target);
    });
    return *this;
  }

  template <class T, std::size_t N>
  JsonReader& operator&(const EachFollowedBy<T, N>& e) {
    if (const Value* v = member(e.name.text)) at(e.name.text, [&] { read_value(*v, e.items); });
    return *this;
  }

  JsonReader& operator&(const UntilTail& u) {
    if (const Value* v = member(u.name.text)) at(u.name.text, [&] { read_hex(*v, u.data.bytes); });
    return *this;
  }

  JsonReader& operator&(const Require& r) {
    if (ok() && !r.holds) fail(r.what, r.found_text());
    return *this;
  }

  template <class Count>
  JsonReader& operator&(const SizeOf<Count>&) {
    return *this;  // derived from the run it sizes
  }

  JsonReader& operator&(const RestBytes& r) {
    if (const Value* v = member(r.name.text)) at(r.name.text, [&] { read_hex(*v, r.data.bytes); });
    return *this;
  }

  JsonReader& operator&(const SizedBytes& s) {
    if (const Value* v = member(s.name.text)) at(s.name.text, [&] { read_hex(*v, s.data.bytes); });
    return *this;
  }

  template <class Count, class T>
  JsonReader& operator&(const Heads<Count, T>& h) {
    if (const Value* v = member(h.name.text)) {
      at(h.name.text, [&] {
        if (!v->IsArray()) return fail("must be an array", kind(*v));
        if (v->Size() > std::numeric_limits<Count>::max())
          return fail(absl::StrFormat("must have at most %d elements", u64{std::numeric_limits<Count>::max()}),
                      std::to_string(v->Size()));
        h.items.resize(v->Size());
        for (rapidjson::SizeType i = 0; i < v->Size() && ok(); ++i) {
          HeadOf<T> head{h.items[i]};
          at(std::to_string(i), [&] { read_value((*v)[i], head); });
        }
      });
    }
    return *this;
  }

  template <class T>
  JsonReader& operator&(const Bodies<T>& b) {
    if (const Value* v = member(b.name.text)) {
      at(b.name.text, [&] {
        if (!v->IsArray() || v->Size() != b.items.size())
          return fail(absl::StrFormat("must be an array of %d (one per head)", b.items.size()), kind(*v));
        for (rapidjson::SizeType i = 0; i < v->Size() && ok(); ++i) {
          BodyOf<T> body{b.items[i]};
          at(std::to_string(i), [&] { read_value((*v)[i], body); });
        }
      });
    }
    return *this;
  }

  template <class T>
  JsonReader& operator&(const UntilEnd<T>& u) {
    if (const Value* v = member(u.name.text)) {
      at(u.name.text, [&] {
        if (!v->IsArray()) return fail("must be an array", kind(*v));
        u.items.resize(v->Size());
        for (rapidjson::SizeType i = 0; i < v->Size() && ok(); ++i)
          at(std::to_string(i), [&] { read_value((*v)[i], u.items[i]); });
      });
    }
    return *this;
  }

 private:
  struct Scope {
    const Value* object;
    std::size_t used_begin;        // the names this object's fields were looked up by: used_[used_begin..]
    rapidjson::SizeType next = 0;  // where the next field is looked for first: fields come in order
  };

  // A value of the wrong type is named by its type, one of the right type by its text as written.
  static std::string kind(const Value& v) { return json_kind(v); }
  static std::string written(const Value& v) { return json_as_written(v); }

  template <class F>
  void at(std::string_view segment, F&& f) {
    std::size_t size = path_.size();
    path_ += '/';
    path_ += segment;
    f();
    if (ok()) path_.resize(size);
  }

  const Value* member(const char* name) {
    if (!ok()) return nullptr;
    Scope& scope = scopes_.back();
    used_.push_back(name);
    auto begin = scope.object->MemberBegin();
    if (scope.next < scope.object->MemberCount()) {
      const Value& key = begin[scope.next].name;
      if (std::strncmp(key.GetString(), name, key.GetStringLength()) == 0 && name[key.GetStringLength()] == '\0')
        return &begin[scope.next++].value;
    }
    auto it = scope.object->FindMember(name);
    scope.next = static_cast<rapidjson::SizeType>(it - begin) + 1;
    if (it == scope.object->MemberEnd()) {
      at(name, [&] { fail("missing field"); });
      return nullptr;
    }
    return &it->value;
  }

  void close_scope() {
    Scope& scope = scopes_.back();
    if (ok() && scope.object->MemberCount() != used_.size() - scope.used_begin) {
      for (auto& m : scope.object->GetObject()) {
        std::string_view key(m.name.GetString(), m.name.GetStringLength());
        bool known = false;
        for (std::size_t i = scope.used_begin; i < used_.size(); ++i) known = known || key == used_[i];
        if (!known) {
          at(key, [&] { fail("unknown field"); });
          break;
        }
      }
      if (ok()) fail("duplicate field");
    }
    used_.resize(scope.used_begin);
    scopes_.pop_back();
  }

  void read_hex(const Value& v, std::vector<u8>& out) {
    if (!v.IsString()) return fail("must be a string of hex digit pairs", kind(v));
    if (!json_text::parse_hex({v.GetString(), v.GetStringLength()}, out))
      fail("must be a string of hex digit pairs", written(v));
  }

  template <class T>
  void read_value(const Value& v, T& out) {
    if constexpr (std::is_same_v<T, f32>) {
      read_f32(v, out);
    } else if constexpr (std::is_signed_v<T>) {
      if (!v.IsInt64() || v.GetInt64() > std::numeric_limits<T>::max() || v.GetInt64() < std::numeric_limits<T>::min())
        return fail(absl::StrFormat("must be an integer %d..%d", i64{std::numeric_limits<T>::min()},
                                    i64{std::numeric_limits<T>::max()}),
                    v.IsNumber() ? std::to_string(v.GetDouble()) : kind(v));
      out = static_cast<T>(v.GetInt64());
    } else if constexpr (std::is_arithmetic_v<T>) {
      if (!v.IsUint64() || v.GetUint64() > std::numeric_limits<T>::max())
        return fail(absl::StrFormat("must be an integer 0..%d", u64{std::numeric_limits<T>::max()}),
                    v.IsNumber() ? written(v) : kind(v));
      out = static_cast<T>(v.GetUint64());
    } else if constexpr (requires { out.value; }) {  // Id<T>
      std::optional<u64> id;
      if (v.IsString()) id = json_text::parse_id({v.GetString(), v.GetStringLength()}, sizeof out.value);
      if (!id)
        return fail(absl::StrFormat("must be an id \"0x\" + %d hex digits", 2 * sizeof out.value),
                    v.IsString() ? written(v) : kind(v));
      out.value = static_cast<decltype(out.value)>(*id);
    } else if constexpr (kIsFixedString<T>) {
      if (!v.IsString() ||
          !json_text::parse_fixed_string({v.GetString(), v.GetStringLength()}, out.bytes.data(), out.bytes.size()))
        return fail(absl::StrFormat("must be a name of at most %d plain ASCII characters or %d hex digits",
                                    out.bytes.size(), 2 * out.bytes.size()),
                    kind(v));
    } else if constexpr (kIsOpaque<T>) {
      std::vector<u8> bytes;
      read_hex(v, bytes);
      if (ok() && bytes.size() != out.bytes.size())
        return fail(absl::StrFormat("must be %d bytes of hex", out.bytes.size()),
                    absl::StrFormat("%d byte%s", bytes.size(), bytes.size() == 1 ? "" : "s"));
      if (ok()) std::copy(bytes.begin(), bytes.end(), out.bytes.begin());
    } else if constexpr (requires { out.has_value(); }) {  // pointer: object or null
      if (v.IsNull()) {
        out.reset();
      } else {
        if (!out) out.emplace();
        read_value(v, *out);
      }
    } else if constexpr (requires {
                           out.size();
                           out[0];
                         }) {  // std::array
      if (!v.IsArray()) return fail(absl::StrFormat("must be an array of %d elements", out.size()), kind(v));
      if (v.Size() != out.size())
        return fail(absl::StrFormat("must have %d elements", out.size()), std::to_string(v.Size()));
      for (rapidjson::SizeType i = 0; i < v.Size() && ok(); ++i)
        at(std::to_string(i), [&] { read_value(v[i], out[i]); });
    } else {
      fields(v, out);
    }
  }

  void read_f32(const Value& v, f32& out) {
    if (v.IsString()) {
      auto bits = json_text::parse_f32_bits({v.GetString(), v.GetStringLength()});
      if (!bits) return fail("must be a number or \"f32:0x\" + 8 hex digits", written(v));
      out = *bits;
      return;
    }
    if (!v.IsNumber()) return fail("must be a number or \"f32:0x\" + 8 hex digits", kind(v));
    double d = v.GetDouble();
    // Numbers round to the nearest f32; past FLT_MAX + half an ulp that would be infinity, which
    // JSON spells "f32:0x7f800000".
    if (!(std::fabs(d) < 0x1.ffffffp127)) return fail("must be within the f32 range", written(v));
    out = static_cast<f32>(d);
  }

  std::string path_;
  std::vector<Scope> scopes_;
  std::vector<const char*> used_;
  std::optional<CheckFailure> failure_;
};

}  // namespace anvil
