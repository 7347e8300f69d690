#include "pipeline/mods/undo_data.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "platform/file_stream.hpp"
#include "platform/replace_file.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {
namespace {

constexpr char kMagic[8] = {'A', 'N', 'V', 'U', 'N', 'D', 'O', '1'};
constexpr u64 kJoinGap = 16;  // a difference this close to the last is one run with it

void put_u64(std::vector<u8>& out, u64 v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<u8>(v >> (8 * i)));
}

}  // namespace

u64 ArchiveUndo::stored_bytes() const {
  u64 total = 0;
  for (const UndoRange& r : ranges) total += r.original.size();
  return total;
}

std::vector<std::pair<u64, u64>> changed_ranges(std::span<const u8> current, const forge::Archive& archive,
                                                const std::set<std::size_t>& changed, std::span<const u8> written) {
  // Where the untouched data files' stored bytes lie: copied byte for byte, never compared.
  std::vector<std::pair<u64, u64>> skipped;
  for (std::size_t i = 0; i < archive.files.size(); ++i) {
    if (changed.count(i)) continue;
    const forge::DataFileAt& f = archive.files[i];
    const u64 begin = std::min<u64>(f.stored_offset(), current.size());
    skipped.push_back({begin, std::min<u64>(f.end(), current.size())});
  }
  std::sort(skipped.begin(), skipped.end());
  std::vector<std::pair<u64, u64>> runs;
  auto compare = [&](u64 begin, u64 end) {
    for (u64 at = begin; at < end; ++at) {
      const bool differs = at >= written.size() || current[at] != written[at];
      if (!differs) continue;
      if (!runs.empty() && runs.back().second + kJoinGap >= at)
        runs.back().second = at + 1;
      else
        runs.push_back({at, at + 1});
    }
  };
  u64 at = 0;
  for (const auto& [begin, end] : skipped) {
    if (begin > at) compare(at, begin);
    at = std::max(at, end);
  }
  compare(at, current.size());
  for (auto& run : runs) run.second = std::min<u64>(run.second, current.size());
  return runs;
}

void add_ranges(ArchiveUndo& undo, std::span<const u8> current, std::span<const std::pair<u64, u64>> ranges) {
  for (auto [begin, end] : ranges) {
    end = std::min(end, undo.original_size);
    // The parts of [begin, end) no range of `undo` holds yet.
    u64 at = begin;
    std::vector<UndoRange> added;
    for (const UndoRange& r : undo.ranges) {
      const u64 r_end = r.offset + r.original.size();
      if (r_end <= at || r.offset >= end) continue;
      if (r.offset > at) added.push_back({at, {current.begin() + at, current.begin() + r.offset}});
      at = std::max(at, r_end);
    }
    if (at < end) added.push_back({at, {current.begin() + at, current.begin() + end}});
    for (UndoRange& r : added) undo.ranges.push_back(std::move(r));
    std::sort(undo.ranges.begin(), undo.ranges.end(),
              [](const UndoRange& a, const UndoRange& b) { return a.offset < b.offset; });
  }
  // Adjacent ranges become one.
  std::vector<UndoRange> joined;
  for (UndoRange& r : undo.ranges) {
    if (!joined.empty() && joined.back().offset + joined.back().original.size() == r.offset)
      joined.back().original.insert(joined.back().original.end(), r.original.begin(), r.original.end());
    else
      joined.push_back(std::move(r));
  }
  undo.ranges = std::move(joined);
}

std::vector<u8> encode_undo(const ArchiveUndo& undo) {
  std::vector<u8> out(std::begin(kMagic), std::end(kMagic));
  put_u64(out, undo.original_size);
  put_u64(out, undo.ranges.size());
  for (const UndoRange& r : undo.ranges) {
    put_u64(out, r.offset);
    put_u64(out, r.original.size());
    out.insert(out.end(), r.original.begin(), r.original.end());
  }
  return out;
}

absl::StatusOr<ArchiveUndo> decode_undo(std::span<const u8> bytes, const std::string& path) {
  std::size_t at = 0;
  auto damaged = [&](const char* what) {
    return absl::DataLossError(absl::StrFormat("%s: offset 0x%x: damaged undo data (%s)", path, at, what));
  };
  auto get_u64 = [&](u64& v) {
    if (bytes.size() - at < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= u64{bytes[at + i]} << (8 * i);
    at += 8;
    return true;
  };
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return damaged("not an anvilrt undo file");
  at = sizeof kMagic;
  ArchiveUndo undo;
  u64 count = 0;
  if (!get_u64(undo.original_size) || !get_u64(count)) return damaged("cut short");
  u64 last_end = 0;
  for (u64 k = 0; k < count; ++k) {
    u64 offset = 0, length = 0;
    if (!get_u64(offset) || !get_u64(length)) return damaged("cut short");
    if (length > bytes.size() - at) return damaged("a range longer than the bytes left");
    if (offset < last_end || offset > undo.original_size || length > undo.original_size - offset)
      return damaged("a range out of order or past the original length");
    undo.ranges.push_back({offset, {bytes.begin() + at, bytes.begin() + at + length}});
    at += length;
    last_end = offset + length;
  }
  if (at != bytes.size()) return damaged("bytes after the last range");
  return undo;
}

absl::Status restore_original(const std::string& modded, const ArchiveUndo& undo, const std::string& out) {
  auto input = InputFile::open(modded);
  if (!input.ok()) return input.status();
  // Through the platform's atomic output, whose errors say the system's reason ("No space left on device";
  // a copy by the C++ library said "Input/output error" for a copy cut short by a full disk).
  platform::AtomicFile file;
  if (auto s = file.open(out); !s.ok()) return s;
  std::FILE* stream = file.stream();
  auto cannot_write = [&out] {
    return absl::InternalError(absl::StrFormat("%s: cannot write: %s", out, std::strerror(errno)));
  };
  // The bytes the original shares with the modded file (the kernel copies them where it can), then the
  // original's own bytes over them; a gap past the modded file's end that no range covers is zeros.
  const u64 shared = std::min<u64>(input->bytes().size(), undo.original_size);
  const platform::ReadableFile* source = input->source();
  if (!(source && source->copy_to(stream, shared)) && std::fwrite(input->bytes().data(), 1, shared, stream) != shared)
    return cannot_write();
  for (const UndoRange& r : undo.ranges)
    if (!platform::seek(stream, r.offset) ||
        std::fwrite(r.original.data(), 1, r.original.size(), stream) != r.original.size())
      return cannot_write();
  u64 end = shared;
  for (const UndoRange& r : undo.ranges) end = std::max<u64>(end, r.offset + r.original.size());
  if (end < undo.original_size) {
    const std::vector<u8> zeros(undo.original_size - end);
    if (!platform::seek(stream, end) || std::fwrite(zeros.data(), 1, zeros.size(), stream) != zeros.size())
      return cannot_write();
  }
  return file.commit();
}

}  // namespace anvil::mods

namespace anvil::mods {
absl::StatusOr<ArchiveUndo> read_undo_file(const std::string& path) {
  auto file = InputFile::open(path);
  if (!file.ok()) return absl::DataLossError(absl::StrCat(file.status().message(), " (the undo data)"));
  return decode_undo(file->bytes(), path);
}
}  // namespace anvil::mods
