// Which archive version a container declaration reads (FORGE.md 1 and 7): the context of the forge
// declarations, given to their serialize as its `unsigned version` (the way Boost.Serialization passes
// a class version) and carried by every archive to the structures it nests (model/layout.hpp
// ArchiveContext). Each structure states its versions once, in its own declaration; the sizes and
// offsets other code needs are taken from the declarations by wire_size() and field_offset() below,
// never typed again.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "model/json_text.hpp"
#include "model/layout.hpp"

namespace anvil::forge {

struct ForgeVariant {
  static constexpr u32 kFirst = 25, kLast = 27;  // the archive versions read (those pyUbiForge2 reads)

  u32 archive = kFirst;

  // The `unsigned version` of the declarations: 0 for version 25, so that a declaration run without a
  // context (every object's, and every caller that predates the versions) reads version 25.
  constexpr unsigned code() const { return archive - kFirst; }
  static constexpr ForgeVariant of(unsigned code) { return {kFirst + code}; }
  static constexpr bool known(u32 version) { return version >= kFirst && version <= kLast; }

  // Version 27 (FORGE.md 7): 64-bit ids, 20-byte index entries whose offset is the stored bytes' own (no
  // 440-byte data file header), 192-byte name entries, and the first table section's offset at H + 36.
  constexpr bool v27() const { return archive == 27; }
  // The hex digits of an id of this version's index entries: 8, or 16 in version 27.
  constexpr int id_digits() const { return v27() ? 16 : 8; }

  friend constexpr bool operator==(ForgeVariant, ForgeVariant) = default;
};

// A data file's id as every command prints it and every document spells it: the JSON spelling of an id
// (model/json_text.hpp) at the version's width, 8 hex digits or 16 in version 27.
inline std::string format_id(u64 id, ForgeVariant variant) {
  return json_text::format_id(id, static_cast<std::size_t>(variant.id_digits() / 2));
}

// The archive version as the schema's descriptions name it: the Kaitai one defines it as the instance
// `_root.as<forge_archive>.header.version` in each type whose fields depend on it, the ImHex one as a global that the
// archive's header sets (schema/ksy.cpp, schema/hexpat_forge.cpp).
inline constexpr const char* kArchiveVersionName = "archive_version";
// The condition a declaration names for a form of version 27, in those terms.
inline constexpr const char* kVersion27 = "archive_version == 27";

// Walks a declaration as the byte writer would, on a default value, adding up the bytes of its fields
// and noting where each named field starts. For structures of fixed size (the tables of FORGE.md 1).
class FieldWalker : public ArchiveContext {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  explicit FieldWalker(unsigned version) { version_ = version; }

  std::size_t size = 0;
  std::string_view wanted;               // the field whose offset is looked for
  std::optional<std::size_t> wanted_at;  // where it starts

  template <class T>
  FieldWalker& operator&(const boost::serialization::nvp<T>& f) {
    if (!wanted_at && f.name() == wanted) wanted_at = size;
    add(f.value());
    return *this;
  }
  template <class T>
  FieldWalker& operator&(const Expect<T>&) {
    size += sizeof(T);
    return *this;
  }
  FieldWalker& operator&(const Require&) { return *this; }
  FieldWalker& operator&(const SizedBytes& s) {
    size += s.length;
    return *this;
  }

 private:
  template <class T>
  void add(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      size += sizeof v;
    } else if constexpr (requires { v.value; }) {
      size += sizeof v.value;
    } else if constexpr (requires { v.bytes.size(); }) {
      size += v.bytes.size();
    } else {
      static_assert(std::is_arithmetic_v<T>, "FieldWalker: a field of a fixed-size table structure");
    }
  }
};

// The bytes a T of `variant` takes on the wire (its fixed size, from its declaration).
template <class T>
std::size_t wire_size(ForgeVariant variant = {}) {
  FieldWalker walker(variant.code());
  T value{};
  value.serialize(walker, variant.code());
  return walker.size;
}

// Where the field named `name` starts in a T of `variant`, from its declaration: the offsets errors
// name (where S lies in the file-data header, where a section's tables lie).
template <class T>
std::size_t field_offset(std::string_view name, ForgeVariant variant = {}) {
  FieldWalker walker(variant.code());
  walker.wanted = name;
  T value{};
  value.serialize(walker, variant.code());
  if (!walker.wanted_at) throw std::logic_error("field_offset: no such field in the declaration");
  return *walker.wanted_at;
}

}  // namespace anvil::forge
