// A mod package (docs/mods.md, Mod packages): a folder, or a .zip or .7z archive, that holds a mod as the
// mods that exist ship it: data files in AnvilToolkit's layout (Extracted/<archive>.forge/<name>.data), whole
// archives (<archive>.forge), anvilrt mod documents (*.json), and an optional anvilrt-mod.json that names the
// mod. This layer finds and reads the parts, with every safety check, and writes nothing: what the parts do
// to a game folder is mod_check's.
#pragma once

#include <absl/status/statusor.h>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/primitives.hpp"
#include "platform/mapped_file.hpp"

namespace anvil::mods {

struct PackageFile {
  std::string relative;   // '/'-separated path in the package, its single top folder left out
                          // ("Extracted/levels.forge/NAME.data")
  std::string disk_path;  // a folder package's file on disk (UTF-8); empty for a member of a .zip/.7z
  std::vector<u8> bytes;  // a .zip/.7z member's bytes (empty for a folder's file: package_file_bytes)
  u64 size = 0;
};

struct PackageInfo {  // anvilrt-mod.json; every member optional
  std::string name, version, author, description;
  std::optional<std::string> game;              // "ac2" | "sws"
  std::map<std::string, std::string> made_for;  // archive file name -> sha256 hex (as patch::ModDocument)
};

// Extracted/<archive>.forge/<name>.data. AnvilToolkit writes a data file it unpacks as
// "<file id in decimal>_-_<name>.data"; anvilrt's `extract` as "<name>.data" (docs/data-file-names.md).
struct PackagedDataFile {
  std::string archive;        // "levels.forge"
  std::string name;           // the file name without ".data", as found
  std::optional<u64> id;      // AnvilToolkit's form: the id before "_-_"
  std::string name_after_id;  // AnvilToolkit's form: the name after "_-_"; else `name`
  PackageFile file;
};

struct PackagedArchive {  // <archive>.forge at the package's root
  std::string name;       // "levels.forge"
  PackageFile file;
};

struct ModPackage {
  std::string path;                         // as the user gave it
  PackageInfo info;                         // info.name always set: anvilrt-mod.json's, else the package's
                                            // file name without extension (checked by patch::bad_mod_name)
  std::vector<PackageFile> documents;       // anvilrt mod documents / patch files, sorted by relative path
  std::vector<PackagedDataFile> datafiles;  // sorted by (archive, name)
  std::vector<PackagedArchive> archives;    // sorted by name
  std::vector<std::string> ignored;         // files that are none of these (readme.txt, images), sorted
  // The package's identity (mod sync compares it): lowercase sha256 hex over, in sorted order of relative
  // path, each used file's relative path and the sha256 of its bytes (anvilrt-mod.json included). The same
  // for the same content in a folder, a .zip and a .7z. Empty when read without it (read_mod_package).
  std::string digest;
};

// Limits on what a package may make this process hold; a stated size is checked before any allocation.
struct PackageLimits {
  u64 member_bytes = u64{4} << 30;  // one member (a data file, an archive, a document)
  u64 total_bytes = u64{8} << 30;   // the members read into memory, together
  u64 members = 1'000'000;          // entries of a .zip/.7z or files of a folder
};

// A folder; or a file whose bytes are a zip or 7z archive (libarchive's format detection), or whose name
// ends ".zip" or ".7z" (so that one that is neither is refused as a package, saying so). A .json file is
// never a package.
bool is_mod_package(const std::string& path);

// Errors are one line naming the package and the member: "mods/x.zip: member '../../evil.data': leaves the
// package".
absl::StatusOr<ModPackage> read_mod_package(const std::string& path);
// `digest`: whether ModPackage::digest is computed (a sha256 of every used file's bytes, which a command that
// records or compares no package, as `mod check`, does without).
absl::StatusOr<ModPackage> read_mod_package(const std::string& path, const PackageLimits& limits, bool digest = true);

// A PackageFile's bytes: a copy of the member's (read `bytes` in place to spare it), or the disk file read
// through the platform layer (refused when its size is no longer the one the package was read with).
absl::StatusOr<std::vector<u8>> package_file_bytes(const PackageFile& file);

// A PackageFile's bytes where they are, refused as package_file_bytes() refuses them: a .zip/.7z member's own
// (valid while the PackageFile is), or the disk file mapped, so that a large data file or archive is neither
// copied nor read into fresh memory (which the system zeroes page by page first).
class PackageBytes {
 public:
  std::span<const u8> bytes() const { return view_; }

 private:
  friend absl::StatusOr<PackageBytes> package_file_view(const PackageFile& file);
  std::optional<platform::Mapping> mapping_;
  std::span<const u8> view_;
};
absl::StatusOr<PackageBytes> package_file_view(const PackageFile& file);

}  // namespace anvil::mods
