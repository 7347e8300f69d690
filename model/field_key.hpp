// The JSON key of a member of a structure, found in the structure's layout declaration: code that names a
// field in a JSON pointer (the bulk operations' changes and errors, patch/bulk.cpp) takes the
// declaration's spelling instead of typing its own. Plain fields (make_nvp) and counted vectors
// (counted) have keys; any other member is a logic error.
#pragma once

#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "model/layout.hpp"

namespace anvil {

// An archive that walks a declaration and notes the key of the one member at `target`.
class FieldKeyFinder {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  explicit FieldKeyFinder(const void* target) : target_(target) {}

  template <class T>
  FieldKeyFinder& operator&(const Field<T>& f) {
    if (static_cast<const void*>(&f.value()) == target_) found = f.key;
    return *this;
  }
  template <class Count, class T>
  FieldKeyFinder& operator&(const Counted<Count, T>& c) {
    if (static_cast<const void*>(&c.items) == target_) found = c.name;
    return *this;
  }
  // Everything else in a declaration (checked constants, class switches, ...) holds no such member.
  template <class Other>
  FieldKeyFinder& operator&(const Other&) {
    return *this;
  }

  Key found;

 private:
  const void* target_;
};

// field_key(&ac2::MaterialInfo::replacement) == "replacement".
template <class S, class M>
std::string_view field_key(M S::*member) {
  S s{};
  FieldKeyFinder finder(&(s.*member));
  s.serialize(finder, 0);
  if (finder.found.text == nullptr) throw std::logic_error("field_key: not a named field of the declaration");
  return {finder.found.text, finder.found.size};
}

}  // namespace anvil
