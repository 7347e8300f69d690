// Reading one data file of an archive (FORGE.md 2, 3): its stored form (plain, one or two block sets,
// or chunks), decompressed with every checksummed block checked against the archive's rule (found by a
// vote of all its blocks, archive_checksums()), and its entry table with the
// bodies the objects of FORMAT.md are carved from. One data file at a time, on demand: nothing here
// holds more than the data file asked for.
#pragma once

#include <absl/status/statusor.h>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "model/forge/archive.hpp"
#include "model/forge/data_file.hpp"
#include "model/forge/stored_data_file.hpp"
#include "reader/level.hpp"

namespace anvil::forge {

// Whether block sets follow the layout's prefix of `stored` (FORGE.md 7: `[u32 n][8n bytes]` in layout 1,
// `[u32 b][b bytes]` in layout 2, none in layouts 0 and 3): a plain data file is not read further by the
// checksum vote.
bool starts_compressed(std::span<const u8> stored, ForgeVariant variant);

// The stored form of data file `index` of `archive` (read from `bytes`, the mapped archive). A stored
// size of 0 reads as an empty plain data file. Errors (ForgeError) name the archive offset, the data file
// and the variant it was read as. With `runs`, a skimming
// read (ByteReader::skim_into): the blocks' and chunks' bytes (or the plain data file's) are not copied
// but viewed in `runs`, one per block or chunk in block_layout() order (one for a plain data file), and a
// plain data file is not searched for the compression magic (the one check that reads all its bytes).
// `as`: the variant it is read in (the archive's, or a candidate that detection tries).
absl::StatusOr<StoredDataFile> read_stored(std::span<const u8> bytes, const Archive& archive, ForgeVariant as,
                                           std::size_t index, std::vector<std::span<const u8>>* runs = nullptr);
inline absl::StatusOr<StoredDataFile> read_stored(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                                  std::vector<std::span<const u8>>* runs = nullptr) {
  return read_stored(bytes, archive, archive.variant(), index, runs);
}

// A stored data file outside its archive (a mod's file, as the archive held it, FORGE.md 2): read as
// read_stored() reads one, every byte checked (a plain one must not hold the compression magic); errors name
// the offset in `stored`.
absl::StatusOr<StoredDataFile> read_stored_alone(std::span<const u8> stored, ForgeVariant variant);

// The check a skimming read_stored() leaves out: a plain data file (`plain`, a view of `bytes`, read as
// `as`) must not hold the compression magic. The error names the archive offset.
absl::Status check_plain(std::span<const u8> bytes, const Archive& archive, ForgeVariant as, std::size_t index,
                         std::span<const u8> plain);

// The compression of a stored data file: its first block set's, or plain.
Compression compression_of(const StoredDataFile& stored);

// Where each block or chunk of a stored data file lies: in the archive (its checksum field, or its kind
// byte for a chunk) and in the decompressed data file.
struct BlockAt {
  std::size_t set = 0;    // 0 or 1
  std::size_t block = 0;  // index in the set's blocks or chunks
  u64 stored_offset = 0;  // archive offset
  u64 decoded_offset = 0;
  u64 decoded_size = 0;
};
// Every block of a compressed data file in order; `stored_offset` is where the stored form starts. `runs`:
// the views of a skimming read_stored(), whose blocks hold no bytes (none: the blocks' own bytes).
std::vector<BlockAt> block_layout(const StoredDataFile& stored, u64 stored_offset,
                                  std::span<const std::span<const u8>> runs = {});

// A buffer for a decompressed data file: allocated once from the block tables and written only by the
// decompression (never zero-filled first); a large one in huge pages where the system gives them (a
// 68 MB data file otherwise takes 17,000 page faults, a third of its decompression's time), and given back
// to be used again by the next data file (the system zeroes every fresh page before it is written).
struct FreeBuffer {
  std::size_t capacity = 0;  // a large buffer's, allocated aligned to the huge page size; 0: a small one
  void operator()(u8* p) const;
};
using DecodeBuffer = std::unique_ptr<u8[], FreeBuffer>;
DecodeBuffer allocate_decode_buffer(std::size_t size);

// A data file decompressed: into a buffer of its own, or, for a plain data file, a view of its stored
// bytes (no copy). Moving it keeps `bytes` valid.
struct Decoded {
  std::span<const u8> bytes;  // the data file decompressed: a view of `owned`, or of the stored bytes
  DecodeBuffer owned;         // compressed data files
  Compression compression = Compression::plain;
  std::size_t checked_blocks = 0;  // blocks and chunks that carry a checksum
};

// Decompresses a stored data file: every claimed size checked against its compressed bytes before
// anything is allocated, every block decompressing to exactly its stated size, and every checksummed
// block checked against the archive's rule (`checksums`, archive_checksums()): a block it does not match
// is damaged, a DataLoss error naming the set, the block, its archive offset and the rule with how many
// blocks it matched (with no rule, none or n/a, nothing is checked). Errors (ForgeError) name the block,
// its archive offset (`stored_offset`: where the stored form starts) and the variant; read_data_file() adds
// the data file (with_data_file()). `runs`: the
// views of a skimming read_stored(), which the blocks are decompressed from (none: the blocks' own bytes).
// A plain data file decodes to a view of its stored bytes (of the run, or of `stored.plain`): they must
// outlive the result.
absl::StatusOr<Decoded> decode(const StoredDataFile& stored, u64 stored_offset, const ChecksumVerdict& checksums,
                               std::span<const std::span<const u8>> runs = {});

// Two stored data files decoded at once, as decode() decodes each (the same bytes, checks and errors), on two
// threads: a block of B at the same place as A's block of the same index, stored the same way with the same
// stored bytes, is decompressed once and copied. A data file and its edited copy (diff) share all but a few.
struct StoredSide {
  const StoredDataFile& stored;
  u64 stored_offset = 0;
  const ChecksumVerdict& checksums;
  std::span<const std::span<const u8>> runs;
};
// decode() of one side.
inline absl::StatusOr<Decoded> decode(const StoredSide& side) {
  return decode(side.stored, side.stored_offset, side.checksums, side.runs);
}
std::array<absl::StatusOr<Decoded>, 2> decode_together(const StoredSide& a, const StoredSide& b);

// Whether two readings of one data file's stored bytes (read_stored() skimming, in two layouts) decode to the
// same bytes: the same blocks, at the same places, stored the same way, from the same stored bytes.
bool decodes_alike(const StoredDataFile& x, std::span<const std::span<const u8>> runs_x, const StoredDataFile& y,
                   std::span<const std::span<const u8>> runs_y);

// The checksum rules a block's checksum matches (stored: its bytes as stored; decoded: decompressed).
ChecksumRules rules_matching(u32 checksum, std::span<const u8> stored, std::span<const u8> decoded);

// A block or chunk of a data file read by skimming (read_stored with runs): its checksum when it
// carries one, its bytes as stored (a view of the archive) and its decompressed size.
struct SkimmedBlock {
  std::optional<u32> checksum;
  std::span<const u8> stored;
  u64 decoded_size = 0;
  bool plain = false;                            // stored as it decompresses
  Compression compression = Compression::plain;  // its set's algorithm
};
// Every block and chunk of a skimmed data file, in block_layout() order (none for a plain data file).
std::vector<SkimmedBlock> skimmed_blocks(const StoredDataFile& stored, std::span<const std::span<const u8>> runs);

// Parses a decompressed data file's entry table (FORGE.md 3); nothing may follow the last body. Errors
// (ForgeError) name the offset in the decompressed data file and the variant it was read as.
// `variant`: the archive version and data-file layout it is read in (FORGE.md 7).
absl::StatusOr<DataFile> parse_data_file(std::span<const u8> decoded, ForgeVariant variant = {});

// A decompressed data file's entry table read in place (the read path): the runs of its declaration (the
// unknown bytes, then each entry's name and body) are views of `bytes`, not copies; `file` holds the
// rest, its runs empty and each body's size in body_size. Errors as parse_data_file().
struct DataFileView {
  std::span<const u8> bytes;  // the decompressed data file
  DataFile file;
  ForgeVariant variant;                   // the version and layout it was read in
  std::vector<std::span<const u8>> runs;  // in declaration order: the table's kept bytes, then name and body per entry
  std::size_t first_entry_run = 0;        // the run of the first entry's name
  std::span<const u8> name(std::size_t entry) const { return runs[first_entry_run + 2 * entry]; }
  std::span<const u8> body(std::size_t entry) const { return runs[first_entry_run + 1 + 2 * entry]; }
};
absl::StatusOr<DataFileView> view_data_file(std::span<const u8> decoded, ForgeVariant variant = {});
// Whether every entry's data_size is the size of its resource (header and body, FORGE.md 5): what tells
// apart layouts that parse the same bytes (1 and 2, with one entry).
bool data_sizes_agree(const DataFileView& view);
// A decompressed data file outside its archive (dump, verify, patch, diff of a data file): read in the
// first form that parses it exactly and whose data sizes agree, else in the first that parses (version 25
// with layout 1 first, then the other layouts, then version 26's tail; only the layout `named`, when the
// user names one); the error of the first form when none parses.
absl::StatusOr<DataFileView> view_data_file_by_content(std::span<const u8> decoded, std::optional<u8> named = {});

// The bytes of an entry's head in the entries' table, and where its data_size lies in it (from the
// declaration, FORGE.md 7: they depend on the layout); where the entries' table and what follows it end.
u64 entry_head_size(const Entry& entry, ForgeVariant variant);
u64 data_size_offset(const Entry& entry, ForgeVariant variant);
u64 table_end(const DataFile& file, ForgeVariant variant);

// Where each entry's body lies in the decompressed data file.
struct BodyAt {
  std::size_t entry = 0;
  u64 offset = 0;
  u64 size = 0;
};
std::vector<BodyAt> body_layout(const DataFile& file, ForgeVariant variant = {});
std::vector<BodyAt> body_layout(const DataFileView& view);

// Where each entry's two size fields lie in the decompressed data file: `data_size` in the entries' table
// and `file_size` in the entry's resource header (FORGE.md 3), what a resize changes besides the body
// (FORGE.md 5).
struct SizeFieldsAt {
  BodyAt body;
  u64 data_size_at = 0;
  u64 file_size_at = 0;
  u64 resource_at() const { return file_size_at - sizeof(u32); }  // its resource_type, the u32 before file_size
};
std::vector<SizeFieldsAt> size_fields(const DataFileView& view);

// Everything about one data file, read from the archive: what `ls`, `extract` and the pipelines use.
// `checksums` is the archive's verdict (archive_checksums()), which decode() checks the blocks against. The
// stored form is skimmed (its blocks' bytes viewed in `runs`, decode()'s input) unless `copy_stored` (what
// repack() needs: the blocks' bytes in `stored`); `decoded.bytes` of a plain data file is then a view of
// `bytes`, of the archive, which must outlive it.
struct DataFileRead {
  StoredDataFile stored;
  std::vector<std::span<const u8>> runs;  // read_stored()'s, when skimmed
  Decoded decoded;
};
absl::StatusOr<DataFileRead> read_data_file(std::span<const u8> bytes, const Archive& archive, ForgeVariant as,
                                            std::size_t index, const ChecksumVerdict& checksums,
                                            bool copy_stored = false);
inline absl::StatusOr<DataFileRead> read_data_file(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                                   const ChecksumVerdict& checksums, bool copy_stored = false) {
  return read_data_file(bytes, archive, archive.variant(), index, checksums, copy_stored);
}

// read_data_file() (skimming) of one data file of each of two archives at once, decoded by decode_together().
struct DataFileIn {
  std::span<const u8> bytes;
  const Archive& archive;
  std::size_t index = 0;
  const ChecksumVerdict& checksums;
  std::optional<ForgeVariant> as = {};  // the variant it is read in: the archive's when none
  ForgeVariant variant() const { return as ? *as : archive.variant(); }
};
std::array<absl::StatusOr<DataFileRead>, 2> read_data_files_together(const DataFileIn& a, const DataFileIn& b);

// The archive's checksum rule (FORGE.md 2) is found by a vote of all its checksummed blocks
// (model/forge/archive.hpp: ChecksumVote, judge). Each data file votes on its own, so that the votes can be
// taken in any order, on any thread, and added up:
//  * vote_stored(): the candidates over the stored bytes, by skimming (read_stored with runs): the blocks
//    are views of the mapping, nothing is copied or decompressed;
//  * vote_decoded(): all four candidates, each compressed block decompressed on its own into a scratch
//    buffer; a block that does not decompress to its stated size matches neither candidate over the
//    decompressed bytes.
// A plain data file votes nothing and is not read; nor is one whose stored form does not read (the
// command that reads it says why).
// `as`: the variant the data file is read in (the archive's when not given).
ChecksumVote vote_stored(std::span<const u8> bytes, const Archive& archive, ForgeVariant as, std::size_t index);
ChecksumVote vote_decoded(std::span<const u8> bytes, const Archive& archive, ForgeVariant as, std::size_t index);
inline ChecksumVote vote_stored(std::span<const u8> bytes, const Archive& archive, std::size_t index) {
  return vote_stored(bytes, archive, archive.variant(), index);
}
inline ChecksumVote vote_decoded(std::span<const u8> bytes, const Archive& archive, std::size_t index) {
  return vote_decoded(bytes, archive, archive.variant(), index);
}
// The rule data file `index`'s own blocks vote (over the stored bytes, then over all four candidates when
// that settles nothing), read as `as`: what a command that reads one data file checks it against when the
// rest of the archive is not to be read (diff, mod check).
ChecksumVerdict own_checksum_rule(std::span<const u8> bytes, const Archive& archive, ForgeVariant as,
                                  std::size_t index);

// The whole vote: over the stored bytes first (cheap: every data file skimmed, nothing decompressed), and
// only when no candidate over the stored bytes wins more than half of the blocks, again over all four
// candidates, decompressing every compressed data file block by block. `done`, when given, hears each
// data file's stored span once it has been read (a mapped archive drops those pages, so that the pass
// keeps a small RSS), from any of the `threads` that vote (each takes the next data file: the votes do not
// depend on the order); the caller's thread is one of them.
ArchiveChecksums archive_checksums(std::span<const u8> bytes, const Archive& archive,
                                   const std::function<void(u64 offset, u64 size)>& done = {}, unsigned threads = 1);
// The same, with `voted(index)` called on the voting thread right after data file `index` voted, while its
// pages are still mapped: a command that reads them anyway reads them then, in the same pass.
ArchiveChecksums archive_checksums_then(std::span<const u8> bytes, const Archive& archive,
                                        const std::function<void(std::size_t index)>& voted, unsigned threads = 1);

// The archive's data files by stored size, the smallest first (in index order among equals): the order in
// which a guess that decompresses the data file that decides (the layout, the dialect) costs least.
std::vector<std::size_t> smallest_first(const Archive& archive);
// `evidence`, when given, receives the data file that decided, as read (none when the stored forms did).
struct LayoutEvidence {
  std::size_t index = 0;
  DataFileRead read;         // without checksums checked: a guess from the bytes, not a reading of them
  bool sizes_agree = false;  // data_sizes_agree()
};
// The data-file layout (FORGE.md 7), when the user does not name it (--layout), found by content: the first of
// the archive version's plausible layouts in which the first data file that holds bytes (the smallest first)
// reads, its stored form and its entries' table exactly, those whose data sizes agree first; failing that (raw
// data files), the first in which every data file's stored form reads, one at least compressed. When none
// does, the version's likeliest, whose reads then name the data file, the offset and the rule that failed.
// Each layout is tried as a candidate variant; the archive is not changed (the resolver sets what it returns).
u8 detect_layout(std::span<const u8> bytes, const Archive& archive, std::optional<LayoutEvidence>* evidence = nullptr);

// detect_layout()'s rule on one data file that the caller reads anyway: `read(ForgeVariant as)` reads it in a
// candidate variant (absl::StatusOr<T>), `agrees(const T&)` says whether its entries' sizes agree
// (data_sizes_agree()). Tried in each plausible layout of `version`, the likeliest first: the first read whose
// sizes agree, or failing that the first that read, with its layout; when none reads, the likeliest layout's
// error and that layout.
template <class T>
struct FoundLayout {
  T read;
  u8 layout = 0;
};
template <class Read, class Agrees>
auto read_in_found_layout(u32 version, const Read& read, const Agrees& agrees)
    -> FoundLayout<decltype(read(ForgeVariant{}))> {
  using Result = decltype(read(ForgeVariant{}));
  const std::span<const u8> layouts = plausible_layouts(version);
  std::optional<Result> first, parsed;  // the likeliest layout's read; the first that read
  u8 parsed_layout = layouts.front();
  for (u8 layout : layouts) {
    auto r = read(ForgeVariant{version, layout});
    if (r.ok() && agrees(*r)) return {std::move(r), layout};
    if (r.ok() && !parsed) {
      parsed.emplace(std::move(r));
      parsed_layout = layout;
    } else if (!first) {
      first.emplace(std::move(r));
    }
  }
  if (parsed) return {std::move(*parsed), parsed_layout};
  return {std::move(*first), layouts.front()};
}

}  // namespace anvil::forge
