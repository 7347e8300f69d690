// The JSON documents anvilrt prints and reads (FORMAT.md section 4): their formats and the members of
// their envelope, stated once. dump and patch write the envelope through writer/document_json.hpp;
// build reads its head through reader/document_head.hpp; patch resolves pointers into it
// (patch/document.cpp, patch/archive_patch.cpp) with these names.
//
//   a level or data file: { "format", "game", "size", "objects": { KEY: {...}, ... }, "spans": [...] }
//                         ("spans" only with `dump --full`; build needs it)
//   a span:               { "offset", "object": KEY } or { "offset", "opaque": BASE64 }
//   a .forge archive:     { "format", "game", "datafiles": { NAME: { "size", "objects" }, ... } }
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "model/layout.hpp"

namespace anvil {

// The "format" of the JSON documents that dump writes and build and patch read.
inline constexpr std::string_view kDocumentFormat = "anvilrt/1";
// The "format" of `stats --json`.
inline constexpr std::string_view kStatsFormat = "anvilrt-stats/1";

namespace document {

// The members of the envelope (Keys: checked at compile time to need no JSON escaping).
inline constexpr Key kFormat = "format";
inline constexpr Key kGame = "game";
inline constexpr Key kSize = "size";
inline constexpr Key kObjects = "objects";
inline constexpr Key kSpans = "spans";
inline constexpr Key kDatafiles = "datafiles";
// The members of a span.
inline constexpr Key kOffset = "offset";
inline constexpr Key kObject = "object";
inline constexpr Key kOpaque = "opaque";

// The members of a level document, in the order `dump --full` prints them (the order build's one-pass
// path takes).
inline constexpr std::array<Key, 5> kLevelMembers = {kFormat, kGame, kSize, kObjects, kSpans};
// The members of an archive document, and of each of its data files.
inline constexpr std::array<Key, 3> kArchiveMembers = {kFormat, kGame, kDatafiles};
inline constexpr std::array<Key, 2> kDataFileMembers = {kSize, kObjects};

// A member's name as text.
constexpr std::string_view text(Key key) { return {key.text, key.size}; }

// Whether `name` is one of `members`.
template <std::size_t N>
bool is_member(std::string_view name, const std::array<Key, N>& members) {
  for (Key k : members)
    if (text(k) == name) return true;
  return false;
}

// "format, game, size, objects, spans": members as an error lists them.
template <std::size_t N>
std::string list(const std::array<Key, N>& members) {
  std::string out;
  for (Key k : members) out.append(out.empty() ? "" : ", ").append(text(k));
  return out;
}

}  // namespace document
}  // namespace anvil
