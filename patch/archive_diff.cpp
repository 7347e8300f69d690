#include "patch/archive_diff.hpp"

#include <absl/strings/str_format.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "model/object.hpp"
#include "model/parallel.hpp"
#include "patch/archive_patch.hpp"
#include "patch/archive_side_read.hpp"
#include "reader/forge/archive_game.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil::patch {
namespace {

// The first offset in [from, to) where a and b differ, both long enough.
std::optional<u64> first_difference(std::span<const u8> a, std::span<const u8> b, u64 from, u64 to) {
  const u64 end = std::min<u64>({to, a.size(), b.size()});
  if (from >= end) return std::nullopt;
  auto [pa, pb] = std::mismatch(a.begin() + from, a.begin() + end, b.begin() + from);
  if (pa == a.begin() + end) return std::nullopt;
  return static_cast<u64>(pa - a.begin());
}

// What lies at `offset` of a decompressed data file (FORGE.md 3): the entry table, an entry's header (type,
// sizes, name, flag records) or its body.
std::string describe_offset(std::span<const u8> bytes, const Source& source, u64 offset) {
  if (offset >= bytes.size()) return "after the end of A (B is longer)";
  if (source.kind != SourceKind::data_file) return "outside objects";
  auto view = forge::view_data_file(bytes, source.variant);
  if (!view.ok()) return "outside objects";
  if (offset < 2) return "the entry count";
  u64 row_at = 2;  // the rows' sizes by layout (FORGE.md 7)
  for (std::size_t i = 0; i < view->file.entries.size(); ++i) {
    row_at += forge::entry_head_size(view->file.entries[i], view->variant);
    if (offset < row_at) return absl::StrFormat("entry %d's table row (file_id, data_size, ...)", i);
  }
  // Up to the first resource (not table_end(), which in a view leaves out the kept bytes themselves).
  const auto sizes = forge::size_fields(*view);
  if (offset < (sizes.empty() ? bytes.size() : sizes.front().resource_at()))
    return "the bytes kept after the entry table";
  for (const forge::BodyAt& body : forge::body_layout(*view)) {
    const std::string name = forge::printable_name(view->name(body.entry));
    if (offset < body.offset)
      return absl::StrFormat("entry %d '%s' header (type, sizes, name, flag records)", body.entry, name);
    if (offset < body.offset + body.size)
      return absl::StrFormat("entry %d '%s' body, outside objects", body.entry, name);
  }
  return "after the last body";
}

OutsideDifference locate_outside(std::span<const u8> a, std::span<const u8> b, const Level& la, const Source& source,
                                 std::string reason) {
  OutsideDifference out;
  out.reason = std::move(reason);
  std::optional<u64> at;
  u64 pos = 0;
  for (const Piece& p : la.pieces) {
    if (!p.is_object()) continue;
    if ((at = first_difference(a, b, pos, p.offset))) break;
    pos = p.offset + p.length;
  }
  if (!at) at = first_difference(a, b, pos, a.size());
  // Only the objects' bytes differ, or one file is the other's start: the first difference of all.
  if (!at) at = first_difference(a, b, 0, a.size());
  if (!at) at = std::min(a.size(), b.size());
  out.offset = *at;
  out.where = describe_offset(a, source, *at);
  return out;
}

// The first byte of data file a's header, id or name entry that differs from b's (raw_size aside where it
// follows the stored size), as an offset in archive A.
std::optional<u64> table_difference(std::span<const u8> bytes_a, const forge::Archive& archive_a,
                                    const forge::DataFileAt& a, std::span<const u8> bytes_b,
                                    const forge::Archive& archive_b, const forge::DataFileAt& b) {
  if (archive_a.header.version != archive_b.header.version) return a.index_entry_offset;
  auto field = [&](u64 at_a, u64 at_b, u64 size) -> std::optional<u64> {
    auto d = first_difference(bytes_a.subspan(at_a, size), bytes_b.subspan(at_b, size), 0, size);
    if (!d) return std::nullopt;
    return at_a + *d;
  };
  if (auto d = field(a.index.offset, b.index.offset, a.header_size)) return d;
  if (a.index.file_id.value != b.index.file_id.value) return a.index_entry_offset + 8;
  const bool tied_a = a.name.raw_size == a.index.size, tied_b = b.name.raw_size == b.index.size;
  if (tied_a != tied_b || (!tied_a && a.name.raw_size != b.name.raw_size)) return a.name_entry_offset;
  return field(a.name_entry_offset + 4, b.name_entry_offset + 4, archive_a.layout().name_entry - 4);
}

DataFileSide side_of(const forge::Archive& archive, std::size_t i) {
  const forge::DataFileAt& f = archive.files[i];
  return {i, forge::format_id(f.index.file_id.value, archive.variant()), f.index.offset, f.stored_offset(),
          f.index.size};
}

// Whether two data files' stored bytes are equal, read with pread 128 KiB at a time into `buffers` (for a
// mapped archive; the bytes in memory otherwise): comparing through the mappings would map 300 MB of page
// cache into this process for two 150 MB archives, which takes twice the time of reading them (page faults
// and TLB misses) and counts it all as resident. Pieces of 128 KiB stay in the core's cache between the
// read and the comparison (1 MiB pieces took a third longer).
bool stored_equal(const InputFile& file_a, const forge::DataFileAt& a, const InputFile& file_b,
                  const forge::DataFileAt& b, std::array<std::vector<u8>, 2>& buffers) {
  if (a.index.size != b.index.size) return false;
  constexpr u64 kPiece = u64{128} << 10;
  for (u64 done = 0; done < a.index.size; done += kPiece) {
    const u64 length = std::min(kPiece, a.index.size - done);
    const std::span<const u8> x = file_a.read_at(a.stored_offset() + done, length, buffers[0]);
    const std::span<const u8> y = file_b.read_at(b.stored_offset() + done, length, buffers[1]);
    if (x.size() != length || y.size() != length || std::memcmp(x.data(), y.data(), length) != 0) return false;
  }
  return true;
}

// Two decompressed data files, carved (`la` null: not carved, for their bytes are equal).
DataFileDiff diff_carved(std::span<const u8> a, std::span<const u8> b, const Level* la, const Source& source_a,
                         const Level& lb) {
  DataFileDiff d;
  d.a_size = a.size();
  d.b_size = b.size();
  if (!la) return d;
  DiffOutcome outcome = diff_levels(*la, lb);
  if (!outcome.error) {
    d.state = DataFileState::changed;
    d.ops = std::move(outcome.ops);
    return d;
  }
  d.state = DataFileState::changed_outside;
  d.outside = locate_outside(a, b, *la, source_a, *outcome.error);
  return d;
}

}  // namespace

std::string_view state_name(DataFileState state) {
  switch (state) {
    case DataFileState::identical:
      return "identical";
    case DataFileState::only_in_a:
      return "only in A";
    case DataFileState::only_in_b:
      return "only in B";
    case DataFileState::changed:
      return "changed";
    case DataFileState::changed_outside:
      return "changed outside objects";
    case DataFileState::stored:
      return "stored differently";
  }
  return "?";
}

bool ArchiveDiff::identical() const {
  return std::all_of(datafiles.begin(), datafiles.end(), [](const DataFileDiff& d) { return d.identical(); });
}

std::vector<DiffOp> ArchiveDiff::ops() const {
  std::vector<DiffOp> all;
  for (const DataFileDiff& d : datafiles) all.insert(all.end(), d.ops.begin(), d.ops.end());
  return all;
}

DataFileDiff diff_data_files(std::span<const u8> a, const Source& source_a, std::span<const u8> b,
                             const Source& source_b, Game game) {
  if (a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin())) return diff_carved(a, b, nullptr, {}, {});
  const Level la = carve_source(a, source_a, game), lb = carve_source(b, source_b, game);
  return diff_carved(a, b, &la, source_a, lb);
}

DataFileDiff diff_data_files(const Level& la, const Source& source_a, const Level& lb) {
  const std::span<const u8> a = la.bytes, b = lb.bytes;
  const bool equal = a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  return diff_carved(a, b, equal ? nullptr : &la, source_a, lb);
}

namespace {

// Data files i of A and j of B, whose stored bytes differ: both read (each against its own blocks' rule),
// carved and compared object by object into `d`. `game` is decided by the first pair read when not given.
absl::Status diff_changed_pair(ArchiveSide& a, std::size_t i, ArchiveSide& b, std::size_t j, std::optional<Game>& game,
                               DataFileDiff& d) {
  auto opened = open_pair(a, i, b, j);
  absl::StatusOr<Opened>& oa = opened[0];
  absl::StatusOr<Opened>& ob = opened[1];
  if (!oa.ok()) return oa.status();
  if (!ob.ok()) return ob.status();
  // `--game auto`: the first changed data file of A that decides (of B when A's does not), as the data
  // files of A are read.
  if (!game) game = forge::data_file_game(oa->decoded.bytes, oa->source);
  if (!game) game = forge::data_file_game(ob->decoded.bytes, ob->source);
  if (!game) game = forge::detect_archive_game(a.file.bytes(), a.archive);
  std::optional<Level> la, lb;
  on_two_threads([&] { la = carve_source(oa->decoded.bytes, oa->source, *game); },
                 [&] { lb = carve_source(ob->decoded.bytes, ob->source, *game); });
  const std::span<const u8> da = oa->decoded.bytes, db = ob->decoded.bytes;
  const bool equal = da.size() == db.size() && std::equal(da.begin(), da.end(), db.begin());
  DataFileDiff c = diff_carved(da, db, equal ? nullptr : &*la, oa->source, *lb);
  d.state = c.state == DataFileState::identical ? DataFileState::stored : c.state;
  d.outside = std::move(c.outside);
  d.a_size = c.a_size;
  d.b_size = c.b_size;
  const std::string prefix = datafile_pointer(d.name);
  for (DiffOp& op : c.ops) {
    op.path = prefix + op.path;
    d.ops.push_back(std::move(op));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ArchiveDiff> diff_archives(ArchiveSide a, ArchiveSide b, std::optional<Game> game) {
  const InputFile &file_a = a.file, &file_b = b.file;
  const forge::Archive &archive_a = a.archive, &archive_b = b.archive;
  const std::span<const u8> bytes_a = file_a.bytes(), bytes_b = file_b.bytes();
  ArchiveDiff out;
  const std::vector<std::string> names_a = forge::data_file_names(archive_a),
                                 names_b = forge::data_file_names(archive_b);
  std::unordered_map<std::string, std::size_t> in_b;
  for (std::size_t j = 0; j < names_b.size(); ++j) in_b.emplace(names_b[j], j);
  std::vector<bool> matched(names_b.size(), false);
  // Which pairs hold the same stored bytes: the one pass over both archives, split in two halves of about
  // the same bytes, one per thread.
  std::vector<std::optional<std::size_t>> pair(names_a.size());
  u64 total = 0;
  for (std::size_t i = 0; i < names_a.size(); ++i)
    if (auto it = in_b.find(names_a[i]); it != in_b.end()) {
      pair[i] = it->second;
      total += archive_a.files[i].index.size;
    }
  std::vector<char> same(names_a.size(), 0);
  auto compare = [&](std::size_t from, std::size_t to) {
    std::array<std::vector<u8>, 2> buffers;
    for (std::size_t i = from; i < to; ++i)
      if (pair[i]) same[i] = stored_equal(file_a, archive_a.files[i], file_b, archive_b.files[*pair[i]], buffers);
  };
  std::size_t half = 0;
  for (u64 bytes = 0; half < names_a.size() && bytes < total / 2; ++half)
    if (pair[half]) bytes += archive_a.files[half].index.size;
  on_two_threads([&] { compare(0, half); }, [&] { compare(half, names_a.size()); });
  for (std::size_t i = 0; i < names_a.size(); ++i) {
    DataFileDiff d;
    d.name = names_a[i];
    d.a = side_of(archive_a, i);
    if (!pair[i]) {
      d.state = DataFileState::only_in_a;
      out.datafiles.push_back(std::move(d));
      continue;
    }
    const std::size_t j = *pair[i];
    matched[j] = true;
    d.b = side_of(archive_b, j);
    const forge::DataFileAt &fa = archive_a.files[i], &fb = archive_b.files[j];
    d.table_difference = table_difference(bytes_a, archive_a, fa, bytes_b, archive_b, fb);
    if (!same[i])
      if (auto s = diff_changed_pair(a, i, b, j, game, d); !s.ok()) return s;
    out.datafiles.push_back(std::move(d));
  }
  for (std::size_t j = 0; j < names_b.size(); ++j) {
    if (matched[j]) continue;
    DataFileDiff d;
    d.name = names_b[j];
    d.b = side_of(archive_b, j);
    d.state = DataFileState::only_in_b;
    out.datafiles.push_back(std::move(d));
  }
  // No data file was carved: the dialect as any command finds it, for the record (--json).
  if (!game) game = forge::resolve_game(bytes_a, a.archive);
  out.game = *game;
  return out;
}

namespace {

// The diff's JSON (docs/diff.md), one part a member.
class DiffJson {
 public:
  explicit DiffJson(std::string_view kind) : kind_(kind), w_(buffer_) { w_.SetIndent(' ', 2); }

  rapidjson::PrettyWriter<rapidjson::StringBuffer>& writer() { return w_; }
  void string(std::string_view s) { w_.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
  // A test and a replace per difference.
  void ops(const std::vector<DiffOp>& list) {
    w_.StartArray();
    for (const DiffOp& op : list) {
      for (const char* name : {"test", "replace"}) {
        w_.StartObject();
        w_.Key("op");
        w_.String(name);
        w_.Key("path");
        string(op.path);
        w_.Key("value");
        const std::string& value = name[0] == 't' ? op.old_value : op.new_value;
        w_.RawValue(value.data(), value.size(), rapidjson::kObjectType);  // the type only steers indentation
        w_.EndObject();
      }
    }
    w_.EndArray();
  }
  void side(const char* key, const std::optional<DataFileSide>& s, u64 size) {
    w_.Key(key);
    if (!s) {
      w_.Null();
      return;
    }
    w_.StartObject();
    w_.Key("index");
    w_.Uint64(s->index);
    w_.Key("file_id");
    string(s->file_id);
    w_.Key("header_offset");
    w_.Uint64(s->header_offset);
    w_.Key("stored_offset");
    w_.Uint64(s->stored_offset);
    w_.Key("stored_size");
    w_.Uint64(s->stored_size);
    if (size > 0 || kind_ != "archives") {
      w_.Key("decompressed_size");
      w_.Uint64(size);
    }
    w_.EndObject();
  }
  void datafile(const DataFileDiff& d) {
    w_.StartObject();
    w_.Key("name");
    string(d.name);
    w_.Key("state");
    string(state_name(d.state));
    if (kind_ == "archives") {
      side("a", d.a, d.a_size);
      side("b", d.b, d.b_size);
    } else {
      w_.Key("a_size");
      w_.Uint64(d.a_size);
      w_.Key("b_size");
      w_.Uint64(d.b_size);
    }
    w_.Key("table_difference");
    if (d.table_difference)
      w_.Uint64(*d.table_difference);
    else
      w_.Null();
    if (d.outside) {
      w_.Key("outside");
      w_.StartObject();
      w_.Key("offset");
      w_.Uint64(d.outside->offset);
      w_.Key("where");
      string(d.outside->where);
      w_.Key("reason");
      string(d.outside->reason);
      w_.EndObject();
    }
    w_.Key("ops");
    ops(d.ops);
    w_.EndObject();
  }
  std::string text() const { return std::string(buffer_.GetString(), buffer_.GetSize()) + "\n"; }

 private:
  std::string_view kind_;
  rapidjson::StringBuffer buffer_;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w_;
};

}  // namespace

std::string archive_diff_json(const ArchiveDiff& diff, std::string_view a_path, std::string_view b_path,
                              std::string_view kind) {
  DiffJson json(kind);
  auto& w = json.writer();
  w.StartObject();
  w.Key("format");
  w.String("anvilrt-diff/1");
  w.Key("kind");
  json.string(kind);
  w.Key("a");
  json.string(a_path);
  w.Key("b");
  json.string(b_path);
  w.Key("game");
  json.string(game_name(diff.game));
  w.Key("identical");
  w.Bool(diff.identical());
  w.Key("datafiles");
  w.StartArray();
  for (const DataFileDiff& d : diff.datafiles) json.datafile(d);
  w.EndArray();
  w.Key("patch");
  json.ops(diff.ops());
  w.EndObject();
  return json.text();
}

}  // namespace anvil::patch
