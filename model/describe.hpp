// The describing archive: walks a structure's one layout declaration by type, not by value, and yields
// its fields as a tree (name, wire type, size or count rule, checked constants, alternatives). It is
// what `anvilrt schema` prints the format reference, the Kaitai Struct and the ImHex descriptions from
// (schema/), so those can only say what the reader, the writer and JSON do. The tree is
// model/describe_node.hpp.
//
// It descends into every type a declaration can hold, whatever a value holds: both sides of an inline
// pointer, every alternative of a class switch, the element of a counted vector, a structure that is
// present only sometimes, both forms of an either(). Each is described on a default-constructed value
// of its type. It covers the container wrappers (FORGE.md) as well as the object ones (FORMAT.md).
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "model/describe_node.hpp"
#include "model/layout.hpp"

namespace anvil::describe {

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

class Describer : public ArchiveContext {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;
  static constexpr bool kDescribesBothForms = true;  // layout.hpp: either() is described, not run

  std::vector<Node> fields;

  template <class T>
  Describer& operator&(const boost::serialization::nvp<T>& f) {
    fields.push_back(value<T>(f.name()));
    return *this;
  }
  template <class T>
  Describer& operator&(const Expect<T>& e) {
    Node& n = add(Kind::kConstant, e.name.text != nullptr ? e.name.text : "");
    n.shown = e.name.text != nullptr;
    n.type = scalar_type<T>();
    n.size = sizeof(T);
    n.constant = e.value;
    n.what = e.what;
    return *this;
  }
  template <class Count, class T>
  Describer& operator&(const Counted<Count, T>& c) {
    Node& n = add(Kind::kCounted, c.name.text);
    n.count_type = scalar_type<Count>();
    n.element_wire_size = WireSize<T>::value;
    n.children.push_back(value<T>(""));
    return *this;
  }
  template <class Count>
  Describer& operator&(const CountedBytes<Count>& c) {
    Node& n = add(Kind::kBytes, c.name.text);
    n.count_type = scalar_type<Count>();
    return *this;
  }
  template <class... Alts>
  Describer& operator&(const ClassSwitch<Alts...>& s) {
    Node& n = add(Kind::kSwitch, "class");
    n.what = s.what;
    n.size = 4;
    (add_alternative<Alts>(n), ...);
    return *this;
  }
  template <class T>
  Describer& operator&(const PresentIf<T>& p) {
    Node& n = add(Kind::kPresentIf, p.name.text);
    n.what = p.condition;
    n.children.push_back(describe_struct<T>());
    return *this;
  }
  template <class T, std::size_t N>
  Describer& operator&(const EachFollowedBy<T, N>& e) {
    Node& n = add(Kind::kEachFollowedBy, e.name.text);
    n.what = e.what;
    n.count = N;
    n.constants.assign(e.constants.begin(), e.constants.end());
    n.children.push_back(value<T>(""));
    return *this;
  }
  Describer& operator&(const UntilTail& u) {
    add(Kind::kUntilTail, u.name.text);
    return *this;
  }

  // A check on the fields read before: the field it points back at (the last one) carries it.
  Describer& operator&(const Require& r) {
    if (!fields.empty()) fields.back().checks.push_back(r.what);
    return *this;
  }
  template <class Count>
  Describer& operator&(const SizeOf<Count>& s) {
    Node& n = add(Kind::kSizeOf, s.name.text);
    n.type = scalar_type<Count>();
    n.size = sizeof(Count);
    n.shown = false;
    open_sizes_.push_back(fields.size() - 1);
    return *this;
  }
  Describer& operator&(const SizedBytes& s) {
    Node& n = add(Kind::kSizedBytes, s.name.text);
    if (s.length_expr != nullptr) {
      n.size_expr = s.length_expr;
    } else if (s.up_to != nullptr) {
      n.what = s.up_to;
    } else if (!open_sizes_.empty()) {
      Node& size = fields[open_sizes_.front()];
      n.sized_by = size.name;
      size.sizes = n.name;
      open_sizes_.erase(open_sizes_.begin());
    } else if (!open_head_sizes_.empty()) {  // a body sized by its head (a block's compressed size)
      n.sized_by = open_head_sizes_.front();
      open_head_sizes_.erase(open_head_sizes_.begin());
    }
    return *this;
  }
  template <class Count, class T>
  Describer& operator&(const Heads<Count, T>& h) {
    Node& n = add(Kind::kHeads, h.name.text);
    n.count_type = scalar_type<Count>();
    n.element_wire_size = T::head_wire_size + T::min_body_wire_size;
    T item{};
    Describer d;
    HeadOf<T>{item}.serialize(d, 0);
    // A head whose size depends on the variant (a data file's entry, FORGE.md 7) states its least.
    Node head = part(
        type_name<T>() + "Head", std::move(d.fields), T::head_wire_size, requires { T::head_size_is_least; });
    for (std::size_t i : d.open_sizes_) open_head_sizes_.push_back(head.children[i].name);
    n.children.push_back(std::move(head));
    last_heads_ = n.name;
    return *this;
  }
  template <class T>
  Describer& operator&(const Bodies<T>& b) {
    Node& n = add(Kind::kBodies, b.name.text);
    n.what = last_heads_;
    T item{};
    Describer d;
    d.open_head_sizes_ = std::move(open_head_sizes_);
    open_head_sizes_.clear();
    BodyOf<T>{item}.serialize(d, 0);
    // a head's size field names the body's run it sizes (the table may be declared in either() forms)
    auto link = [&](auto& self, std::vector<Node>& nodes) -> void {
      for (Node& f : nodes) {
        if (f.kind == Kind::kEither || f.kind == Kind::kGroup) self(self, f.children);
        if (f.kind == Kind::kHeads && f.name == last_heads_)
          for (const Node& body_field : d.fields)
            for (Node& head_field : f.children[0].children)
              if (head_field.kind == Kind::kSizeOf && head_field.sizes.empty() &&
                  body_field.sized_by == head_field.name)
                head_field.sizes = body_field.name;
      }
    };
    link(link, fields);
    n.children.push_back(part(type_name<T>() + "Body", std::move(d.fields), T::min_body_wire_size, true));
    return *this;
  }
  Describer& operator&(const RestBytes& r) {
    add(Kind::kRestBytes, r.name.text);
    return *this;
  }
  template <class T>
  Describer& operator&(const UntilEnd<T>& u) {
    Node& n = add(Kind::kUntilEnd, u.name.text);
    n.children.push_back(value<T>(""));
    return *this;
  }
  // Both forms, each as a group of fields.
  template <class First, class Second>
  Describer& operator&(const Either<First, Second>& e) {
    Node& n = add(Kind::kEither);
    n.what = e.condition;
    n.children.push_back(group(e.when));
    n.children.push_back(group(e.otherwise));
    return *this;
  }

  template <class T>
  static std::string scalar_type() {
    if constexpr (std::is_same_v<T, f32>) return "f32";
    return (std::is_signed_v<T> ? "i" : "u") + std::to_string(8 * sizeof(T));
  }

 private:
  std::vector<std::size_t> open_sizes_;       // kSizeOf fields whose run is not yet declared
  std::vector<std::string> open_head_sizes_;  // the same, left by the heads of a table for its bodies
  std::string last_heads_;                    // the last kHeads, whose bodies a kBodies reads

  // A new field of `kind`, last of `fields` (the reference lasts until the next field is added).
  Node& add(Kind kind, std::string name = {}) {
    Node& n = fields.emplace_back();
    n.kind = kind;
    n.name = std::move(name);
    return n;
  }

  // A structure made of part of a type's declaration (a table element's head or body).
  static Node part(std::string type, std::vector<Node> children, std::size_t stated, bool least) {
    Node n;
    n.kind = Kind::kStruct;
    n.type = std::move(type);
    n.children = std::move(children);
    n.stated_size = stated;
    n.stated_size_is_least = least;
    return n;
  }
  template <class Form>
  Node group(const Form& form) {
    Describer d;
    d.open_head_sizes_ = open_head_sizes_;
    form(d);
    // A table declared in a form (the block count's width by layout) is the one the bodies after it read.
    if (!d.last_heads_.empty()) {
      last_heads_ = d.last_heads_;
      open_head_sizes_ = d.open_head_sizes_;
    }
    Node n;
    n.kind = Kind::kGroup;
    n.children = std::move(d.fields);
    return n;
  }

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
    } else if constexpr (kIsFixedString<T>) {
      n.kind = Kind::kText;
      n.size = sizeof(T{}.bytes);
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
