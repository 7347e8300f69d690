// A test-only saving archive that walks a structure's layout declaration like the byte writer and
// records where every checked byte lies: checked constants, counts, pointer tags and class ids of
// switches without a catch-all. The check tests alter each in turn and expect the structure to fail.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "writer/byte_writer.hpp"

namespace anvil::test {

struct CheckedField {
  enum Kind { kConstant, kCount, kPointerTag, kClass };
  Kind kind;
  std::size_t offset;  // from the start of the structure
  std::size_t size;
  std::string what;
};

class CheckLocator {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  std::vector<CheckedField> fields;

  template <class T>
  CheckLocator& operator&(const boost::serialization::nvp<T>& f) {
    value(f.name(), f.value());
    return *this;
  }
  template <class T>
  CheckLocator& operator&(const Expect<T>& e) {
    fields.push_back({CheckedField::kConstant, pos_, sizeof(T), e.what});
    pos_ += sizeof(T);
    return *this;
  }
  template <class Count, class T>
  CheckLocator& operator&(const Counted<Count, T>& c) {
    fields.push_back({CheckedField::kCount, pos_, sizeof(Count), c.name.text});
    pos_ += sizeof(Count);
    for (auto& item : c.items) value(c.name.text, item);
    return *this;
  }
  template <class Count>
  CheckLocator& operator&(const CountedBytes<Count>& c) {
    fields.push_back({CheckedField::kCount, pos_, sizeof(Count), c.name.text});
    pos_ += sizeof(Count) + c.data.bytes.size();
    return *this;
  }
  template <class... Alts>
  CheckLocator& operator&(const ClassSwitch<Alts...>& s) {
    constexpr bool has_catch_all = (AnyClass<Alts> || ...);
    if (!has_catch_all) fields.push_back({CheckedField::kClass, pos_, 4, s.what});
    pos_ += 4;
    std::visit([this](auto& alt) { alt.serialize(*this, 0); }, s.body);
    return *this;
  }
  template <class T>
  CheckLocator& operator&(const PresentIf<T>& p) {
    if (p.target) p.target->serialize(*this, 0);
    return *this;
  }
  template <class T, std::size_t N>
  CheckLocator& operator&(const EachFollowedBy<T, N>& e) {
    for (std::size_t i = 0; i < N; ++i) {
      value(e.name.text, e.items[i]);
      fields.push_back({CheckedField::kConstant, pos_, 4, e.what});
      pos_ += 4;
    }
    return *this;
  }
  CheckLocator& operator&(const UntilTail& u) {
    pos_ += u.data.bytes.size();
    return *this;
  }

 private:
  template <class T>
  void value(const char* name, T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      pos_ += sizeof v;
    } else if constexpr (requires { v.value; }) {
      pos_ += sizeof v.value;
    } else if constexpr (requires { v.bytes.size(); }) {
      pos_ += v.bytes.size();
    } else if constexpr (requires { v.has_value(); }) {
      fields.push_back({CheckedField::kPointerTag, pos_, 1, name});
      pos_ += 1;
      if (v) v->serialize(*this, 0);
    } else if constexpr (requires {
                           v.size();
                           v[0];
                         }) {
      for (auto& item : v) value(name, item);
    } else {
      v.serialize(*this, 0);
    }
  }
  std::size_t pos_ = 0;
};

template <class T>
std::vector<CheckedField> checked_fields(const T& value) {
  CheckLocator locator;
  const_cast<T&>(value).serialize(locator, 0);
  return locator.fields;
}

}  // namespace anvil::test
