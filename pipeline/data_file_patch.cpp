#include "pipeline/data_file_patch.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "pipeline/read_back.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/input_file.hpp"

namespace anvil::patch {
namespace {

using forge::BodyAt;

u32 load_u32(std::span<const u8> bytes, std::size_t at) {
  u32 v = 0;
  std::memcpy(&v, bytes.data() + at, 4);  // little-endian host (FORMAT.md: all integers little-endian)
  return v;
}
void store_u32(std::vector<u8>& bytes, std::size_t at, u32 v) { std::memcpy(bytes.data() + at, &v, 4); }

// The size fields of each entry of a data file: `data_size` in the entries' table, `file_size` in the
// entry's resource header before its body (FORGE.md 3).
struct EntryFields {
  std::size_t data_size_at = 0;
  std::size_t file_size_at = 0;
  BodyAt body;
};

absl::StatusOr<std::vector<EntryFields>> entry_fields(std::span<const u8> bytes, forge::ForgeVariant variant) {
  auto view = forge::view_data_file(bytes, variant);
  if (!view.ok()) return view.status();
  std::vector<EntryFields> out;
  for (const forge::SizeFieldsAt& f : forge::size_fields(*view)) {
    EntryFields e{f.data_size_at, f.file_size_at, f.body};
    if (load_u32(bytes, e.file_size_at) != f.body.size ||
        load_u32(bytes, e.data_size_at) != view->file.entries[f.body.entry].data_size)
      return absl::InternalError("an entry's size fields are not where its layout puts them");
    out.push_back(e);
  }
  return out;
}

// The growth of each edited object (its encoding's length less its piece's), in piece order.
struct Growth {
  std::size_t piece = 0;
  std::int64_t d = 0;
};

// Where the growths put a byte of the original: shifted by every growth of an object before it.
class Shift {
 public:
  Shift(const Level& level, const PatchResult& result) {
    for (std::size_t i = 0; i < result.edited.size(); ++i) {
      const Piece& p = level.pieces[result.edited[i]];
      std::int64_t d = static_cast<std::int64_t>(result.overlays[i].size()) - static_cast<std::int64_t>(p.length);
      if (d != 0) edits_.push_back({p.offset, d});
    }
  }
  // The total growth of the objects that start before `offset`.
  std::int64_t before(std::size_t offset) const {
    std::int64_t sum = 0;
    for (const auto& [at, d] : edits_)
      if (at < offset) sum += d;
    return sum;
  }
  // The growth of the objects that start in [offset, offset + size).
  std::int64_t within(std::size_t offset, std::size_t size) const {
    std::int64_t sum = 0;
    for (const auto& [at, d] : edits_)
      if (at >= offset && at < offset + size) sum += d;
    return sum;
  }

 private:
  std::vector<std::pair<std::size_t, std::int64_t>> edits_;
};

std::optional<std::string> check_result(const Level& level, const PatchResult& result) {
  if (result.overlays.size() != result.edited.size() || result.edited_objects.size() != result.edited.size())
    return "the patch result's edited pieces, objects and encodings do not pair up";
  for (std::size_t i = 0; i < result.edited.size(); ++i)
    if (result.edited[i] >= level.pieces.size() || (i > 0 && result.edited[i] <= result.edited[i - 1]))
      return "the patch result's edited pieces are not ascending indices of this level's pieces";
  return std::nullopt;
}

}  // namespace

bool resizes(const Level& level, const PatchResult& result) {
  for (std::size_t i = 0; i < result.edited.size() && i < result.overlays.size(); ++i)
    if (result.edited[i] < level.pieces.size() && result.overlays[i].size() != level.pieces[result.edited[i]].length)
      return true;
  return false;
}

absl::StatusOr<std::vector<u8>> patched_data_file(const Level& level, const PatchResult& result,
                                                  forge::ForgeVariant variant) {
  if (auto why = check_result(level, result)) return absl::InternalError(*why);
  auto fields = entry_fields(level.bytes, variant);
  if (!fields.ok()) return fields.status();
  const std::span<const u8> bytes = level.bytes;
  std::vector<u8> out;
  Shift shift(level, result);
  out.reserve(static_cast<std::size_t>(static_cast<std::int64_t>(bytes.size()) + shift.before(bytes.size())));
  std::size_t pos = 0;
  for (std::size_t i = 0; i < result.edited.size(); ++i) {
    const Piece& p = level.pieces[result.edited[i]];
    auto body = std::find_if(fields->begin(), fields->end(), [&](const EntryFields& f) {
      return p.offset >= f.body.offset && p.offset + p.length <= f.body.offset + f.body.size;
    });
    if (body == fields->end())
      return absl::InternalError(absl::StrFormat("the object at offset 0x%x lies in no body", p.offset));
    out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(pos),
               bytes.begin() + static_cast<std::ptrdiff_t>(p.offset));
    out.insert(out.end(), result.overlays[i].begin(), result.overlays[i].end());
    pos = p.offset + p.length;
  }
  out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(pos), bytes.end());
  for (const EntryFields& f : *fields) {
    const std::int64_t d = shift.within(f.body.offset, f.body.size);
    if (d == 0) continue;
    const std::size_t file_size_at =
        static_cast<std::size_t>(static_cast<std::int64_t>(f.file_size_at) + shift.before(f.file_size_at));
    for (std::size_t at : {f.data_size_at, file_size_at}) {
      const std::int64_t v = static_cast<std::int64_t>(load_u32(out, at)) + d;
      if (v < 0 || v > std::numeric_limits<u32>::max())
        return absl::InvalidArgumentError(absl::StrFormat(
            "entry %d: its size would become %d bytes, beyond the u32 of its size fields", f.body.entry, v));
      store_u32(out, at, static_cast<u32>(v));
    }
  }
  return out;
}

std::optional<std::string> check_patched_data_file(const Level& level, const PatchResult& result,
                                                   std::span<const u8> written, forge::ForgeVariant variant) {
  if (auto why = check_result(level, result)) return why;
  auto before = entry_fields(level.bytes, variant);
  if (!before.ok()) return std::string(before.status().message());
  auto after = entry_fields(written, variant);
  if (!after.ok()) return absl::StrCat("it does not read as a data file: ", after.status().message());
  if (after->size() != before->size())
    return absl::StrFormat("it has %d entries, not %d", after->size(), before->size());
  Shift shift(level, result);
  auto moved = [&](std::size_t offset) {
    return static_cast<std::size_t>(static_cast<std::int64_t>(offset) + shift.before(offset));
  };
  for (std::size_t i = 0; i < before->size(); ++i) {
    const EntryFields& a = (*before)[i];
    const EntryFields& b = (*after)[i];
    const std::int64_t d = shift.within(a.body.offset, a.body.size);
    if (b.body.offset != moved(a.body.offset) ||
        static_cast<std::int64_t>(b.body.size) != static_cast<std::int64_t>(a.body.size) + d)
      return absl::StrFormat("entry %d: its body lies at 0x%x with %d bytes, not at 0x%x with %d", i, b.body.offset,
                             b.body.size, moved(a.body.offset), static_cast<std::int64_t>(a.body.size) + d);
    const std::int64_t data_size_delta = static_cast<std::int64_t>(load_u32(written, b.data_size_at)) -
                                         static_cast<std::int64_t>(load_u32(level.bytes, a.data_size_at));
    if (data_size_delta != d)
      return absl::StrFormat("entry %d: its data_size changed by %d, not by %d", i, data_size_delta, d);
  }
  // The expected bytes: the original's, shifted, with the size fields as just checked and the edited
  // objects' encodings (which the carve proves by their models).
  std::vector<u8> expected_bytes(written.size());
  std::vector<Piece> pieces;
  pieces.reserve(level.pieces.size());
  std::vector<ExpectedObject> changed;
  std::size_t next = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < level.pieces.size(); ++i) {
    Piece p = level.pieces[i];
    p.offset = at;
    const bool edited = next < result.edited.size() && result.edited[next] == i;
    std::span<const u8> source = edited ? std::span<const u8>(result.overlays[next])
                                        : level.bytes.subspan(level.pieces[i].offset, level.pieces[i].length);
    p.length = source.size();
    if (at + source.size() > expected_bytes.size())
      return absl::StrFormat("it has %d bytes, fewer than the patched objects need", written.size());
    std::copy(source.begin(), source.end(), expected_bytes.begin() + static_cast<std::ptrdiff_t>(at));
    if (edited) {
      p.kind = static_cast<int>(result.edited_objects[next].index());
      changed.push_back({i, &result.edited_objects[next]});
      ++next;
    }
    at += p.length;
    pieces.push_back(p);
  }
  if (at != written.size()) return absl::StrFormat("it has %d bytes, not %d", written.size(), at);
  for (std::size_t i = 0; i < before->size(); ++i)
    for (std::size_t field : {(*after)[i].data_size_at, (*after)[i].file_size_at})
      std::copy_n(written.begin() + static_cast<std::ptrdiff_t>(field), 4,
                  expected_bytes.begin() + static_cast<std::ptrdiff_t>(field));
  ExpectedLevel expected;
  expected.game = level.game;
  for (const EntryFields& f : *after)
    if (f.body.size > 0) expected.regions.push_back({f.body.offset, f.body.size});
  expected.bytes = expected_bytes;
  expected.pieces = pieces;
  expected.changed = changed;
  if (auto failure = read_back(written, expected)) return failure->after_patch_message();
  return std::nullopt;
}

absl::Status write_patched_data_file(const Level& level, const PatchResult& result, const std::string& target,
                                     const platform::OutputOptions& options, forge::ForgeVariant variant) {
  auto bytes = patched_data_file(level, result, variant);
  if (!bytes.ok()) return absl::Status(bytes.status().code(), absl::StrCat(target, ": ", bytes.status().message()));
  auto cannot_write = [&] {
    return absl::InternalError(absl::StrCat(target, ": cannot write: ", std::strerror(errno)));
  };
  auto mismatch = [&](const std::string& why) {
    return absl::DataLossError(
        absl::StrCat(target, ": the written output does not read back as the patched model: ", why));
  };
  platform::AtomicFile output;
  if (auto s = output.open(target, options); !s.ok()) return s;
  if (!output.to_temporary()) {
    if (auto why = check_patched_data_file(level, result, *bytes, variant)) return mismatch(*why);
    if (!bytes->empty() && std::fwrite(bytes->data(), 1, bytes->size(), output.stream()) != bytes->size())
      return cannot_write();
    return output.commit();
  }
  if (!bytes->empty() && std::fwrite(bytes->data(), 1, bytes->size(), output.stream()) != bytes->size())
    return cannot_write();
  if (std::fflush(output.stream()) != 0) return cannot_write();
  {
    auto written = InputFile::open(output.temp_path());
    if (!written.ok())
      return absl::InternalError(absl::StrCat(target, ": cannot read the output back: ", written.status().message()));
    if (auto why = check_patched_data_file(level, result, written->bytes(), variant)) return mismatch(*why);
  }
  return output.commit();
}

}  // namespace anvil::patch
