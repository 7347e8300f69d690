// Decompressing a data file's blocks (FORGE.md 2): each block planned and its sizes checked before anything
// is allocated, decoded into one buffer, checked against the archive's checksum rule.
#include <absl/strings/str_format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codec/forge_compression.hpp"
#include "codec/lzo.hpp"
#include "model/forge/forge_error.hpp"
#include "model/parallel.hpp"
#include "platform/memory.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

std::vector<SkimmedBlock> skimmed_blocks(const StoredDataFile& stored, std::span<const std::span<const u8>> runs) {
  std::vector<SkimmedBlock> out;
  if (!stored.compressed) return out;
  std::size_t k = 0;
  for (const std::optional<BlockSet>* set : {&stored.first, &stored.second}) {
    if (!set->has_value()) continue;
    const Compression compression = compression_of((*set)->compression).value_or(Compression::lzo1x);
    for (const Block& b : (*set)->blocks) {
      const std::span<const u8> run = runs[k++];
      out.push_back({b.checksum, run, b.uncompressed_size, run.size() == b.uncompressed_size, compression});
    }
    for (const Chunk& c : (*set)->chunks) {
      const std::span<const u8> run = runs[k++];
      if (c.kind == Chunk::kPlain)
        out.push_back({std::nullopt, run, run.size(), true, compression});
      else
        out.push_back({c.checksum, run, c.uncompressed_size, false, compression});
    }
  }
  return out;
}

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Large buffers given back, kept for the next data file: a fresh one is zeroed by the system page by page
// as decompression first writes it (a sixth of a folder-wide key search's CPU time in `perf`), a kept one
// is not. At most kKept are kept; one too small for a request is freed before a new one is allocated, so
// the peak of memory held is not raised.
class KeptBuffers {
 public:
  static KeptBuffers& instance() {
    static auto* kept = new KeptBuffers;  // never destroyed: a buffer may be given back during exit
    return *kept;
  }
  // A kept buffer of at least `size` bytes (the smallest), or null after freeing the largest kept.
  u8* take(std::size_t size, std::size_t& capacity) {
    u8* too_small = nullptr;
    {
      std::scoped_lock lock(mutex_);
      auto fit = kept_.end();
      for (auto it = kept_.begin(); it != kept_.end(); ++it)
        if (it->capacity >= size && (fit == kept_.end() || it->capacity < fit->capacity)) fit = it;
      if (fit != kept_.end()) {
        capacity = fit->capacity;
        u8* p = fit->p;
        kept_.erase(fit);
        return p;
      }
      if (!kept_.empty()) {
        auto largest = std::max_element(kept_.begin(), kept_.end(),
                                        [](const Kept& a, const Kept& b) { return a.capacity < b.capacity; });
        too_small = largest->p;
        kept_.erase(largest);
      }
    }
    free_huge(too_small);  // outside the lock
    return nullptr;
  }
  void give_back(u8* p, std::size_t capacity) {
    {
      std::scoped_lock lock(mutex_);
      if (kept_.size() < kKept) {
        kept_.push_back({p, capacity});
        return;
      }
    }
    free_huge(p);
  }

 private:
  static constexpr std::size_t kKept = 4;  // the threads a command runs at once, with a margin
  struct Kept {
    u8* p;
    std::size_t capacity;
  };
  static void free_huge(u8* p) {
    if (p != nullptr) ::operator delete (p, std::align_val_t{kHugePage});
  }
  std::mutex mutex_;
  std::vector<Kept> kept_;
};
}  // namespace

void FreeBuffer::operator()(u8* p) const {
  if (capacity == 0)
    ::operator delete(p);
  else
    KeptBuffers::instance().give_back(p, capacity);
}

DecodeBuffer allocate_decode_buffer(std::size_t size) {
  // Uninitialised: operator new, not new u8[n]() (nor a vector's resize, which zero-fills).
  if (size < 4 * kHugePage) return DecodeBuffer(static_cast<u8*>(::operator new(size)), FreeBuffer{0});
  const std::size_t rounded = (size + kHugePage - 1) / kHugePage * kHugePage;
  std::size_t capacity = 0;
  if (u8* kept = KeptBuffers::instance().take(rounded, capacity)) return DecodeBuffer(kept, FreeBuffer{capacity});
  auto* p = static_cast<u8*>(::operator new (rounded, std::align_val_t{kHugePage}));
  platform::prefer_huge_pages(p, rounded);  // advice only: without it, ordinary pages
  return DecodeBuffer(p, FreeBuffer{rounded});
}

namespace {

// What decode() does for each block of a compressed data file, planned before anything is allocated: the
// blocks in block_layout() order, each one's stored bytes, whether it is stored plain, its checksum and its
// set's algorithm, every claimed size checked against its compressed bytes.
struct BlockPlan {
  std::vector<BlockAt> layout;
  std::vector<std::span<const u8>> src;
  std::vector<char> plain;
  std::vector<std::optional<u32>> checksum;
  std::vector<Compression> compression;
  ForgeVariant variant;  // the stored form's
  u64 total = 0;         // the decompressed size

  // An error of block k, at its archive offset.
  ForgeError error(std::size_t k, std::string reason) const {
    const BlockAt& b = layout[k];
    return {.offset = b.stored_offset,
            .block = ForgeError::Block{b.set, b.block},
            .reason = std::move(reason),
            .read_as = read_as(variant)};
  }
};

absl::StatusOr<BlockPlan> plan_blocks(const StoredDataFile& stored, u64 stored_offset,
                                      std::span<const std::span<const u8>> runs) {
  BlockPlan plan;
  plan.variant = stored.variant;
  plan.layout = block_layout(stored, stored_offset, runs);
  const BlockSet* sets[] = {stored.first ? &*stored.first : nullptr, stored.second ? &*stored.second : nullptr};
  for (std::size_t k = 0; k < plan.layout.size(); ++k) {
    const BlockAt& b = plan.layout[k];
    const BlockSet& set = *sets[b.set];
    // The stored bytes of the block: viewed in the runs of a skimming read, or its own.
    std::span<const u8> src = !runs.empty()       ? runs[k]
                              : set.max_size != 0 ? std::span<const u8>(set.blocks[b.block].stored.bytes)
                                                  : std::span<const u8>(set.chunks[b.block].stored.bytes);
    bool plain = false;
    std::optional<u32> checksum;
    if (set.max_size != 0) {
      const Block& block = set.blocks[b.block];
      plain = src.size() == block.uncompressed_size;
      checksum = block.checksum;
    } else {
      const Chunk& chunk = set.chunks[b.block];
      plain = chunk.kind == Chunk::kPlain;
      if (!plain) checksum = chunk.checksum;
    }
    if (!plain && b.decoded_size > codec::max_decompressed_size(src.size()))
      return plan
          .error(k,
                 absl::StrFormat("%d compressed bytes cannot decompress to the %d claimed", src.size(), b.decoded_size))
          .status();
    plan.src.push_back(src);
    plan.plain.push_back(plain);
    plan.checksum.push_back(checksum);
    plan.compression.push_back(compression_of(set.compression).value_or(Compression::lzo1x));
    plan.total += b.decoded_size;
  }
  return plan;
}

// Block k's decompressed bytes (at its place in `out`) against its checksum by the archive's rule.
absl::Status check_block(const BlockPlan& plan, std::size_t k, const u8* out, const ChecksumVerdict& checksums) {
  const BlockAt& b = plan.layout[k];
  const std::optional<u32>& checksum = plan.checksum[k];
  if (!checksum || !checksums.rule) return absl::OkStatus();
  if (codec::checksum_by(*checksums.rule, plan.src[k], {out + b.decoded_offset, b.decoded_size}) == *checksum)
    return absl::OkStatus();
  ForgeError damaged =
      plan.error(k, absl::StrFormat("damaged: its checksum 0x%08x does not match its bytes", *checksum));
  damaged.code = absl::StatusCode::kDataLoss;
  damaged.rule = checksums.describe();
  return damaged.status();
}

// Block k decompressed (or copied, stored plain) into its place in `out`, then checked.
absl::Status decode_block(const BlockPlan& plan, std::size_t k, u8* out, const ChecksumVerdict& checksums) {
  const BlockAt& b = plan.layout[k];
  std::span<u8> dest(out + b.decoded_offset, b.decoded_size);
  const std::span<const u8> src = plan.src[k];
  if (plan.plain[k]) {
    if (!src.empty()) std::memcpy(dest.data(), src.data(), src.size());
  } else if (auto s = codec::decompress_into(codec::algorithm_of(plan.compression[k]), src, dest); !s.ok()) {
    return plan.error(k, std::string(s.message())).status();
  }
  return check_block(plan, k, out, checksums);
}

// Whether block k of `x` and of `y` lie at the same place and are stored the same way, in as many stored
// bytes (whether those are the same bytes is the caller's question).
bool same_block_place(const BlockPlan& x, const BlockPlan& y, std::size_t k) {
  const BlockAt &a = x.layout[k], &b = y.layout[k];
  return a.decoded_offset == b.decoded_offset && a.decoded_size == b.decoded_size && x.plain[k] == y.plain[k] &&
         x.compression[k] == y.compression[k] && x.src[k].size() == y.src[k].size();
}

std::size_t checked_blocks(const BlockPlan& plan) {
  return static_cast<std::size_t>(std::count_if(plan.checksum.begin(), plan.checksum.end(),
                                                [](const std::optional<u32>& c) { return c.has_value(); }));
}

}  // namespace

absl::StatusOr<Decoded> decode(const StoredDataFile& stored, u64 stored_offset, const ChecksumVerdict& checksums,
                               std::span<const std::span<const u8>> runs) {
  Decoded out;
  out.compression = compression_of(stored);
  if (!stored.compressed) {
    out.bytes = runs.empty() ? std::span<const u8>(stored.plain.bytes) : runs.back();
    return out;
  }
  auto plan = plan_blocks(stored, stored_offset, runs);
  if (!plan.ok()) return plan.status();
  // Every byte is written by a block below (each decompresses to exactly its size): no zero fill.
  out.owned = allocate_decode_buffer(plan->total);
  out.bytes = {out.owned.get(), static_cast<std::size_t>(plan->total)};
  for (std::size_t k = 0; k < plan->layout.size(); ++k)
    if (auto s = decode_block(*plan, k, out.owned.get(), checksums); !s.ok()) return s;
  out.checked_blocks = checked_blocks(*plan);
  return out;
}

bool decodes_alike(const StoredDataFile& x, std::span<const std::span<const u8>> runs_x, const StoredDataFile& y,
                   std::span<const std::span<const u8>> runs_y) {
  if (x.compressed != y.compressed) return false;
  if (!x.compressed) {
    const std::span<const u8> a = runs_x.empty() ? std::span<const u8>(x.plain.bytes) : runs_x.back();
    const std::span<const u8> b = runs_y.empty() ? std::span<const u8>(y.plain.bytes) : runs_y.back();
    return a.data() == b.data() && a.size() == b.size();
  }
  auto px = plan_blocks(x, 0, runs_x), py = plan_blocks(y, 0, runs_y);
  if (!px.ok() || !py.ok() || px->layout.size() != py->layout.size()) return false;
  for (std::size_t k = 0; k < px->layout.size(); ++k)
    if (!same_block_place(*px, *py, k) || px->src[k].data() != py->src[k].data())
      return false;  // the same stored bytes
  return true;
}

std::array<absl::StatusOr<Decoded>, 2> decode_together(const StoredSide& a, const StoredSide& b) {
  if (!a.stored.compressed || !b.stored.compressed) return {decode(a), decode(b)};
  auto plan_a = plan_blocks(a.stored, a.stored_offset, a.runs), plan_b = plan_blocks(b.stored, b.stored_offset, b.runs);
  if (!plan_a.ok() || !plan_b.ok()) return {decode(a), decode(b)};
  const BlockPlan &pa = *plan_a, &pb = *plan_b;
  std::array<Decoded, 2> out;
  for (int side = 0; side < 2; ++side) {
    const BlockPlan& plan = side == 0 ? pa : pb;
    out[side].compression = compression_of(side == 0 ? a.stored : b.stored);
    out[side].owned = allocate_decode_buffer(plan.total);
    out[side].bytes = {out[side].owned.get(), static_cast<std::size_t>(plan.total)};
    out[side].checked_blocks = checked_blocks(plan);
  }
  // B's block k is A's when it lies at the same place, is stored the same way and holds the same stored bytes:
  // it decompresses to the same bytes, which are copied (a data file and its edited copy share all but a few).
  auto shared = [&](std::size_t k) {
    return k < pa.layout.size() && same_block_place(pa, pb, k) &&
           std::memcmp(pa.src[k].data(), pb.src[k].data(), pa.src[k].size()) == 0;
  };
  // Two halves by decompressed offset, one per thread: a shared block and its copy fall in the same half. Each
  // half keeps the first error of each side in block order, the lower half's first.
  const u64 split = pa.total / 2;
  std::array<std::array<absl::Status, 2>, 2> failed;  // [half][side]
  auto run = [&](int half) {
    auto mine = [&](const BlockAt& at) { return (at.decoded_offset < split) == (half == 0); };
    for (std::size_t k = 0; k < pa.layout.size(); ++k)
      if (mine(pa.layout[k]) && failed[half][0].ok())
        failed[half][0] = decode_block(pa, k, out[0].owned.get(), a.checksums);
    for (std::size_t k = 0; k < pb.layout.size(); ++k) {
      if (!mine(pb.layout[k]) || !failed[half][1].ok()) continue;
      if (shared(k) && failed[half][0].ok()) {
        const BlockAt& at = pb.layout[k];
        std::memcpy(out[1].owned.get() + at.decoded_offset, out[0].owned.get() + at.decoded_offset, at.decoded_size);
        failed[half][1] = check_block(pb, k, out[1].owned.get(), b.checksums);
      } else {
        failed[half][1] = decode_block(pb, k, out[1].owned.get(), b.checksums);
      }
    }
  };
  on_two_threads([&] { run(1); }, [&] { run(0); });
  std::array<absl::StatusOr<Decoded>, 2> result = {absl::UnknownError(""), absl::UnknownError("")};
  for (int side = 0; side < 2; ++side) {
    const absl::Status& first = !failed[0][side].ok() ? failed[0][side] : failed[1][side];
    if (first.ok())
      result[side] = std::move(out[side]);
    else
      result[side] = first;
  }
  return result;
}

}  // namespace anvil::forge
