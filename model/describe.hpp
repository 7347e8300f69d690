// The describing archive: walks a structure's one layout declaration by type, not by value, and yields
// its fields as a tree (name, wire type, size or count rule, checked constants, alternatives). It is
// what `anvilrt schema` prints the format reference, the Kaitai Struct and the ImHex descriptions from
// (schema/), so those can only say what the reader, the writer and JSON do.
//
// It descends into every type a declaration can hold, whatever a value holds: both sides of an inline
// pointer, every alternative of a class switch, the element of a counted vector, a structure that is
// present only sometimes. Each is described on a default-constructed value of its type.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "model/layout.hpp"

namespace anvil::describe {

// What a node of the tree is on the wire.
enum class Kind {
  kScalar,          // an integer or float: `type` is u8, u16, u32, u64 or f32
  kId,              // an object id: `type` is id32 or id64 (JSON "0x" + hex)
  kOpaque,          // `size` bytes kept as they are (JSON hex)
  kConstant,        // a checked value (`constant`); shown in JSON only when it has a name
  kStruct,          // `children` in order
  kArray,           // `count` times `children[0]`
  kCounted,         // [count_type n] then n times `children[0]`
  kBytes,           // [count_type n] then n opaque bytes
  kPointer,         // an inline pointer: tag 00 then `children[0]`, or tag 03 for none
  kSwitch,          // [u32 class] then the fields of the alternative it names (`alternatives`)
  kPresentIf,       // `children[0]` when earlier fields say so (`condition`)
  kUntilTail,       // opaque bytes up to the next valid Visual tail (FORMAT.md 2.1)
  kEachFollowedBy,  // `count` times: `children[0]`, then a u32 constant of its place (`constants`)
};

struct Node;

// One alternative of a class switch: its class id (none for the catch-all) and its fields.
struct Alternative {
  std::optional<u32> class_id;
  std::shared_ptr<const Node> body;  // a kStruct
};

struct Node {
  Kind kind = Kind::kStruct;
  std::string name;                       // the JSON key, FORMAT.md field name and patch pointer segment; may be empty
  std::string type;                       // scalar and id types; for a kStruct the C++ type (e.g. "ac2::VisualTail")
  std::string what;                       // a constant's or a switch's check, for messages and the reference
  std::string section;                    // the FORMAT.md section of a structure, when it names one
  std::size_t size = 0;                   // bytes of a scalar, id, opaque run or constant
  std::size_t count = 0;                  // elements of a kArray or kEachFollowedBy
  std::string count_type;                 // kCounted, kBytes: the stored count's type
  std::size_t element_wire_size = 0;      // kCounted: what the count is checked against (FORMAT.md 2.6)
  u64 constant = 0;                       // kConstant
  std::vector<u32> constants;             // kEachFollowedBy
  std::vector<Node> children;             // see Kind
  std::vector<Alternative> alternatives;  // kSwitch
  bool any_class = false;                 // kSwitch: the last alternative takes any other class
  bool shown = true;                      // whether JSON shows it (unnamed constants are not)
  // kStruct: the size the type states for the count checks (FORMAT.md 2.6): `wire_size` (exact) or
  // `min_wire_size` (a least), which tests hold against the declaration.
  std::optional<std::size_t> stated_size;
  bool stated_size_is_least = false;
};

// The fixed wire size of a node, or nullopt when it depends on the data.
std::optional<std::size_t> fixed_size(const Node& node);
// The fewest bytes a node can take (empty counts, null pointers, absent parts, the smallest
// alternative).
std::size_t min_size(const Node& node);

// "ac2::Visual" for anvil::ac2::Visual.
template <class T>
std::string type_name() {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> full(abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status),
                                              std::free);
  std::string name = status == 0 ? full.get() : typeid(T).name();
  if (name.rfind("anvil::", 0) == 0) name.erase(0, 7);
  return name;
}

template <class T>
Node describe_struct();

class Describer {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  std::vector<Node> fields;

  template <class T>
  Describer& operator&(const boost::serialization::nvp<T>& f) {
    fields.push_back(value<T>(f.name()));
    return *this;
  }
  template <class T>
  Describer& operator&(const Expect<T>& e) {
    Node n;
    n.kind = Kind::kConstant;
    n.name = e.name.text != nullptr ? e.name.text : "";
    n.shown = e.name.text != nullptr;
    n.type = scalar_type<T>();
    n.size = sizeof(T);
    n.constant = e.value;
    n.what = e.what;
    fields.push_back(std::move(n));
    return *this;
  }
  template <class Count, class T>
  Describer& operator&(const Counted<Count, T>& c) {
    Node n;
    n.kind = Kind::kCounted;
    n.name = c.name.text;
    n.count_type = scalar_type<Count>();
    n.element_wire_size = WireSize<T>::value;
    n.children.push_back(value<T>(""));
    fields.push_back(std::move(n));
    return *this;
  }
  template <class Count>
  Describer& operator&(const CountedBytes<Count>& c) {
    Node n;
    n.kind = Kind::kBytes;
    n.name = c.name.text;
    n.count_type = scalar_type<Count>();
    fields.push_back(std::move(n));
    return *this;
  }
  template <class... Alts>
  Describer& operator&(const ClassSwitch<Alts...>& s) {
    Node n;
    n.kind = Kind::kSwitch;
    n.name = "class";
    n.what = s.what;
    n.size = 4;
    (add_alternative<Alts>(n), ...);
    fields.push_back(std::move(n));
    return *this;
  }
  template <class T>
  Describer& operator&(const PresentIf<T>& p) {
    Node n;
    n.kind = Kind::kPresentIf;
    n.name = p.name.text;
    n.what = p.condition;
    n.children.push_back(describe_struct<T>());
    fields.push_back(std::move(n));
    return *this;
  }
  template <class T, std::size_t N>
  Describer& operator&(const EachFollowedBy<T, N>& e) {
    Node n;
    n.kind = Kind::kEachFollowedBy;
    n.name = e.name.text;
    n.what = e.what;
    n.count = N;
    n.constants.assign(e.constants.begin(), e.constants.end());
    n.children.push_back(value<T>(""));
    fields.push_back(std::move(n));
    return *this;
  }
  Describer& operator&(const UntilTail& u) {
    Node n;
    n.kind = Kind::kUntilTail;
    n.name = u.name.text;
    fields.push_back(std::move(n));
    return *this;
  }

  template <class T>
  static std::string scalar_type() {
    if constexpr (std::is_same_v<T, f32>) return "f32";
    return (std::is_signed_v<T> ? "i" : "u") + std::to_string(8 * sizeof(T));
  }

 private:
  template <class Alt, class... Alts>
  static void add_alternative(Node& n) {
    Alternative a;
    if constexpr (AnyClass<Alt>)
      n.any_class = true;
    else
      a.class_id = Alt::class_id;
    a.body = std::make_shared<const Node>(describe_struct<Alt>());
    n.alternatives.push_back(std::move(a));
  }

  // The node of a field of type T, described on a default value of T.
  template <class T>
  static Node value(const char* name) {
    Node n;
    n.name = name;
    if constexpr (std::is_arithmetic_v<T>) {
      n.kind = Kind::kScalar;
      n.type = scalar_type<T>();
      n.size = sizeof(T);
    } else if constexpr (requires(T v) { v.value; }) {
      n.kind = Kind::kId;
      n.size = sizeof(T{}.value);
      n.type = "id" + std::to_string(8 * n.size);
    } else if constexpr (kIsOpaque<T>) {
      n.kind = Kind::kOpaque;
      n.size = sizeof(T{}.bytes);
    } else if constexpr (requires(T v) { v.has_value(); }) {
      n.kind = Kind::kPointer;
      n.children.push_back(describe_struct<typename T::value_type>());
    } else if constexpr (requires(T v) { std::tuple_size<T>::value; }) {
      n.kind = Kind::kArray;
      n.count = std::tuple_size<T>::value;
      n.children.push_back(value<typename T::value_type>(""));
    } else {
      n = describe_struct<T>();
      n.name = name;
    }
    return n;
  }
};

// The structure T as its declaration lays it out.
template <class T>
Node describe_struct() {
  Describer d;
  T value{};
  value.serialize(d, 0);
  Node n;
  n.kind = Kind::kStruct;
  n.type = type_name<T>();
  if constexpr (requires { T::format_section; }) n.section = T::format_section;
  if constexpr (requires { T::wire_size; }) {
    n.stated_size = T::wire_size;
  } else if constexpr (requires { T::min_wire_size; }) {
    n.stated_size = T::min_wire_size;
    n.stated_size_is_least = true;
  }
  n.children = std::move(d.fields);
  return n;
}

}  // namespace anvil::describe
