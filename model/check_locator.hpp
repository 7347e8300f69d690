// The check-locating archive: walks a structure's layout declaration as the byte writer would and
// records where every checked byte lies (checked constants, counts, pointer tags, class ids of switches
// without a catch-all), with the field path and the wording the byte reader reports when that check
// fails. The check tests alter each in turn and expect the structure to fail; the generator plants its
// near misses on the checks it finds here, never on offsets typed by hand.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "model/check_text.hpp"
#include "model/layout.hpp"

namespace anvil {

struct CheckedField {
  enum Kind { kConstant, kCount, kPointerTag, kClass };
  Kind kind;
  std::size_t offset;  // from the start of the structure
  std::size_t size;
  std::string what;   // the declaration's name for the check ("streams count", "slot class", a field name)
  std::string path;   // the structures around it, as the byte reader reports them ("instance/compiled")
  std::string check;  // what the byte reader says when it fails ("streams count must be 0x00000000"); empty for counts
  u64 value = 0;      // a constant's required value

  // "instance/compiled: streams count must be 0x00000000", as a near miss is counted (CheckFailure::kind).
  std::string failure() const { return path.empty() ? check : path + ": " + check; }
};

class CheckLocator : public ArchiveContext {
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
    add(CheckedField::kConstant, sizeof(T), e.what, must_be_text(e.what, u64{e.value}, sizeof(T)), e.value);
    pos_ += sizeof(T);
    return *this;
  }
  template <class Count, class T>
  CheckLocator& operator&(const Counted<Count, T>& c) {
    add(CheckedField::kCount, sizeof(Count), c.name.text, "");
    pos_ += sizeof(Count);
    for (auto& item : c.items) value(c.name.text, item);
    return *this;
  }
  template <class Count>
  CheckLocator& operator&(const CountedBytes<Count>& c) {
    add(CheckedField::kCount, sizeof(Count), c.name.text, "");
    pos_ += sizeof(Count) + c.data.bytes.size();
    return *this;
  }
  template <class... Alts>
  CheckLocator& operator&(const ClassSwitch<Alts...>& s) {
    constexpr bool has_catch_all = (AnyClass<Alts> || ...);
    if (!has_catch_all) add(CheckedField::kClass, 4, s.what, must_be_known_text(s.what));
    pos_ += 4;
    std::visit([this](auto& alt) { alt.serialize(*this, version_); }, s.body);
    return *this;
  }
  template <class T>
  CheckLocator& operator&(const PresentIf<T>& p) {
    if (p.target) nested(p.name.text, *p.target);
    return *this;
  }
  template <class T, std::size_t N>
  CheckLocator& operator&(const EachFollowedBy<T, N>& e) {
    for (std::size_t i = 0; i < N; ++i) {
      value(e.name.text, e.items[i]);
      add(CheckedField::kConstant, 4, e.what, must_be_text(e.what, e.constants[i], 4), e.constants[i]);
      pos_ += 4;
    }
    return *this;
  }
  CheckLocator& operator&(const UntilTail& u) {
    pos_ += u.data.bytes.size();
    return *this;
  }

 private:
  void add(CheckedField::Kind kind, std::size_t size, std::string what, std::string check, u64 value = 0) {
    fields.push_back({kind, pos_, size, std::move(what), path(), std::move(check), value});
  }
  std::string path() const {
    std::string p;
    for (const char* name : path_) {
      if (!p.empty()) p += '/';
      p += name;
    }
    return p;
  }
  template <class T>
  void nested(const char* name, T& v) {
    path_.push_back(name);
    v.serialize(*this, version_);
    path_.pop_back();
  }
  template <class T>
  void value(const char* name, T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      pos_ += sizeof v;
    } else if constexpr (requires { v.value; }) {
      pos_ += sizeof v.value;
    } else if constexpr (requires { v.bytes.size(); }) {
      pos_ += v.bytes.size();
    } else if constexpr (requires { v.has_value(); }) {
      path_.push_back(name);
      add(CheckedField::kPointerTag, 1, name, kPointerTagText);
      path_.pop_back();
      pos_ += 1;
      if (v) nested(name, *v);
    } else if constexpr (requires {
                           v.size();
                           v[0];
                         }) {
      for (auto& item : v) value(name, item);
    } else {
      nested(name, v);
    }
  }
  std::size_t pos_ = 0;
  std::vector<const char*> path_;
};

// Every checked field of `value`'s encoding, in order.
template <class T>
std::vector<CheckedField> checked_fields(const T& value) {
  CheckLocator locator;
  const_cast<T&>(value).serialize(locator, 0);
  return locator.fields;
}

// Where the first checked constant equal to `value` lies in the encoding of a default T: where the carver
// finds a top-level object's class id, and the tail search a Visual tail's. Taken from the declaration,
// so no offset is typed by hand; the fields before it must have fixed sizes.
template <class T>
std::size_t constant_offset(u64 value) {
  for (const CheckedField& f : checked_fields(T{}))
    if (f.kind == CheckedField::kConstant && f.value == value) return f.offset;
  throw std::logic_error("constant_offset: no such constant in the declaration");
}

}  // namespace anvil
