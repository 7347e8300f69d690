// The bytes a forge structure keeps without knowing them: the fixed runs of its declaration (its Opaque<N>
// fields, FORGE.md's "unknown"), in the declaration's order, for one variant. forge.json (docs/forge-json.md)
// writes and reads them through this walk, so their sizes, their order and the runs a version adds (version
// 27's name entry and file-data header) come from the declaration and nowhere else.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "model/forge/variant.hpp"
#include "model/layout.hpp"

namespace anvil::forge {

// Walks a declaration as the byte writer would and hands each kept run to `visit(name, bytes)`, where
// `bytes` are the value's own (writable: a reader of forge.json fills them). Every other field is passed over.
template <class Visit>
class KeptWalker : public ArchiveContext {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  KeptWalker(unsigned version, Visit& visit) : visit_(visit) { version_ = version; }

  template <class T>
  KeptWalker& operator&(const boost::serialization::nvp<T>& f) {
    if constexpr (kIsOpaque<T>) visit_(std::string_view(f.name()), std::span<u8>(f.value().bytes));
    return *this;
  }
  template <class T>
  KeptWalker& operator&(const Expect<T>&) {
    return *this;
  }
  KeptWalker& operator&(const Require&) { return *this; }
  KeptWalker& operator&(const SizedBytes&) { return *this; }
  template <class Count>
  KeptWalker& operator&(const SizeOf<Count>&) {
    return *this;
  }
  template <class Count>
  KeptWalker& operator&(const CountedBytes<Count>&) {
    return *this;
  }
  template <class Count, class T>
  KeptWalker& operator&(const Counted<Count, T>&) {
    return *this;
  }

 private:
  Visit& visit_;
};

// visit(name, bytes) for each kept run of `value` as `variant` lays it out, in order.
template <class T, class Visit>
void for_each_kept(T& value, ForgeVariant variant, Visit visit) {
  KeptWalker<Visit> walker(variant.code(), visit);
  value.serialize(walker, variant.code());
}

// The kept runs of `value`, end to end.
template <class T>
std::vector<u8> kept_bytes(const T& value, ForgeVariant variant) {
  std::vector<u8> out;
  T copy = value;  // the walk hands out writable bytes
  for_each_kept(copy, variant,
                [&](std::string_view, std::span<u8> run) { out.insert(out.end(), run.begin(), run.end()); });
  return out;
}

// How many bytes a T of `variant` keeps.
template <class T>
std::size_t kept_size(ForgeVariant variant) {
  T value{};
  return kept_bytes(value, variant).size();
}

// The kept runs of `value` filled from `bytes`, end to end; false (and `value` unchanged) when `bytes` is
// not kept_size<T>(variant) long.
template <class T>
bool set_kept_bytes(T& value, ForgeVariant variant, std::span<const u8> bytes) {
  if (bytes.size() != kept_size<T>(variant)) return false;
  std::size_t at = 0;
  for_each_kept(value, variant, [&](std::string_view, std::span<u8> run) {
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), run.size(), run.begin());
    at += run.size();
  });
  return true;
}

// The kept runs of `from` copied into `to` (two values of one structure; its other fields are left).
template <class T>
void copy_kept(const T& from, T& to, ForgeVariant variant) {
  set_kept_bytes(to, variant, kept_bytes(from, variant));
}

}  // namespace anvil::forge
