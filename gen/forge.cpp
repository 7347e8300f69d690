#include "gen/forge.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <cstring>
#include <span>
#include <stdexcept>
#include <string_view>

#include "gen/generator.hpp"
#include "gen/random.hpp"
#include "model/forge/data_file.hpp"
#include "model/forge/kept_bytes.hpp"
#include "model/forge/stored_data_file.hpp"
#include "platform/replace_file.hpp"
#include "writer/encode.hpp"
#include "writer/forge/new_archive.hpp"
#include "writer/forge/repack.hpp"
#include "writer/forge/stored_form.hpp"

namespace anvil::gen {
namespace {

using namespace anvil::forge;

constexpr u64 kAlignment = 16;
constexpr u32 kFileType = 0x0FAEBA30;      // the file_type every generated data file has
constexpr u32 kResourceType = 0x9B7F5D64;  // the resource_type of every generated entry

void random_run(Rng& rng, std::span<u8> run) {
  for (auto& b : run) b = static_cast<u8>(rng.next());
}
template <std::size_t N>
void random_bytes(Rng& rng, Opaque<N>& o) {
  random_run(rng, o.bytes);
}

template <std::size_t N>
void set_name(FixedString<N>& s, const std::string& name) {
  s.bytes.fill(0);
  std::memcpy(s.bytes.data(), name.data(), std::min(name.size(), N));
}

// Entry `j` of data file `f` (the `i`th): its body a generated level, whose Visuals `f` counts.
Entry random_entry(Rng& rng, const ForgeOptions& options, const ForgeVariant& variant, ForgeRecord::DataFile& f, u64 i,
                   u64 j) {
  Entry e;
  e.file_id.value = static_cast<u32>(rng.next());
  e.extra = static_cast<i16>(rng.uniform(3)) - 1;
  if (variant.wide_entries()) {  // a 64-bit id, and e pairs when e > 0
    e.file_id.value |= u64{static_cast<u32>(rng.next())} << 32;
    e.pairs.bytes.resize(e.extra > 0 ? 2 * static_cast<std::size_t>(e.extra) : 0);
    for (auto& b : e.pairs.bytes) b = static_cast<u8>(rng.next());
  } else if (!variant.extra()) {
    e.extra = 0;  // not in this layout
  }
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
  // The resource's size (FORGE.md 5): its header (with flag 1's unknown bytes and counted records) and body.
  const std::size_t flag_part = e.flag == 1 ? 3 + 4 + 12 * e.flag_records.size() : 0;
  e.data_size = static_cast<u32>(e.body.bytes.size() + Entry::min_body_wire_size + e.name.bytes.size() + flag_part);
  return e;
}

// The decompressed content of data file `f` (the `i`th): a few kept bytes and 1 to 3 entries.
DataFile random_content(Rng& rng, const ForgeOptions& options, const ForgeVariant& variant, ForgeRecord::DataFile& f,
                        u64 i) {
  DataFile content;
  content.unknown.bytes.resize(rng.uniform(5));
  for (auto& b : content.unknown.bytes) b = static_cast<u8>(rng.next());
  const u64 entries = 1 + rng.uniform(3);
  for (u64 j = 0; j < entries; ++j) content.entries.push_back(random_entry(rng, options, variant, f, i, j));
  if (!variant.table_tail()) content.unknown.bytes.clear();  // layout 1's m bytes
  if (variant.version_tail()) {
    content.unknown_26.bytes.resize(rng.uniform(5));
    for (auto& b : content.unknown_26.bytes) b = static_cast<u8>(rng.next());
  }
  return content;
}

// The stored form of data file `f` (the `i`th): its prefix by the layout, its form and compression, blocks of
// `block_size`.
std::vector<u8> random_stored(Rng& rng, const ForgeRecord::DataFile& f, const ForgeVariant& variant, u64 i,
                              u64 block_size) {
  StoredDataFile s;
  s.prefix.resize(i % 3);
  for (auto& p : s.prefix) random_bytes(rng, p);
  StoredSpec spec;
  spec.variant = variant;
  spec.form = f.form;
  if (variant.prefix_bytes()) {  // layout 2: [u32 b][b bytes]
    spec.prefix_bytes.resize(5 * (i % 3));
    for (auto& b : spec.prefix_bytes) random_bytes(rng, b);
  }
  if (!variant.prefix_pairs()) s.prefix.clear();  // layout 1's [u32 n][8n]
  spec.prefix = std::move(s.prefix);
  spec.cut = block_size;
  spec.first_set_size = block_size;  // one block: the first set holds the start of the data file
  spec.sets[0].compression = spec.sets[1].compression = compression_id(f.compression);
  s = *compress_stored(f.decoded, spec, ChecksumRule::adler32_0_stored);  // valid options: never an error
  return encode_stored(s);
}

// The tables' entries of data file `f` (the `i`th), with a few bytes of padding more before some.
NewDataFile random_new_data_file(Rng& rng, const ForgeRecord::DataFile& f, u64 i, ForgeVariant variant) {
  NewDataFile file;
  file.padding = i % 2 ? 0xCC : 0x00;
  file.gap = rng.uniform(3) * kAlignment;
  file.file_id = f.file_id;
  // raw_size: the index size, except for the fourth form, where it is the decompressed size (FORGE.md 1:
  // earlier games sometimes differ; kept as stored).
  if (f.form == StoredForm::block_set_then_chunks) file.raw_size = static_cast<u32>(f.decoded.size());
  // Every kept run of the name entry and the data file header random, as the declarations lay them out.
  for_each_kept(file.name, variant, [&](std::string_view, std::span<u8> run) { random_run(rng, run); });
  file.name.file_type.value = kFileType;
  set_name(file.name.name, f.name);
  set_name(file.header.name, f.name);
  for_each_kept(file.header, variant, [&](std::string_view, std::span<u8> run) { random_run(rng, run); });
  return file;
}

}  // namespace

absl::Status validate(const ForgeOptions& options) {
  if (options.datafiles < 1 || options.datafiles > 10000)
    return absl::InvalidArgumentError("--datafiles must be 1..10000");
  if (options.block_size < 16 || options.block_size > 0xFFFF)
    return absl::InvalidArgumentError("--block-size must be 16..65535 (a u16)");
  if (!ForgeVariant::known(options.version))
    return absl::InvalidArgumentError(absl::StrCat("--forge-version must be ", known_versions()));
  if (!ForgeVariant::known_layout(options.layout))
    return absl::InvalidArgumentError(absl::StrCat("--layout must be ", known_layouts()));
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

  // The data-file layout (FORGE.md 7), in the archive version written.
  const ForgeVariant variant{options.version, options.layout};

  // The data files: decompressed, then stored.
  std::vector<std::vector<u8>> stored(options.datafiles);
  for (u64 i = 0; i < options.datafiles; ++i) {
    ForgeRecord::DataFile f;
    f.name = absl::StrFormat("DataFile_%03d", i);
    f.file_id = (variant.wide_ids() ? rng.next() : static_cast<u32>(rng.next())) | 1;
    f.form = forms[i % 5];
    f.compression = compressions[i % 5];
    const DataFile content = random_content(rng, options, variant, f, i);
    f.entries = content.entries.size();
    f.decoded = encoded(content, variant.code());

    stored[i] = random_stored(rng, f, variant, i, options.block_size);
    f.stored_size = stored[i].size();
    rec.files.push_back(std::move(f));
  }

  // The archive's own fields: the header (with kept bytes up to H), the file-data header, and one table
  // section per half of the data files; the writer lays them out, then the data files after them.
  NewArchiveHead head;
  head.header.version = options.version;
  head.header.unknown = static_cast<u8>(rng.next());
  head.header.unknown_1.bytes.resize(11);
  for (auto& b : head.header.unknown_1.bytes) b = static_cast<u8>(rng.next());
  random_bytes(rng, head.data_header.unknown);
  const u32 count = static_cast<u32>(options.datafiles);
  std::memcpy(head.data_header.unknown.bytes.data(), &count, sizeof count);  // the wiki: the file count
  for (u64 n : {(options.datafiles + 1) / 2, options.datafiles / 2}) {
    if (n == 0) continue;
    TableSection s;
    s.count = static_cast<i32>(n);
    for_each_kept(s, variant, [&](std::string_view, std::span<u8> run) { random_run(rng, run); });
    head.sections.push_back(s);
  }
  head.alignment = kAlignment;
  // The file-data header's other kept runs (its first holds the file count, above).
  for_each_kept(head.data_header, variant, [&](std::string_view, std::span<u8> run) {
    if (run.data() != head.data_header.unknown.bytes.data()) random_run(rng, run);
  });

  // Each data file aligned, with a few bytes of padding more before some.
  VectorSink sink;
  auto writer = NewArchiveWriter::open(std::move(head), options.datafiles, sink);
  if (!writer.ok()) throw std::logic_error(std::string(writer.status().message()));
  for (u64 i = 0; i < options.datafiles; ++i) {
    const ForgeRecord::DataFile& f = rec.files[i];
    const NewDataFile file = random_new_data_file(rng, f, i, variant);
    if (auto s = writer->add(file, stored[i]); !s.ok()) throw std::logic_error(std::string(s.message()));
  }
  auto layout = writer->finish(rng.uniform(kAlignment));  // trailing padding
  if (!layout.ok()) throw std::logic_error(std::string(layout.status().message()));
  std::vector<u8> out = std::move(sink.bytes());
  for (u64 i = 0; i < options.datafiles; ++i) rec.files[i].header_offset = layout->header_offsets[i];

  rec.size = out.size();
  rec.first_header = layout->first_header;
  rec.sections = layout->sections;
  if (record) *record = std::move(rec);
  return out;
}

absl::StatusOr<ForgeRecord> generate_forge_file(const ForgeOptions& options, const std::string& path) {
  if (auto s = validate(options); !s.ok()) return s;
  ForgeRecord record;
  std::vector<u8> bytes = generate_forge(options, &record);
  if (auto s = platform::write_file_atomically(path, bytes); !s.ok()) return s;
  return record;
}

}  // namespace anvil::gen
