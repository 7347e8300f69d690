#include "gen/forge.hpp"

#include <absl/strings/str_format.h>

#include <cstring>
#include <stdexcept>

#include "codec/lzo.hpp"
#include "gen/generator.hpp"
#include "gen/random.hpp"
#include "model/forge/block_set.hpp"
#include "model/forge/data_file.hpp"
#include "model/forge/stored_data_file.hpp"
#include "writer/atomic_file.hpp"
#include "writer/byte_writer.hpp"
#include "writer/forge/repack.hpp"

namespace anvil::gen {
namespace {

using namespace anvil::forge;

constexpr u64 kAlignment = 16;
constexpr u32 kFileType = 0x0FAEBA30;      // the file_type every generated data file has
constexpr u32 kResourceType = 0x9B7F5D64;  // the resource_type of every generated entry

template <class T>
std::vector<u8> encoded(const T& value) {
  std::vector<u8> out;
  {
    ByteWriter writer(out);
    const_cast<T&>(value).serialize(writer, 0);
  }
  return out;
}

template <std::size_t N>
void random_bytes(Rng& rng, Opaque<N>& o) {
  for (auto& b : o.bytes) b = static_cast<u8>(rng.next());
}

template <std::size_t N>
void set_name(FixedString<N>& s, const std::string& name) {
  s.bytes.fill(0);
  std::memcpy(s.bytes.data(), name.data(), std::min(name.size(), N));
}

codec::Algorithm algorithm_of(Compression c) {
  return c == Compression::lzo2a ? codec::Algorithm::lzo2a : codec::Algorithm::lzo1x;
}
u8 compression_id(Compression c) { return c == Compression::lzo2a ? 2 : 1; }

// Blocks of a block set from `data` (stored plain when LZO does not make them smaller).
void fill_blocks(BlockSet& set, std::span<const u8> data, u64 block_size) {
  set.max_size = static_cast<u16>(block_size);
  for (u64 at = 0; at < data.size(); at += block_size) {
    std::span<const u8> part = data.subspan(at, std::min<u64>(block_size, data.size() - at));
    Block block;
    block.uncompressed_size = static_cast<u16>(part.size());
    block.stored.bytes = codec::compress(algorithm_of(*compression_of(set.compression)), part);
    if (block.stored.bytes.size() >= part.size()) block.stored.bytes.assign(part.begin(), part.end());
    block.checksum = codec::adler32(0, block.stored.bytes);
    set.blocks.push_back(std::move(block));
  }
}

// Chunks to the end (max_size 0): compressed (01) when that is smaller, plain (00) otherwise.
void fill_chunks(BlockSet& set, std::span<const u8> data, u64 block_size) {
  set.max_size = 0;
  for (u64 at = 0; at < data.size(); at += block_size) {
    std::span<const u8> part = data.subspan(at, std::min<u64>(block_size, data.size() - at));
    Chunk chunk;
    std::vector<u8> packed = codec::compress(algorithm_of(*compression_of(set.compression)), part);
    if (packed.size() < part.size()) {
      chunk.kind = Chunk::kCompressed;
      chunk.uncompressed_size = static_cast<u32>(part.size());
      chunk.stored.bytes = std::move(packed);
      chunk.checksum = codec::adler32(0, chunk.stored.bytes);
    } else {
      chunk.stored.bytes.assign(part.begin(), part.end());
    }
    set.chunks.push_back(std::move(chunk));
  }
}

}  // namespace

std::string_view stored_form_name(StoredForm form) {
  switch (form) {
    case StoredForm::two_block_sets:
      return "two block sets";
    case StoredForm::chunks:
      return "chunks";
    case StoredForm::plain:
      return "plain";
    case StoredForm::block_set_then_chunks:
      return "block set, then chunks";
  }
  return "?";
}

absl::Status validate(const ForgeOptions& options) {
  if (options.datafiles < 1 || options.datafiles > 10000)
    return absl::InvalidArgumentError("--datafiles must be 1..10000");
  if (options.block_size < 16 || options.block_size > 0xFFFF)
    return absl::InvalidArgumentError("--block-size must be 16..65535 (a u16)");
  Options level;
  level.game = options.game;
  level.visuals = options.visuals;
  return validate(level);
}

std::vector<u8> generate_forge(const ForgeOptions& options, ForgeRecord* record) {
  if (auto s = validate(options); !s.ok()) throw std::invalid_argument(std::string(s.message()));
  Rng rng(options.seed ^ 0xF0F0'0000'0000'0025ULL);
  ForgeRecord rec;
  const StoredForm forms[] = {StoredForm::two_block_sets, StoredForm::chunks, StoredForm::plain,
                              StoredForm::block_set_then_chunks, StoredForm::chunks};
  const Compression compressions[] = {Compression::lzo1x, Compression::lzo2a, Compression::plain, Compression::lzo2a,
                                      Compression::lzo1x};

  // The data files: decompressed, then stored.
  std::vector<std::vector<u8>> stored(options.datafiles);
  for (u64 i = 0; i < options.datafiles; ++i) {
    ForgeRecord::DataFile f;
    f.name = absl::StrFormat("DataFile_%03d", i);
    f.file_id = static_cast<u32>(rng.next()) | 1;
    f.form = forms[i % 5];
    f.compression = compressions[i % 5];
    DataFile content;
    content.unknown.bytes.resize(rng.uniform(5));
    for (auto& b : content.unknown.bytes) b = static_cast<u8>(rng.next());
    const u64 entries = 1 + rng.uniform(3);
    for (u64 j = 0; j < entries; ++j) {
      Entry e;
      e.file_id.value = static_cast<u32>(rng.next());
      e.extra = static_cast<i16>(rng.uniform(3)) - 1;
      e.resource_type = kResourceType;
      std::string name = absl::StrFormat("%s_entry_%d", f.name, j);
      e.name.bytes.assign(name.begin(), name.end());
      e.flag = static_cast<u8>(j % 2);
      if (e.flag == 1) {
        random_bytes(rng, e.flag_unknown);
        e.flag_records.resize(1 + rng.uniform(2));
        for (auto& r : e.flag_records) random_bytes(rng, r);
      }
      Options level;
      level.game = options.game;
      level.visuals = options.visuals;
      level.seed = options.seed * 1000003 + i * 101 + j;
      Record level_record;
      e.body.bytes = generate_bytes(level, &level_record);
      f.visuals += level_record.visuals;
      e.data_size = static_cast<u32>(e.body.bytes.size() + Entry::min_body_wire_size + e.name.bytes.size());
      content.entries.push_back(std::move(e));
    }
    f.entries = content.entries.size();
    f.decoded = encoded(content);

    StoredDataFile s;
    s.prefix.resize(i % 3);
    for (auto& p : s.prefix) random_bytes(rng, p);
    std::span<const u8> data = f.decoded;
    const u64 first_part = std::min<u64>(options.block_size, data.size());
    switch (f.form) {
      case StoredForm::plain:
        s.plain.bytes = f.decoded;
        break;
      case StoredForm::chunks:
        s.first.emplace();
        s.first->compression = compression_id(f.compression);
        fill_chunks(*s.first, data, options.block_size);
        break;
      case StoredForm::two_block_sets:
      case StoredForm::block_set_then_chunks:
        s.first.emplace();
        s.first->compression = compression_id(f.compression);
        fill_blocks(*s.first, data.first(first_part), options.block_size);
        s.second.emplace();
        s.second->compression = s.first->compression;
        if (f.form == StoredForm::two_block_sets)
          fill_blocks(*s.second, data.subspan(first_part), options.block_size);
        else
          fill_chunks(*s.second, data.subspan(first_part), options.block_size);
        break;
    }
    stored[i] = encode_stored(s);
    f.stored_size = stored[i].size();
    rec.files.push_back(std::move(f));
  }

  // The tables: the header (with kept bytes up to H), the file-data header, then one table section per
  // half of the data files, each with its index and name tables.
  Archive a;
  a.header.unknown = static_cast<u8>(rng.next());
  a.header.unknown_1.bytes.resize(11);
  for (auto& b : a.header.unknown_1.bytes) b = static_cast<u8>(rng.next());
  const u64 h = ArchiveHeader::min_wire_size + a.header.unknown_1.bytes.size();
  random_bytes(rng, a.data_header.unknown);
  const u32 count = static_cast<u32>(options.datafiles);
  std::memcpy(a.data_header.unknown.bytes.data(), &count, sizeof count);  // the wiki: the file count
  u64 at = h + DataHeader::wire_size;
  a.data_header.first_section = static_cast<i64>(at);
  const u64 halves[] = {(options.datafiles + 1) / 2, options.datafiles / 2};
  for (u64 n : halves) {
    if (n == 0) continue;
    SectionAt s;
    s.offset = at;
    s.table.count = static_cast<i32>(n);
    random_bytes(rng, s.table.unknown_0);
    random_bytes(rng, s.table.unknown_1);
    random_bytes(rng, s.table.unknown_2);
    s.table.index_table = static_cast<i64>(at + TableSection::wire_size);
    s.table.name_table = static_cast<i64>(at + TableSection::wire_size + n * IndexEntry::wire_size);
    at += TableSection::wire_size + n * (IndexEntry::wire_size + NameEntry::wire_size);
    if (!a.sections.empty()) a.sections.back().table.next = static_cast<i64>(s.offset);
    a.sections.push_back(s);
  }

  // The data files after the tables, each aligned, with a few bytes of padding more between some.
  std::vector<u8> out(at, 0);
  std::size_t section = 0, in_section = 0;
  for (u64 i = 0; i < options.datafiles; ++i) {
    ForgeRecord::DataFile& f = rec.files[i];
    const u8 padding = i % 2 ? 0xCC : 0x00;
    u64 header_at = (out.size() + rng.uniform(3) * kAlignment + kAlignment - 1) / kAlignment * kAlignment;
    out.resize(header_at, padding);
    f.header_offset = header_at;

    DataFileAt file;
    if (in_section == halves[section]) {
      ++section;
      in_section = 0;
    }
    const SectionAt& s = a.sections[section];
    file.section = section;
    file.index_entry_offset = static_cast<u64>(s.table.index_table) + in_section * IndexEntry::wire_size;
    file.name_entry_offset = static_cast<u64>(s.table.name_table) + in_section * NameEntry::wire_size;
    ++in_section;
    file.index.offset = header_at;
    file.index.file_id.value = f.file_id;
    file.index.size = static_cast<u32>(stored[i].size());
    // raw_size: the index size, except for the fourth form, where it is the decompressed size (FORGE.md 1:
    // earlier games sometimes differ; kept as stored).
    file.name.raw_size =
        f.form == StoredForm::block_set_then_chunks ? static_cast<u32>(f.decoded.size()) : file.index.size;
    random_bytes(rng, file.name.unknown_0);
    file.name.file_type = kFileType;
    random_bytes(rng, file.name.unknown_1);
    set_name(file.name.name, f.name);
    random_bytes(rng, file.name.unknown_2);
    set_name(file.header.name, f.name);
    random_bytes(rng, file.header.unknown);

    std::vector<u8> header = encoded(file.header);
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), stored[i].begin(), stored[i].end());
    a.files.push_back(std::move(file));
  }
  out.resize(out.size() + rng.uniform(kAlignment), 0);  // trailing padding

  auto put = [&](u64 offset, const std::vector<u8>& bytes) {
    std::copy(bytes.begin(), bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(offset));
  };
  put(0, encoded(a.header));
  put(h, encoded(a.data_header));
  for (const SectionAt& s : a.sections) put(s.offset, encoded(s.table));
  for (const DataFileAt& f : a.files) {
    put(f.index_entry_offset, encoded(f.index));
    put(f.name_entry_offset, encoded(f.name));
  }

  rec.size = out.size();
  rec.first_header = h;
  for (const SectionAt& s : a.sections) rec.sections.push_back(s.offset);
  if (record) *record = std::move(rec);
  return out;
}

absl::StatusOr<ForgeRecord> generate_forge_file(const ForgeOptions& options, const std::string& path) {
  if (auto s = validate(options); !s.ok()) return s;
  ForgeRecord record;
  std::vector<u8> bytes = generate_forge(options, &record);
  if (auto s = write_file_atomically(path, bytes); !s.ok()) return s;
  return record;
}

}  // namespace anvil::gen
