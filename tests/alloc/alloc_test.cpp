// The reader allocates at most a small multiple of its input, whatever the counts say (FORMAT.md 2.6):
// every 4-byte position of every carved corpus object is set to 0xFFFFFFFF (and other hostile counts)
// in turn, which hits every counted field (ac2 instances / materials / instance_bounds / LODSelector
// and Impostor instances, sws submeshes / compiled data length / instances), and the peak of live heap
// bytes while carving is measured through a replaced global operator new.
#include <absl/strings/str_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "gen/forge.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"

namespace {

std::atomic<std::size_t> g_live{0};
std::atomic<std::size_t> g_peak{0};
std::atomic<std::size_t> g_largest{0};  // the largest single allocation

constexpr std::size_t kHeader = alignof(std::max_align_t);

void note(std::size_t size) {
  std::size_t live = g_live.fetch_add(size) + size;
  std::size_t peak = g_peak.load();
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
  std::size_t largest = g_largest.load();
  while (size > largest && !g_largest.compare_exchange_weak(largest, size)) {
  }
}

// Each block is malloc's alone (std::aligned_alloc is not in every C runtime: Windows' has none), with room
// for the alignment asked: [padding][malloc's pointer][size][the object, at an `align` boundary].
void* counted_new(std::size_t size, std::size_t align = kHeader) {
  align = std::max(kHeader, align);
  constexpr std::size_t kBookkeeping = sizeof(void*) + sizeof(std::size_t);
  if (size > SIZE_MAX - kBookkeeping - align) throw std::bad_alloc();
  char* raw = static_cast<char*>(std::malloc(size + kBookkeeping + align));
  if (raw == nullptr) throw std::bad_alloc();
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(raw) + kBookkeeping;
  char* object = raw + ((first + align - 1) / align * align - reinterpret_cast<std::uintptr_t>(raw));
  std::memcpy(object - sizeof(std::size_t), &size, sizeof size);
  std::memcpy(object - kBookkeeping, &raw, sizeof raw);
  note(size);
  return object;
}

void counted_delete(void* p, std::size_t = kHeader) noexcept {
  if (p == nullptr) return;
  char* object = static_cast<char*>(p);
  std::size_t size;
  char* raw;
  std::memcpy(&size, object - sizeof(std::size_t), sizeof size);
  std::memcpy(&raw, object - sizeof(std::size_t) - sizeof(void*), sizeof raw);
  g_live.fetch_sub(size);
  std::free(raw);
}

}  // namespace

void* operator new(std::size_t n) { return counted_new(n); }
void* operator new[](std::size_t n) { return counted_new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_new(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_new(n, static_cast<std::size_t>(a)); }
void operator delete(void* p) noexcept { counted_delete(p); }
void operator delete[](void* p) noexcept { counted_delete(p); }
void operator delete(void* p, std::size_t) noexcept { counted_delete(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_delete(p); }
void operator delete(void* p, std::align_val_t a) noexcept { counted_delete(p, static_cast<std::size_t>(a)); }
void operator delete[](void* p, std::align_val_t a) noexcept { counted_delete(p, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::size_t, std::align_val_t a) noexcept {
  counted_delete(p, static_cast<std::size_t>(a));
}
void operator delete[](void* p, std::size_t, std::align_val_t a) noexcept {
  counted_delete(p, static_cast<std::size_t>(a));
}

namespace anvil {
namespace {

// The bound: a small multiple of the input plus a constant (buffers, the carver's state).
constexpr std::size_t kFactor = 8;
constexpr std::size_t kConstant = 64 * 1024;

struct Usage {
  std::size_t peak = 0;     // live heap bytes at most, above what was live before
  std::size_t largest = 0;  // the largest single allocation (printed: the tail index may take 2x the input)
};

// Carves `bytes` in `game` as `dump` and `verify` do (every object parsed once, in turn).
Usage carve_usage(std::span<const u8> bytes, Game game) {
  std::size_t before = g_live.load();
  g_peak = before;
  g_largest = 0;
  {
    Level level = carve_level(bytes, game, [](const Piece&, const Object&) {});
    for (const Piece& piece : level.pieces)
      if (piece.is_object()) (void)parse_piece(level, piece);
    (void)detect_game(bytes);
  }
  return {g_peak.load() - before, g_largest.load()};
}

void expect_bounded(std::span<const u8> bytes, Game game, const std::string& what, bool print = false) {
  Usage usage = carve_usage(bytes, game);
  if (print)
    std::printf("%s (%s): %zu bytes, peak %zu live heap bytes (%.2fx), largest allocation %zu\n", what.c_str(),
                std::string(game_name(game)).c_str(), bytes.size(), usage.peak,
                static_cast<double>(usage.peak) / static_cast<double>(bytes.size()), usage.largest);
  std::size_t bound = kFactor * bytes.size() + kConstant;
  EXPECT_LE(usage.peak, bound) << what << ": " << bytes.size() << " bytes";
}

TEST(AllocationCounter, SeesAllocations) {
  std::size_t before = g_live.load();
  g_peak = before;
  auto* big = new std::vector<u8>(1 << 20);
  EXPECT_GE(g_peak.load() - before, std::size_t{1} << 20);
  delete big;
  EXPECT_EQ(g_live.load(), before);
}

// Every 4-byte position of every carved object of every corpus file, set to each hostile count, with
// and without 64 KiB of zeros after the file (so that a count may also fit in what is left).
TEST(ReaderAllocation, HostileCountsEverywhereInEveryObject) {
  const u32 hostile[] = {0xFFFFFFFFu, 0x04000001u, 0x0000FFFFu, 0x00000400u};
  std::size_t mutations = 0;
  for (const char* folder : {"ac2", "sws"}) {
    Game game = std::string(folder) == "ac2" ? Game::ac2 : Game::sws;
    for (const auto& file : test::corpus_files(folder)) {
      const std::vector<u8> original = test::read_file(file);
      Level level = carve_level(original, game);
      std::vector<Piece> objects;
      for (const Piece& p : level.pieces)
        if (p.is_object()) objects.push_back(p);
      for (std::size_t pad : {std::size_t{0}, std::size_t{64 * 1024}}) {
        std::vector<u8> bytes = original;
        bytes.resize(original.size() + pad, 0);
        for (const Piece& object : objects)
          for (std::size_t at = object.offset; at + 4 <= object.offset + object.length; ++at)
            for (u32 count : hostile) {
              u32 saved;
              std::memcpy(&saved, &bytes[at], 4);
              std::memcpy(&bytes[at], &count, 4);
              expect_bounded(bytes, game, file + " @" + std::to_string(at) + " = " + std::to_string(count));
              std::memcpy(&bytes[at], &saved, 4);
              ++mutations;
              if (::testing::Test::HasFailure()) return;
            }
      }
    }
  }
  EXPECT_GT(mutations, 10000u);
}

// Files made of nothing but objects, or of nothing but class ids (every candidate and every tail
// place indexed): the per-object and per-candidate state stays a small multiple of the input.
TEST(ReaderAllocation, DenseObjectsAndCandidates) {
  struct Dense {
    const char* file;
    std::size_t offset, length;
    Game game;
  };
  for (const Dense& d :
       {Dense{"ac2/visual_no_instance.bin", 0x10, 152, Game::ac2}, Dense{"sws/visual_mesh.bin", 0xb0, 57, Game::sws},
        Dense{"sws/lod_selector.bin", 0x0c, 100, Game::sws}}) {
    auto source = test::read_file(test::corpus(d.file));
    ASSERT_GE(source.size(), d.offset + d.length);
    std::vector<u8> bytes;
    for (int i = 0; i < 4000; ++i) bytes.insert(bytes.end(), &source[d.offset], &source[d.offset + d.length]);
    ASSERT_EQ(carve_level(bytes, d.game).object_count(), 4000u) << d.file;
    expect_bounded(bytes, d.game, std::string("4000 x ") + d.file, true);
  }
  // An ac2 candidate with an unknown instance class first, so that the tail index of the whole file is
  // built, then Visual class ids everywhere: the index holds one place per 4 bytes.
  {
    test::ByteBuilder b;
    b.u64(1).u32(0xEC658D29u).fill(4, 0).u8(0x03).fill(9, 0).u8(0x00).u64(2).u32(0x12345678u).fill(1, 0);
    std::vector<u8> bytes = b.get();
    bytes.resize(256 * 1024);
    for (std::size_t i = b.size(); i + 4 <= bytes.size(); i += 4) std::memcpy(&bytes[i], "\x29\x8d\x65\xec", 4);
    expect_bounded(bytes, Game::ac2, "an unknown instance, then Visual class ids everywhere", true);
  }
  for (u32 id : {0xEC658D29u, 0xBFF5DF99u, 0x51DC6B80u}) {
    std::vector<u8> bytes(256 * 1024);
    for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) std::memcpy(&bytes[i], &id, 4);
    for (Game game : {Game::ac2, Game::sws})
      expect_bounded(bytes, game, absl::StrFormat("class id 0x%08x everywhere", id), true);
  }
}

// Archives (FORGE.md 1, 2): every count, offset and size may be hostile. Reading the tables and every data
// file (stored form, decompression, entry table) allocates at most what honest LZO could expand the
// input to (codec::max_decompressed_size: 256 times) plus a constant, whatever the fields claim: every
// 2- and 4-byte position of a generated archive's tables and stored data files is set to hostile values.
constexpr std::size_t kArchiveFactor = 260;
constexpr std::size_t kArchiveConstant = 1 << 20;

std::size_t read_archive_usage(std::span<const u8> bytes) {
  std::size_t before = g_live.load();
  g_peak = before;
  {
    auto archive = forge::read_archive(bytes);
    if (archive.ok()) {
      const forge::ChecksumVerdict checksums = forge::archive_checksums(bytes, *archive).verdict;
      for (std::size_t i = 0; i < archive->files.size(); ++i) {
        auto read = forge::read_data_file(bytes, *archive, i, checksums);
        if (read.ok()) (void)forge::parse_data_file(read->decoded.bytes);
      }
    }
  }
  return g_peak.load() - before;
}

TEST(ReaderAllocation, HostileArchives) {
  const std::vector<u8> original = gen::generate_forge({Game::ac2, 5, 1, 3, 128});
  auto archive = forge::read_archive(original);
  ASSERT_TRUE(archive.ok());
  const std::size_t bound = kArchiveFactor * original.size() + kArchiveConstant;
  std::vector<u8> bytes = original;
  std::size_t mutations = 0, worst = 0;
  for (std::size_t at = 0; at + 4 <= bytes.size(); ++at) {
    for (u32 value : {0xFFFFFFFFu, 0x7FFFFFFFu, 0x00FFFFFFu, 0x0000FFFFu, 0x00010000u}) {
      for (std::size_t width : {std::size_t{2}, std::size_t{4}}) {
        std::memcpy(&bytes[at], &value, width);
        std::size_t peak = read_archive_usage(bytes);
        worst = std::max(worst, peak);
        EXPECT_LE(peak, bound) << "offset " << at << " = " << value << " (" << width << " bytes)";
        std::memcpy(&bytes[at], &original[at], width);
        ++mutations;
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  std::printf("archive of %zu bytes: %zu mutations, worst peak %zu live heap bytes (%.1fx)\n", original.size(),
              mutations, worst, static_cast<double>(worst) / static_cast<double>(original.size()));
  EXPECT_GT(mutations, 10000u);
}

}  // namespace
}  // namespace anvil
