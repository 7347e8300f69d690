#include "pipeline/mods/mod_package.hpp"

#include <absl/strings/ascii.h>
#include <absl/strings/escaping.h>
#include <absl/strings/match.h>
#include <absl/strings/numbers.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <system_error>
#include <tuple>
#include <utility>

#include "patch/mod_document.hpp"
#include "pipeline/mods/package_members.hpp"
#include "pipeline/mods/sha256.hpp"
#include "platform/mapped_file.hpp"
#include "platform/paths.hpp"

namespace anvil::mods {
namespace {

constexpr std::string_view kInfoFile = "anvilrt-mod.json";
constexpr std::string_view kExtracted = "Extracted";
constexpr std::string_view kMacMetadata = "__MACOSX";  // what macOS's Archive Utility adds to a zip

enum class Part { kIgnored, kDocument, kDataFile, kArchive, kInfo };

struct Placed {
  Part part = Part::kIgnored;
  std::string refused;  // the reason a file where a part could be is refused; empty when it is not
};

bool same_ci(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return absl::ascii_tolower(static_cast<unsigned char>(x)) ==
                  absl::ascii_tolower(static_cast<unsigned char>(y));
         });
}
bool ends_with_ci(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && same_ci(text.substr(text.size() - suffix.size()), suffix);
}

std::vector<std::string> split_path(const std::string& relative) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (std::size_t slash; (slash = relative.find('/', begin)) != std::string::npos; begin = slash + 1)
    parts.push_back(relative.substr(begin, slash - begin));
  parts.push_back(relative.substr(begin));
  return parts;
}

// What the file at `relative` (the package's top folder left out) is in AnvilToolkit's layout.
Placed place(const std::string& relative) {
  const std::vector<std::string> parts = split_path(relative);
  const std::string& last = parts.back();
  if (parts[0] == kMacMetadata) return {};
  if (parts.size() == 1) {
    if (same_ci(last, kInfoFile)) return {Part::kInfo, ""};
    if (ends_with_ci(last, ".json")) return {Part::kDocument, ""};
    if (ends_with_ci(last, ".forge")) return {Part::kArchive, ""};
  }
  const bool extracted = parts.size() >= 3 && same_ci(parts[0], kExtracted) && ends_with_ci(parts[1], ".forge") &&
                         ends_with_ci(parts[2], ".data");
  if (extracted && parts.size() == 3) {
    if (parts[2].size() == 5) return {Part::kIgnored, "a data file without a name"};
    return {Part::kDataFile, ""};
  }
  if (extracted)
    return {Part::kIgnored, absl::StrFormat("a data file unpacked into its entries (AnvilToolkit's folder form) is "
                                            "not taken: give the data file %s/%s/%s itself",
                                            parts[0], parts[1], parts[2])};
  if (ends_with_ci(last, ".data") || ends_with_ci(last, ".forge"))
    return {Part::kIgnored,
            "a data file or archive where a package has none: a data file is "
            "Extracted/<archive>.forge/<name>.data, an archive <archive>.forge at the top"};
  return {};
}

// The one top folder that every file is in (macOS's metadata folder aside), when it is not Extracted itself:
// "MyMod/", or empty.
std::string top_folder(const std::vector<PackageMember>& members) {
  std::string top;
  for (const PackageMember& m : members) {
    const std::size_t slash = m.relative.find('/');
    const std::string first = m.relative.substr(0, slash);
    if (first == kMacMetadata) continue;
    if (slash == std::string::npos || (!top.empty() && top != first)) return "";
    top = first;
  }
  if (top.empty() || same_ci(top, kExtracted)) return "";
  return top + "/";
}

// Whether a member may be a part, whichever way its top folder turns out: its bytes are read then.
bool maybe_part(const std::string& relative) {
  if (place(relative).part != Part::kIgnored) return true;
  const std::size_t slash = relative.find('/');
  return slash != std::string::npos && place(relative.substr(slash + 1)).part != Part::kIgnored;
}

// "1003_-_Name" (AnvilToolkit's file id in decimal, then the name): the id and the name.
void read_atk_name(PackagedDataFile& d) {
  d.name_after_id = d.name;
  const std::size_t sep = d.name.find("_-_");
  if (sep == std::string::npos || sep == 0 || sep + 3 == d.name.size()) return;
  const std::string digits = d.name.substr(0, sep);
  u64 id = 0;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return absl::ascii_isdigit(c); }) ||
      !absl::SimpleAtoi(digits, &id))
    return;
  d.id = id;
  d.name_after_id = d.name.substr(sep + 3);
}

PackageFile package_file(PackageMember&& m, std::string relative) {
  return PackageFile{std::move(relative), std::move(m.disk_path), std::move(m.bytes), m.size};
}

// The name of the package's file or folder: "mods/x.zip" -> "x", "mods/My.Mod/" -> "My.Mod".
std::string default_name(const std::string& path, bool folder) {
  std::filesystem::path p = platform::path_of(path);
  if (!p.has_filename()) p = p.parent_path();
  return platform::utf8_of(folder ? p.filename() : p.stem());
}

// The bytes a used file's part of the digest stands for: its own sha256, from memory or from its disk file
// mapped (a folder's whole archive is never held).
absl::StatusOr<std::string> file_sha256(const PackageFile& file) {
  if (file.disk_path.empty()) {
    const std::span<const u8> piece[] = {file.bytes};
    return sha256_hex(piece);
  }
  auto opened = platform::ReadableFile::open(file.disk_path);
  if (!opened.ok())
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", file.disk_path, opened.status().message()));
  auto mapping = platform::Mapping::map(*opened);
  if (!mapping.ok())
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", file.disk_path, mapping.status().message()));
  if (mapping->bytes().size() != file.size)
    return absl::InvalidArgumentError(absl::StrFormat("%s: changed while its mod package was read", file.disk_path));
  const std::span<const u8> piece[] = {mapping->bytes()};
  return sha256_hex(piece);
}

// ModPackage::digest: each used file's relative path (its length first, 8 bytes little-endian) and its
// sha256 hex, in order of relative path.
absl::StatusOr<std::string> package_digest(const ModPackage& package, const PackageFile* info) {
  std::vector<const PackageFile*> used;
  for (const auto& d : package.documents) used.push_back(&d);
  for (const auto& d : package.datafiles) used.push_back(&d.file);
  for (const auto& a : package.archives) used.push_back(&a.file);
  if (info != nullptr) used.push_back(info);
  std::sort(used.begin(), used.end(), [](const auto* a, const auto* b) { return a->relative < b->relative; });
  std::string text;
  for (const PackageFile* file : used) {
    auto sha = file_sha256(*file);
    if (!sha.ok()) return sha.status();
    for (int i = 0; i < 8; ++i) text.push_back(static_cast<char>((u64{file->relative.size()} >> (8 * i)) & 0xff));
    text += file->relative;
    text += *sha;
  }
  const std::span<const u8> piece[] = {{reinterpret_cast<const u8*>(text.data()), text.size()}};
  return sha256_hex(piece);
}

// A used file larger than the limit, or two parts that are one on a file system that ignores case.
absl::Status check_parts(const ModPackage& p, const PackageLimits& limits) {
  std::vector<const PackageFile*> used;
  for (const auto& d : p.documents) used.push_back(&d);
  for (const auto& d : p.datafiles) used.push_back(&d.file);
  for (const auto& a : p.archives) used.push_back(&a.file);
  for (const PackageFile* f : used)
    if (f->size > limits.member_bytes)
      return member_refused(p.path, f->relative,
                            absl::StrFormat("is %d bytes, over the limit of %d", f->size, limits.member_bytes));
  std::set<std::string> seen;
  for (const PackageFile* f : used)
    if (!seen.insert(absl::AsciiStrToLower(f->relative)).second)
      return member_refused(p.path, f->relative, "names the same part as another member (case aside)");
  return absl::OkStatus();
}

}  // namespace

bool is_mod_package(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = platform::path_of(path);
  if (std::filesystem::is_directory(p, ec)) return true;
  if (ends_with_ci(path, ".json") || !std::filesystem::is_regular_file(p, ec)) return false;
  return ends_with_ci(path, ".zip") || ends_with_ci(path, ".7z") || is_zip_or_7z(path);
}

absl::StatusOr<PackageBytes> package_file_view(const PackageFile& file) {
  PackageBytes out;
  if (file.disk_path.empty()) {
    out.view_ = file.bytes;
    return out;
  }
  if (platform::is_link(file.disk_path))
    return absl::InvalidArgumentError(absl::StrFormat("%s: is a link", file.disk_path));
  auto opened = platform::ReadableFile::open(file.disk_path);
  if (!opened.ok())
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", file.disk_path, opened.status().message()));
  if (opened->kind() != platform::ReadableFile::Kind::kRegular || opened->size() != file.size)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: changed since its mod package was read (it was %d bytes)", file.disk_path, file.size));
  auto mapping = platform::Mapping::map(*opened);
  if (!mapping.ok())
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", file.disk_path, mapping.status().message()));
  out.mapping_ = std::move(*mapping);
  out.view_ = out.mapping_->bytes();
  if (out.view_.size() != file.size)
    return absl::InvalidArgumentError(absl::StrFormat("%s: changed while read", file.disk_path));
  return out;
}

absl::StatusOr<std::vector<u8>> package_file_bytes(const PackageFile& file) {
  auto view = package_file_view(file);
  if (!view.ok()) return view.status();
  return std::vector<u8>(view->bytes().begin(), view->bytes().end());
}

absl::StatusOr<ModPackage> read_mod_package(const std::string& path) { return read_mod_package(path, {}); }

namespace {

// Each member put where the layout says, the top folder left out; anvilrt-mod.json's into `info`.
absl::Status sort_members(std::vector<PackageMember>& members, ModPackage& p, std::optional<PackageFile>& info) {
  const std::string top = top_folder(members);
  for (PackageMember& m : members) {
    if (!absl::StartsWith(m.relative, top)) {
      p.ignored.push_back(m.relative);
      continue;
    }
    std::string relative = m.relative.substr(top.size());
    const Placed placed = place(relative);
    if (!placed.refused.empty()) return member_refused(p.path, m.relative, placed.refused);
    const std::vector<std::string> parts = split_path(relative);
    switch (placed.part) {
      case Part::kIgnored:
        p.ignored.push_back(std::move(relative));
        break;
      case Part::kInfo:
        info = package_file(std::move(m), std::move(relative));
        break;
      case Part::kDocument:
        p.documents.push_back(package_file(std::move(m), std::move(relative)));
        break;
      case Part::kArchive:
        p.archives.push_back({parts[0], package_file(std::move(m), std::move(relative))});
        break;
      case Part::kDataFile: {
        PackagedDataFile d{parts[1], parts[2].substr(0, parts[2].size() - 5), std::nullopt, "",
                           package_file(std::move(m), std::move(relative))};
        read_atk_name(d);
        p.datafiles.push_back(std::move(d));
        break;
      }
    }
  }
  return absl::OkStatus();
}

// anvilrt-mod.json read into p.info, or the name taken from the package's file name.
absl::Status read_info(ModPackage& p, const std::optional<PackageFile>& info, bool folder) {
  if (info) {
    auto bytes = package_file_bytes(*info);
    if (!bytes.ok()) return bytes.status();
    auto mod = patch::parse_mod_description(p.path + ": " + info->relative,
                                            {reinterpret_cast<const char*>(bytes->data()), bytes->size()});
    if (!mod.ok()) return mod.status();
    p.info = PackageInfo{mod->name, mod->version, mod->author, mod->description, mod->game, mod->made_for};
  }
  if (!p.info.name.empty()) return absl::OkStatus();
  p.info.name = default_name(p.path, folder);
  if (auto bad = patch::bad_mod_name(p.info.name))
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: the package's name names the mod '%s', which %s (or name it in %s)", p.path,
                        absl::CHexEscape(p.info.name), *bad, std::string(kInfoFile)));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ModPackage> read_mod_package(const std::string& path, const PackageLimits& limits, bool digest) {
  std::error_code ec;
  const bool folder = std::filesystem::is_directory(platform::path_of(path), ec);
  auto members = folder ? folder_members(path, limits) : archive_members(path, limits, maybe_part);
  if (!members.ok()) return members.status();
  ModPackage p;
  p.path = path;
  std::optional<PackageFile> info;
  if (auto s = sort_members(*members, p, info); !s.ok()) return s;
  if (auto s = check_parts(p, limits); !s.ok()) return s;
  if (p.documents.empty() && p.datafiles.empty() && p.archives.empty())
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: holds no mod: no Extracted/<archive>.forge/<name>.data, <archive>.forge or mod document (*.json)", path));
  if (auto s = read_info(p, info, folder); !s.ok()) return s;
  std::sort(p.documents.begin(), p.documents.end(),
            [](const auto& a, const auto& b) { return a.relative < b.relative; });
  std::sort(p.datafiles.begin(), p.datafiles.end(),
            [](const auto& a, const auto& b) { return std::tie(a.archive, a.name) < std::tie(b.archive, b.name); });
  std::sort(p.archives.begin(), p.archives.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  std::sort(p.ignored.begin(), p.ignored.end());
  if (!digest) return p;
  auto sha = package_digest(p, info ? &*info : nullptr);
  if (!sha.ok()) return sha.status();
  p.digest = std::move(*sha);
  return p;
}

}  // namespace anvil::mods
