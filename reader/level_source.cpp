#include "reader/level_source.hpp"

#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "reader/forge/data_files.hpp"

namespace anvil {

std::string_view source_kind_name(SourceKind kind) {
  switch (kind) {
    case SourceKind::data_file:
      return "data file";
    case SourceKind::archive:
      return "forge archive";
    case SourceKind::level_file:
      break;
  }
  return "level file";
}

namespace {
constexpr char kArchiveMagic[] = {'s', 'c', 'i', 'm', 'i', 't', 'a', 'r'};
}  // namespace

bool has_archive_magic(std::span<const u8> bytes) {
  return bytes.size() >= sizeof kArchiveMagic && std::memcmp(bytes.data(), kArchiveMagic, sizeof kArchiveMagic) == 0;
}

std::optional<std::string> archive_magic_damage(std::span<const u8> bytes) {
  if (bytes.size() < sizeof kArchiveMagic) return std::nullopt;
  std::vector<std::string> bits;
  for (std::size_t i = 0; i < sizeof kArchiveMagic; ++i) {
    const unsigned diff = bytes[i] ^ static_cast<u8>(kArchiveMagic[i]);
    for (unsigned bit = 1; bit < 0x100; bit <<= 1)
      if (diff & bit) bits.push_back(absl::StrFormat("byte %d bit 0x%02x", i, bit));
  }
  if (bits.empty() || bits.size() > 2) return std::nullopt;
  return absl::StrJoin(bits, ", ");
}

Source detect_source(std::span<const u8> bytes, std::optional<u8> layout) {
  Source source;
  if (has_archive_magic(bytes)) {
    source.kind = SourceKind::archive;
    return source;
  }
  if (bytes.empty()) return source;
  auto file = forge::view_data_file_by_content(bytes, layout);
  return file.ok() ? data_file_source(*file) : source;
}

Source data_file_source(const forge::DataFileView& view) {
  Source source;
  source.kind = SourceKind::data_file;
  source.variant = view.variant;
  source.entries = view.file.entries.size();
  for (const forge::BodyAt& body : forge::body_layout(view))
    if (body.size > 0) source.regions.push_back({body.offset, body.size});
  return source;
}

Level carve_source(std::span<const u8> bytes, const Source& source, Game game) {
  switch (source.kind) {
    case SourceKind::level_file:
      return carve_level(bytes, game);
    case SourceKind::data_file: {
      Level level = carve_regions(bytes, game, source.regions);
      level.variant = source.variant;
      return level;
    }
    case SourceKind::archive:
      break;
  }
  throw std::invalid_argument("an archive is a set of levels, not one");
}

std::size_t carved_bytes(std::span<const u8> bytes, const Source& source, Game game) {
  if (source.kind != SourceKind::data_file) return carved_bytes(bytes, game);
  std::size_t n = 0;
  for (const Extent& r : source.regions) n += carved_bytes(bytes.subspan(r.offset, r.length), game);
  return n;
}

Detection detect(std::span<const u8> bytes, const Source& source) {
  // The bodies judged as one level file is, so that a large data file is not carved twice over before its
  // command reads it.
  if (source.kind != SourceKind::data_file) return detect(bytes);
  return detect_regions(bytes, source.regions);
}

Game detect_game(std::span<const u8> bytes, const Source& source) { return detect(bytes, source).game; }

}  // namespace anvil
