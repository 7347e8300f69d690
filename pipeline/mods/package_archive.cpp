// The members of a .zip or .7z mod package, through libarchive (its zip and 7-Zip readers only), read from
// the package mapped into memory: platform's Mapping opens a UTF-8 path on every system, and libarchive's
// memory reader seeks as the 7-Zip format and the zip central directory need.
#include <absl/strings/match.h>
#include <absl/strings/str_format.h>
#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <memory>
#include <set>
#include <span>

#include "pipeline/mods/package_members.hpp"
#include "platform/mapped_file.hpp"

namespace anvil::mods {
namespace {

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchiveReader = std::unique_ptr<archive, ArchiveFree>;

// A package file mapped, with a libarchive reader over its bytes that takes zip and 7z and nothing else.
struct OpenedPackage {
  platform::Mapping mapping;
  ArchiveReader reader;
};

// A zip's first local file header ("PK\3\4").
bool starts_as_zip(std::span<const u8> bytes) {
  return bytes.size() >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4;
}

absl::StatusOr<OpenedPackage> open_package(const std::string& path) {
  auto file = platform::ReadableFile::open(path);
  if (!file.ok()) return absl::InvalidArgumentError(absl::StrFormat("%s: %s", path, file.status().message()));
  if (file->kind() != platform::ReadableFile::Kind::kRegular)
    return absl::InvalidArgumentError(absl::StrFormat("%s: not a regular file", path));
  auto mapping = platform::Mapping::map(*file);
  if (!mapping.ok()) return absl::InvalidArgumentError(absl::StrFormat("%s: %s", path, mapping.status().message()));
  OpenedPackage opened{std::move(*mapping), ArchiveReader(archive_read_new())};
  archive* a = opened.reader.get();
  if (a == nullptr) return absl::ResourceExhaustedError(absl::StrFormat("%s: out of memory", path));
  // A zip is read through its central directory only (libarchive's seekable reader, which also checks each
  // local header against it): the streaming reader would take a zip whose end is cut off, or whose local
  // headers tell another story than its directory, as far as its local headers go.
  archive_read_support_format_zip_seekable(a);
  archive_read_support_format_7zip(a);
  const auto bytes = opened.mapping.bytes();
  // An empty file is no archive: libarchive is not asked (its memory reader wants bytes).
  if (bytes.empty() || archive_read_open_memory(a, bytes.data(), bytes.size()) != ARCHIVE_OK) {
    if (starts_as_zip(bytes))
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: a zip whose central directory (its end) is missing or damaged: cut off?", path));
    return absl::InvalidArgumentError(absl::StrFormat("%s: not a zip or 7z archive", path));
  }
  return opened;
}

bool zip_or_7z(archive* a) {
  const int base = archive_format(a) & ARCHIVE_FORMAT_BASE_MASK;
  return base == ARCHIVE_FORMAT_ZIP || base == ARCHIVE_FORMAT_7ZIP;
}

// The member's `size` bytes, read in steps; one byte more is asked for, never held: a member whose data
// goes on past its stated size (its header lies) is refused.
absl::StatusOr<std::vector<u8>> read_member_bytes(archive* a, const std::string& package, const std::string& name,
                                                  u64 size) {
  std::vector<u8> bytes(static_cast<std::size_t>(size));
  u64 got = 0;
  while (got < size) {
    const la_ssize_t n = archive_read_data(a, bytes.data() + got, std::min<u64>(size - got, 1u << 20));
    if (n < 0) return member_refused(package, name, archive_error_string(a) ? archive_error_string(a) : "unreadable");
    if (n == 0)
      return member_refused(package, name, absl::StrFormat("holds %d bytes, fewer than its stated size %d", got, size));
    got += static_cast<u64>(n);
  }
  u8 extra = 0;
  const la_ssize_t n = archive_read_data(a, &extra, 1);
  if (n > 0) return member_refused(package, name, absl::StrFormat("holds more bytes than its stated size %d", size));
  if (n < 0) return member_refused(package, name, archive_error_string(a) ? archive_error_string(a) : "unreadable");
  return bytes;
}

// What a header says about the member it starts: refused, a folder (nothing), or a regular file's path.
absl::StatusOr<std::string> member_of_header(archive_entry* entry, const std::string& package) {
  const char* raw = archive_entry_pathname_utf8(entry);
  if (raw == nullptr) raw = archive_entry_pathname(entry);
  if (raw == nullptr) return absl::InvalidArgumentError(absl::StrFormat("%s: a member without a name", package));
  auto relative = member_path(raw);
  if (!relative.ok()) return member_refused(package, raw, std::string(relative.status().message()));
  if (archive_entry_is_encrypted(entry)) return member_refused(package, raw, "is encrypted");
  if (archive_entry_hardlink(entry) != nullptr) return member_refused(package, raw, "is a link (a hard link)");
  switch (archive_entry_filetype(entry)) {
    case AE_IFREG:
      return *relative;
    case AE_IFDIR:
      return std::string();
    case AE_IFLNK:
      return member_refused(package, raw, "is a link");
    default:
      return member_refused(package, raw, "is not a regular file");
  }
}

struct ArchiveWalk {
  const std::string& package;
  const PackageLimits& limits;
  const MemberWanted& wanted;
  std::vector<PackageMember> members;
  std::set<std::string> seen;
  u64 held = 0;  // bytes read into memory
};

// The member whose header was just read: checked, and read when wanted.
absl::Status take_member(archive* a, archive_entry* entry, ArchiveWalk& walk) {
  auto relative = member_of_header(entry, walk.package);
  if (!relative.ok()) return relative.status();
  if (relative->empty()) return absl::OkStatus();  // a folder
  if (!walk.seen.insert(*relative).second) return member_refused(walk.package, *relative, "appears twice");
  if (!archive_entry_size_is_set(entry) || archive_entry_size(entry) < 0)
    return member_refused(walk.package, *relative, "states no size");
  PackageMember member;
  member.relative = *relative;
  member.size = static_cast<u64>(archive_entry_size(entry));
  if (walk.wanted(member.relative)) {
    if (member.size > walk.limits.member_bytes)
      return member_refused(
          walk.package, member.relative,
          absl::StrFormat("states %d bytes, over the limit of %d", member.size, walk.limits.member_bytes));
    if (member.size > walk.limits.total_bytes - walk.held)
      return member_refused(walk.package, member.relative,
                            absl::StrFormat("the package's parts together exceed %d bytes", walk.limits.total_bytes));
    walk.held += member.size;
    auto bytes = read_member_bytes(a, walk.package, member.relative, member.size);
    if (!bytes.ok()) return bytes.status();
    member.bytes = std::move(*bytes);
  }
  walk.members.push_back(std::move(member));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<PackageMember>> archive_members(const std::string& path, const PackageLimits& limits,
                                                           const MemberWanted& wanted) {
  auto opened = open_package(path);
  if (!opened.ok()) return opened.status();
  archive* a = opened->reader.get();
  ArchiveWalk walk{path, limits, wanted, {}, {}, 0};
  u64 count = 0;
  for (;;) {
    archive_entry* entry = nullptr;
    const int r = archive_read_next_header(a, &entry);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN) {
      const char* why = archive_error_string(a) ? archive_error_string(a) : "unreadable";
      if (count == 0 && !zip_or_7z(a))
        return absl::InvalidArgumentError(absl::StrFormat("%s: not a zip or 7z archive", path));
      if (walk.members.empty()) return absl::InvalidArgumentError(absl::StrFormat("%s: %s", path, why));
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: after member '%s': %s", path, walk.members.back().relative, why));
    }
    if (++count > limits.members)
      return absl::InvalidArgumentError(absl::StrFormat("%s: holds more than %d members", path, limits.members));
    if (auto s = take_member(a, entry, walk); !s.ok()) return s;
  }
  std::sort(walk.members.begin(), walk.members.end(),
            [](const auto& x, const auto& y) { return x.relative < y.relative; });
  return std::move(walk.members);
}

bool is_zip_or_7z(const std::string& path) {
  auto opened = open_package(path);
  if (!opened.ok()) return absl::StrContains(opened.status().message(), "central directory");
  archive_entry* entry = nullptr;
  const int r = archive_read_next_header(opened->reader.get(), &entry);
  return (r == ARCHIVE_OK || r == ARCHIVE_WARN || r == ARCHIVE_EOF) && zip_or_7z(opened->reader.get());
}

}  // namespace anvil::mods
