// The vocabulary of layout declarations. A structure's `serialize(Archive&, unsigned)` is written once
// with these wrappers and Boost NVPs; the four archives (byte reader/writer, JSON reader/writer) each give
// every wrapper its meaning, so reading, writing and JSON cannot drift apart.
//
//   ar & make_nvp("managed", managed);                          // a plain field, JSON key = name
//   ar & expect<u8>(0x03, "pointer tag");                       // a checked constant, not in JSON
//   ar & expect_named<u8>("shader_constants", 0x03);            // a checked constant shown in JSON
//   ar & counted<u32>("instances", instances);                  // [u32 n][n elements], n derived on write
//   ar & make_nvp("instance", instance);  // std::optional<T>: inline pointer, 00 + object or 03 = null
//   ar & class_switch(body);                                    // [u32 class] selects the alternative
//   ar & present_if("tail", tail, !is_light, "unless ...");     // present when earlier fields say so
//   ar & until_tail("body", body);                              // bytes up to the next valid Visual tail
// Containers (FORGE.md):
//   ar & require(version == 25, 4, "version must be 25", ...);  // a check on fields read before
//   ar & size_of<u32>("compressed_size", stored, length);       // a byte run's size, stored ahead of it
//   ar & sized_bytes("stored", stored, length);                 // that run, its length read before
//   ar & heads<u16>("blocks", blocks); ... ar & bodies("block_data", blocks);  // a table, then what it sizes
//   ar & until_end("chunks", chunks);                            // elements up to the end of the bytes
//   ar & rest_bytes("plain", plain);                              // the bytes up to the end
//   ar & either(max_size != 0, "max_size != 0", [&](auto& a) { ... }, [&](auto& a) { ... });  // one of two forms
//   ar & only_if(flag == 1, "flag == 1", [&](auto& a) { ... });  // fields there when earlier ones say so
#pragma once

#include <array>
#include <boost/serialization/nvp.hpp>
#include <concepts>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "model/primitives.hpp"

namespace anvil {

// A JSON key of a layout declaration: a string literal and its length, both known where the layout is
// written, so the JSON archives copy and compare a key without scanning it. A key needs no JSON
// escaping (no quote, backslash or control character), which is checked at compile time: its text
// is its JSON spelling. An empty Key (text null) is "not shown in JSON".
struct Key {
  constexpr Key() = default;
  template <std::size_t N>
  consteval Key(const char (&literal)[N]) : text(literal), size(N - 1) {
    if (literal[N - 1] != '\0') throw "a layout key is a string literal";
    for (std::size_t i = 0; i + 1 < N; ++i)
      if (literal[i] == '"' || literal[i] == '\\' || static_cast<unsigned char>(literal[i]) < 0x20)
        throw "a layout key must need no JSON escaping";
  }
  const char* text = nullptr;
  std::size_t size = 0;
};

// The context every archive carries to the structures it nests: the `unsigned version` their serialize
// takes, as Boost.Serialization passes a class version. The container declarations read it as the
// archive version and data-file layout of FORGE.md 7 (model/forge/variant.hpp); 0, the default, is
// version 25 with AC2's layout, and every object declaration ignores it.
class ArchiveContext {
 public:
  unsigned version() const { return version_; }
  void set_version(unsigned version) { version_ = version; }

 protected:
  unsigned version_ = 0;
};

// Runs `value`'s declaration on `ar` as the outermost structure of `version`: the context too, which the
// structures it nests read (a version passed to serialize() alone would reach the outer one only).
template <class Archive, class T>
void serialize_root(Archive& ar, T& value, unsigned version) {
  ar.set_version(version);
  value.serialize(ar, version);
}

// A plain field: a Boost NVP (what every archive reads as one) that also carries its Key.
template <class T>
struct Field : boost::serialization::nvp<T> {
  Field(Key k, T& value) : boost::serialization::nvp<T>(k.text, value), key(k) {}
  Key key;
};
template <class T>
Field<T> make_nvp(Key key, T& value) {
  return {key, value};
}

// A value the format requires (a tag, a class id, a count that must be 0). The reader compares it and a
// mismatch fails the whole structure; the writer writes it. `name` empty: not shown in JSON.
template <class T>
struct Expect {
  Key name;  // JSON key, or empty
  T value;
  const char* what;  // what the check is, for errors and near-miss counts
};
template <class T>
Expect<T> expect(T value, const char* what) {
  return {Key{}, value, what};
}
template <class T>
Expect<T> expect_named(Key name, T value) {
  return {name, value, name.text};
}

// A vector stored as [Count n][n elements]. The count is the vector's size when writing and is checked
// against the bytes left (n * WireSize<T> <= left) before anything is allocated when reading.
template <class Count, class T>
struct Counted {
  Key name;
  std::vector<T>& items;
};
template <class Count, class T>
Counted<Count, T> counted(Key name, std::vector<T>& items) {
  return {name, items};
}

// Bytes stored as [Count n][n bytes]; JSON hex.
template <class Count>
struct CountedBytes {
  Key name;
  OpaqueBytes& data;
};
template <class Count>
CountedBytes<Count> counted_bytes(Key name, OpaqueBytes& data) {
  return {name, data};
}

// An alternative of a class switch names its class: `static constexpr u32 class_id`. At most one
// alternative (the last) may instead take any other class: it has `static constexpr bool any_class`
// and keeps the id it was read with in `u32 class_id`.
template <class T>
concept FixedClass = requires {
  T::class_id;
}
&&!requires { T::any_class; };
template <class T>
concept AnyClass = requires {
  T::any_class;
};

// A variant selected by the u32 class id stored in place. JSON: "class" (the class name, or "0x%08x"),
// then the alternative's fields in the same JSON object.
template <class... Alts>
struct ClassSwitch {
  std::variant<Alts...>& body;
  const char* what;  // which pointer this is, for errors ("instance class")
};
template <class... Alts>
ClassSwitch<Alts...> class_switch(std::variant<Alts...>& body, const char* what) {
  return {body, what};
}

// Makes `body` hold the alternative of class `cls` (keeping its storage when it holds it already), or
// the catch-all alternative with `cls` recorded; false when no alternative takes `cls`. What the
// loading archives do with a class id they read.
template <std::size_t I = 0, class... Alts>
bool select_class(std::variant<Alts...>& body, u32 cls) {
  if constexpr (I == sizeof...(Alts)) {
    return false;
  } else {
    using Alt = std::variant_alternative_t<I, std::variant<Alts...>>;
    if constexpr (AnyClass<Alt>) {
      if (body.index() != I) body.template emplace<I>();
      std::get<I>(body).class_id = cls;
      return true;
    } else {
      if (cls != Alt::class_id) return select_class<I + 1>(body, cls);
      if (body.index() != I) body.template emplace<I>();
      return true;
    }
  }
}

// The u32 class id of the alternative a variant holds.
template <class... Alts>
u32 class_id_of(const std::variant<Alts...>& body) {
  return std::visit(
      [](const auto& alt) -> u32 {
        if constexpr (AnyClass<std::decay_t<decltype(alt)>>)
          return alt.class_id;
        else
          return std::decay_t<decltype(alt)>::class_id;
      },
      body);
}

// A structure that is there when fields read before it say so (the Visual tail, absent after a
// LightInstance). JSON: the object, or null.
template <class T>
struct PresentIf {
  Key name;
  std::optional<T>& target;
  bool present;
  const char* condition;  // when it is there, in words (the format reference)
};
template <class T>
PresentIf<T> present_if(Key name, std::optional<T>& target, bool present, const char* condition) {
  return {name, target, present, condition};
}

// N values, each stored followed by a u32 constant of its own place (a VisualShaderConstants layout:
// its id, then the class that layout must have). JSON: the array of the N values.
template <class T, std::size_t N>
struct EachFollowedBy {
  Key name;
  std::array<T, N>& items;
  const std::array<u32, N>& constants;
  const char* what;
};
template <class T, std::size_t N>
EachFollowedBy<T, N> each_followed_by(Key name, std::array<T, N>& items, const std::array<u32, N>& constants,
                                      const char* what) {
  return {name, items, constants, what};
}

// Opaque bytes from here up to the first offset where a valid `ac2` Visual tail starts (at most
// kUntilTailLimit ahead, and with no Visual class-id bytes inside). FORMAT.md 2.1, unknown instances.
inline constexpr std::size_t kUntilTailLimit = std::size_t{1} << 20;
struct UntilTail {
  Key name;
  OpaqueBytes& data;
};
inline UntilTail until_tail(Key name, OpaqueBytes& data) { return {name, data}; }

// A check on fields read before (a version, a kind, an offset that must lie past a header). The
// loading byte archive fails when `holds` is false, at the offset `back` bytes before where it is (the
// start of the field checked); the other archives ignore it, as the fields it checks are theirs.
// The value found is printed as the field's type reads it: a negative count as -1, not as 4294967295.
struct Require {
  bool holds;
  std::size_t back;
  const char* what;
  u64 found;
  bool found_signed = false;  // `found` holds a negative value as its two's complement
  std::string found_text() const {
    return found_signed ? std::to_string(static_cast<i64>(found)) : std::to_string(found);
  }
};
template <std::integral T>
Require require(bool holds, std::size_t back, const char* what, T found) {
  return {holds, back, what, static_cast<u64>(found), std::is_signed_v<T>};
}

// The size of a byte run that is stored further on (FORGE.md 2: a chunk's compressed size, three fields
// before its bytes). Saving: `data`'s size, as Count; loading: the stored value, into `length`, for the
// sized_bytes() that reads the run. Not shown in JSON: it is derived from the run.
template <class Count>
struct SizeOf {
  Key name;
  const OpaqueBytes& data;
  u64& length;
};
template <class Count>
SizeOf<Count> size_of(Key name, const OpaqueBytes& data, u64& length) {
  return {name, data, length};
}

// A byte run whose length a field before it gave (checked against the bytes left before anything is
// allocated). Saving writes the run as it is; JSON hex. `up_to`: the field holding the offset (from the
// structure's start) the run ends at, when that is what its length is (the archive header's kept bytes).
struct SizedBytes {
  Key name;
  OpaqueBytes& data;
  u64 length;
  const char* up_to = nullptr;        // the field holding the offset it ends at, when that gives its length
  const char* length_expr = nullptr;  // its length as an expression of earlier fields (Kaitai and ImHex syntax)
};
inline SizedBytes sized_bytes(Key name, OpaqueBytes& data, u64 length, const char* up_to = nullptr) {
  return {name, data, length, up_to};
}
// A run whose length `length_expr` computes from earlier fields (the same expression, for the schemas).
inline SizedBytes computed_bytes(Key name, OpaqueBytes& data, u64 length, const char* length_expr) {
  return {name, data, length, nullptr, length_expr};
}

// A table stored as [Count n] and the n heads of `items`, whose bodies come later (after other fields),
// read by bodies() over the same vector: a block table's sizes, then the blocks. T declares
// `serialize_head(Archive&)`, `serialize_body(Archive&)`, and `head_wire_size` (checked against the
// bytes left, with the bodies' `min_body_wire_size`, before the vector is sized).
template <class Count, class T>
struct Heads {
  Key name;
  std::vector<T>& items;
};
template <class Count, class T>
Heads<Count, T> heads(Key name, std::vector<T>& items) {
  return {name, items};
}
// The head or the body of a Heads/Bodies element, as a structure of its own for the archives.
template <class T>
struct HeadOf {
  T& item;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    item.serialize_head(ar);
  }
};
template <class T>
struct BodyOf {
  T& item;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    item.serialize_body(ar);
  }
};

template <class T>
struct Bodies {
  Key name;
  std::vector<T>& items;
};
template <class T>
Bodies<T> bodies(Key name, std::vector<T>& items) {
  return {name, items};
}

// The bytes from here to the end of the bytes being read (a plain data file, FORGE.md 2): JSON hex.
struct RestBytes {
  Key name;
  OpaqueBytes& data;
};
inline RestBytes rest_bytes(Key name, OpaqueBytes& data) { return {name, data}; }

// Elements up to the end of the bytes being read (a block set's chunks, FORGE.md 2): each is at least
// `WireSize<T>` (> 0) bytes, so reading ends. JSON: an array.
template <class T>
struct UntilEnd {
  Key name;
  std::vector<T>& items;
};
template <class T>
UntilEnd<T> until_end(Key name, std::vector<T>& items) {
  return {name, items};
}

// One of two forms, chosen by fields read before (a block set's table of blocks, or its chunks: FORGE.md
// 2). Each form is a generic callable that declares its fields on the archive it is given. Every archive
// runs the form `first` selects (the operator& below); the describing archive describes both, with
// `condition`, so the choice is stated once for reading, writing, JSON and the format reference.
template <class First, class Second>
struct Either {
  bool first;
  const char* condition;  // when the first form is there, in the declaration's terms ("max_size != 0")
  First when;
  Second otherwise;
};
template <class First, class Second>
Either<First, Second> either(bool first, const char* condition, First when, Second otherwise) {
  return {first, condition, std::move(when), std::move(otherwise)};
}
// No fields: the second form of only_if().
struct NoFields {
  template <class Archive>
  void operator()(Archive&) const {}
};
// Fields that are there only when `present` (a resource's flag records after flag 1).
template <class First>
Either<First, NoFields> only_if(bool present, const char* condition, First when) {
  return {present, condition, std::move(when), NoFields{}};
}
// An archive that describes both forms (model/describe.hpp) declares its own operator& for Either.
template <class Archive>
concept DescribesBothForms = Archive::kDescribesBothForms;
template <class Archive, class First, class Second>
requires(!DescribesBothForms<Archive>) Archive& operator&(Archive& ar, const Either<First, Second>& e) {
  if (e.first)
    e.when(ar);
  else
    e.otherwise(ar);
  return ar;
}

}  // namespace anvil
