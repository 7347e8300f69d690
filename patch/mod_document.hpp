// A mod (docs/mods.md): a patch file (a JSON array of operations, FORMAT.md section 5) named after its
// file name without the extension, or a JSON object that carries the patch with what describes it:
//
//   {"anvilrt_mod": 1, "name": "…", "version": "…", "author": "…", "description": "…",
//    "game": "ac2"|"sws", "made_for": {"ARCHIVE.forge": "<sha256 hex of the archive>", …},
//    "patch": [ …operations… ]}
//
// Only `anvilrt_mod`, `name` and `patch` are required; any other member is refused, naming it. Every
// error is one line naming the file and the member (or, for the patch's shape, the patch).
#pragma once

#include <absl/status/statusor.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "patch/rapidjson_document.hpp"

namespace anvil::patch {

inline constexpr int kModDocumentVersion = 1;

struct ModDocument {
  std::string name;
  std::string version, author, description;     // empty when not given
  std::optional<std::string> game;              // "ac2" or "sws"
  std::map<std::string, std::string> made_for;  // archive file name -> lowercase sha256 hex
  // Data files the mod replaces whole where they differ outside every object (a mod package's, kept beside
  // the installed mod: docs/mods.md): "ARCHIVE.forge/NAME" -> lowercase sha256 hex of the decompressed bytes.
  std::map<std::string, std::string> replaces;
  // Data files the mod adds to an archive that has none of that name (a mod package's, installed with
  // --allow-new; kept beside the installed mod as `replaces`' are): "ARCHIVE.forge/NAME" -> its bytes' hash,
  // and the id and file_type its index and name entries get.
  struct Added {
    std::string sha256;  // lowercase hex, of the decompressed bytes
    std::uint64_t file_id = 0;
    std::uint32_t file_type = 0;
  };
  std::map<std::string, Added> adds;
  // The operations, a JSON array (full-precision numbers); a Document so that the mod owns it.
  rapidjson::Document patch{rapidjson::kArrayType};
  bool bare_patch = false;  // the file was a patch (a JSON array), not a mod object
};

// A key of ModDocument::replaces and ::adds, "ARCHIVE.forge/NAME", made and taken apart (the archive's name has no
// '/').
std::string replaced_data_file_key(std::string_view archive, std::string_view name);
std::pair<std::string, std::string> replaced_data_file_parts(std::string_view key);

// The mod in `text`, read from the file `path` (its name, without the directory and the extension, names
// a bare patch). Errors: "PATH: member 'x': …", "PATH: unknown member 'x'", "PATH: not JSON: …".
absl::StatusOr<ModDocument> parse_mod(std::string_view path, std::string_view text);

// A mod's description without operations, as a mod package's anvilrt-mod.json holds it (docs/mods.md, Mod
// packages): a JSON object of name, version, author, description, game and made_for, each optional and read
// as in a mod object; any other member is refused, naming it. The result has no operations, and an empty
// name when none is given.
absl::StatusOr<ModDocument> parse_mod_description(std::string_view path, std::string_view text);

// A mod name is what a file name may carry on every system: 1 to 64 of [A-Za-z0-9._-], not starting with
// '.'. The reason it is not, or nothing.
std::optional<std::string> bad_mod_name(std::string_view name);

// The operations that a command taking a patch applies (`patch`, `map --patch`), as patch text: the text
// itself, or a mod object's "patch" member. A text that is no mod object (no member "anvilrt_mod") is
// returned as it is, so that the patch engine names its faults as for any patch.
absl::StatusOr<std::string> operations_text(std::string_view path, std::string_view text);

// The mod as a mod object (JSON text, the patch's numbers as the patch spelled them).
std::string mod_text(const ModDocument& mod);

}  // namespace anvil::patch
