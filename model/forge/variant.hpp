// Which archive version a container declaration reads (FORGE.md 1 and 7): the context of the forge
// declarations, given to their serialize as its `unsigned version` (the way Boost.Serialization passes
// a class version) and carried by every archive to the structures it nests (model/layout.hpp
// ArchiveContext). Each structure states its versions once, in its own declaration; the sizes and
// offsets other code needs are taken from the declarations by wire_size() and field_offset() below,
// never typed again.
#pragma once

#include <array>
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
  // The data-file layout (FORGE.md 7: pyUbiForge2's DataFileFormat 0-3): not in the file, found by content
  // (the layout whose entry tables parse exactly) or named by the user. 1 is AC2's (FORGE.md 2-3).
  u8 layout = 1;
  static constexpr u8 kLayouts = 4;

  // The `unsigned version` of the declarations: 0 for version 25 with layout 1, so that a declaration run
  // without a context (every object's, and every caller that predates the versions) reads AC2's form.
  constexpr unsigned code() const { return (archive - kFirst) * kLayouts + (layout ^ 1u); }
  static constexpr ForgeVariant of(unsigned code) {
    return {kFirst + code / kLayouts, static_cast<u8>((code % kLayouts) ^ 1u)};
  }
  static constexpr bool known(u32 version) { return version >= kFirst && version <= kLast; }
  static constexpr bool known_layout(unsigned layout) { return layout < kLayouts; }

  // Version 27 (FORGE.md 7): 64-bit ids, 20-byte index entries whose offset is the stored bytes' own (no
  // 440-byte data file header), 192-byte name entries, and the first table section's offset at H + 36.
  constexpr bool v27() const { return archive == 27; }
  // The hex digits of an id of this version's index entries: 8, or 16 in version 27.
  constexpr int id_digits() const { return v27() ? 16 : 8; }

  // The data-file layouts (FORGE.md 7). Layout 1: the stored prefix [u32 n][8n]; layout 2: [u32 b][b bytes].
  constexpr bool prefix_pairs() const { return layout == 1; }
  constexpr bool prefix_bytes() const { return layout == 2; }
  // Layout 3: the block count and a plain chunk's size are u32 (u16 before).
  constexpr bool wide_counts() const { return layout == 3; }
  // Layouts 2 and 3: an entry's id is a u64 and `e` pairs of 2 bytes follow its i16 e when e > 0.
  constexpr bool wide_entries() const { return layout >= 2; }
  // Layout 1: [u32 m][m bytes] after the entries' table.
  constexpr bool table_tail() const { return layout == 1; }
  // Version 26, layouts 1-3: [u32 x][x bytes] right after the entries' table.
  constexpr bool version_26_tail() const { return archive == 26 && layout >= 1; }

  friend constexpr bool operator==(ForgeVariant, ForgeVariant) = default;
};

namespace variant_text {
// `prefix` followed by the versions kFirst..kLast as a sentence names them ("25, 26 or 27", with `last`
// " or "), NUL-ended: built from the range, so that a new version changes every message that lists them.
template <std::size_t N>
constexpr std::array<char, N + 64> versions_after(const char (&prefix)[N], const char* last = " or ") {
  std::array<char, N + 64> text{};
  std::size_t n = 0;
  for (std::size_t i = 0; i + 1 < N; ++i) text[n++] = prefix[i];
  for (u32 v = ForgeVariant::kFirst; v <= ForgeVariant::kLast; ++v) {
    const char* joint = v == ForgeVariant::kFirst ? "" : v == ForgeVariant::kLast ? last : ", ";
    while (*joint) text[n++] = *joint++;
    char digits[10];
    int k = 0;
    for (u32 rest = v; k == 0 || rest != 0; rest /= 10) digits[k++] = static_cast<char>('0' + rest % 10);
    while (k) text[n++] = digits[--k];
  }
  return text;
}
inline constexpr auto kVersions = versions_after("");
inline constexpr auto kVersionsAll = versions_after("", " and ");
inline constexpr auto kVersionMustBe = versions_after("version must be ");
}  // namespace variant_text

// "25, 26 or 27": the archive versions read, for every message that lists them.
constexpr const char* known_versions() { return variant_text::kVersions.data(); }
// "25, 26 and 27".
constexpr const char* all_known_versions() { return variant_text::kVersionsAll.data(); }

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
// The data-file layout as the schema's descriptions name it: not in the file, so the Kaitai description
// declares it a param-like instance and the ImHex one a global, both 1 (AC2) until the user changes them.
inline constexpr const char* kDataLayoutName = "data_layout";
inline constexpr const char* kLayout1 = "data_layout == 1";
inline constexpr const char* kLayout2 = "data_layout == 2";
inline constexpr const char* kLayout3 = "data_layout == 3";
inline constexpr const char* kLayoutWide = "data_layout >= 2";
inline constexpr const char* kLayoutNot0 = "data_layout != 0";
inline constexpr const char* kVersion26Tail = "archive_version == 26 and data_layout != 0";

// Walks a declaration as the byte writer would, adding up the bytes of its fields and noting where the
// field named `wanted` starts: on a default value, the fixed sizes and offsets of the tables of FORGE.md 1;
// on a value read, where a data file's or a block set's parts lie (its table ends where the bodies or the
// chunks begin: `bodies_at`, where the walk ends). So no size or offset is stated beside the declaration that has it.
class FieldWalker : public ArchiveContext {
 public:
  using is_loading = std::false_type;
  using is_saving = std::true_type;

  explicit FieldWalker(unsigned version) { version_ = version; }

  std::size_t size = 0;
  std::string_view wanted;               // the field whose offset is looked for
  std::optional<std::size_t> wanted_at;  // where it starts
  std::optional<std::size_t> bodies_at;  // where the first bodies() or until_end() run starts: the walk
                                         // stops there

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
    at(s.name);
    size += s.length;
    return *this;
  }
  template <class Count>
  FieldWalker& operator&(const SizeOf<Count>& s) {
    at(s.name);
    size += sizeof(Count);
    return *this;
  }
  template <class Count>
  FieldWalker& operator&(const CountedBytes<Count>& c) {
    at(c.name);
    size += sizeof(Count) + c.data.bytes.size();
    return *this;
  }
  template <class Count, class T>
  FieldWalker& operator&(const Counted<Count, T>& c) {
    at(c.name);
    size += sizeof(Count);
    for (const T& item : c.items) add(item);
    return *this;
  }
  template <class Count, class T>
  FieldWalker& operator&(const Heads<Count, T>& h) {
    at(h.name);
    size += sizeof(Count);
    for (T& item : h.items) item.serialize_head(*this);
    return *this;
  }
  template <class T>
  FieldWalker& operator&(const Bodies<T>& b) {
    if (bodies_at) return *this;
    at(b.name);
    bodies_at = size;
    return *this;
  }
  template <class T>
  FieldWalker& operator&(const UntilEnd<T>& u) {  // a block set's chunks: a run of its own, as bodies are
    if (bodies_at) return *this;
    at(u.name);
    bodies_at = size;
    return *this;
  }

 private:
  void at(Key name) {
    if (!wanted_at && name.text != nullptr && std::string_view(name.text, name.size) == wanted) wanted_at = size;
  }
  template <class T>
  void add(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      size += sizeof v;
    } else if constexpr (requires { v.value; }) {
      size += sizeof v.value;
    } else if constexpr (requires { v.bytes.size(); }) {
      size += v.bytes.size();
    } else {
      static_assert(std::is_arithmetic_v<T>, "FieldWalker: a field of numbers or bytes");
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
