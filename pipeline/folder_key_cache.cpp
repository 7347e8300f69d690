#include "pipeline/folder_key_cache.hpp"

#include <absl/hash/hash.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "codec/checksums.hpp"
#include "pipeline/folder_transaction.hpp"
#include "platform/replace_file.hpp"

namespace anvil::folder {
namespace {

namespace fs = std::filesystem;

// The file: the magic (its last character the format's version), the number of checksum candidates
// (forge::kCandidates: a vote of another number is not this one), the entry count, then each entry: the
// dialect (u8), the stored size (u64), CRC-32 and Adler-32 (u32 each), flags (u8: 1 ids, 2 vote), the vote
// (its blocks, then the blocks each candidate matches: u64 each), the id count (u32) and the ids (u64
// each), all little-endian.
constexpr char kMagic[8] = {'a', 'n', 'v', 'k', 'e', 'y', 's', '2'};
constexpr std::size_t kVoteSize = 8 * (1 + forge::kCandidates);
constexpr std::size_t kEntryHead = 1 + 8 + 4 + 4 + 1 + kVoteSize + 4;
constexpr u8 kHasIds = 1, kHasVote = 2;

std::string cache_path(const std::string& dir) { return (fs::path(dir) / kStateFolder / "keys.cache").string(); }

template <class T>
T load_le(const u8* p) {
  T v;
  std::memcpy(&v, p, sizeof v);  // the targets (x86-64) are little-endian, as the file is
  return v;
}
template <class T>
void store_le(std::vector<u8>& out, T v) {
  const auto* p = reinterpret_cast<const u8*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

}  // namespace

DataFilePrint print_of(Game game, const InputFile& file, Extent stored) {
  DataFilePrint print{game, stored.length, 0, 1};
  file.read_in_pieces(stored.offset, stored.length, [&](std::span<const u8> piece) {
    print.crc32 = codec::crc32(print.crc32, piece);
    print.adler32 = codec::adler32(print.adler32, piece);
  });
  return print;
}

std::size_t KeyCache::PrintHash::operator()(const DataFilePrint& p) const {
  return absl::HashOf(static_cast<int>(p.game), p.stored_size, p.crc32, p.adler32);
}

KeyCache KeyCache::load(const std::string& dir) {
  KeyCache cache;
  cache.dir_ = dir;
  std::error_code ec;
  if (!fs::is_regular_file(cache_path(dir), ec)) return cache;
  auto file = InputFile::open(cache_path(dir));
  if (!file.ok()) return cache;
  const std::span<const u8> b = file->bytes();
  // Every count is checked against the bytes left; anything amiss leaves the cache empty.
  if (b.size() < sizeof kMagic + 8 || std::memcmp(b.data(), kMagic, sizeof kMagic) != 0 ||
      load_le<u32>(b.data() + sizeof kMagic) != forge::kCandidates)
    return cache;
  std::size_t at = sizeof kMagic + 4;
  const u32 count = load_le<u32>(b.data() + at);
  at += 4;
  decltype(entries_) entries;
  for (u32 e = 0; e < count; ++e) {
    if (b.size() - at < kEntryHead) return cache;
    DataFilePrint p;
    const u8 game = b[at];
    if (game > static_cast<u8>(Game::sws)) return cache;
    p.game = static_cast<Game>(game);
    p.stored_size = load_le<u64>(b.data() + at + 1);
    p.crc32 = load_le<u32>(b.data() + at + 9);
    p.adler32 = load_le<u32>(b.data() + at + 13);
    const u8 flags = b[at + 17];
    Entry entry;
    if (flags & kHasVote) {
      forge::ChecksumVote& vote = entry.vote.emplace();
      vote.blocks = load_le<u64>(b.data() + at + 18);
      for (std::size_t c = 0; c < forge::kCandidates; ++c) vote.matched[c] = load_le<u64>(b.data() + at + 26 + 8 * c);
    }
    const u32 ids = load_le<u32>(b.data() + at + 18 + kVoteSize);
    at += kEntryHead;
    if ((b.size() - at) / 8 < ids) return cache;
    if (flags & kHasIds) {
      entry.ids.emplace(ids);
      if (ids > 0) std::memcpy(entry.ids->data(), b.data() + at, std::size_t{ids} * 8);  // data() may be null
      if (!std::is_sorted(entry.ids->begin(), entry.ids->end())) return cache;
    }
    at += std::size_t{ids} * 8;
    entries.emplace(p, std::move(entry));
  }
  if (at != b.size()) return cache;
  cache.entries_ = std::move(entries);
  return cache;
}

const std::vector<u64>* KeyCache::find(const DataFilePrint& print) {
  auto it = entries_.find(print);
  if (it == entries_.end()) return nullptr;
  it->second.met = true;
  return it->second.ids ? &*it->second.ids : nullptr;
}

const std::vector<u64>* KeyCache::add(const DataFilePrint& print, std::vector<u64> ids) {
  std::sort(ids.begin(), ids.end());
  Entry& entry = entries_[print];
  entry.ids = std::move(ids);
  entry.met = true;
  changed_ = true;
  return &*entry.ids;
}

const forge::ChecksumVote* KeyCache::find_vote(const DataFilePrint& print) const {
  auto it = entries_.find(print);
  if (it == entries_.end() || !it->second.vote) return nullptr;
  it->second.met = true;
  return &*it->second.vote;
}

void KeyCache::add_vote(const DataFilePrint& print, const forge::ChecksumVote& vote) {
  if (vote.decoded) return;  // only votes over the stored bytes are the data file's own
  Entry& entry = entries_[print];
  entry.vote = vote;
  entry.met = true;
  changed_ = true;
}

absl::Status KeyCache::save() const {
  std::error_code ec;
  if (!changed_ || !fs::is_directory(fs::path(dir_) / kStateFolder, ec)) return absl::OkStatus();
  std::size_t met = 0, other = 0;
  for (const auto& [print, entry] : entries_) (entry.met ? met : other) += entry.ids ? entry.ids->size() + 1 : 1;
  const bool keep_others = other <= met;
  std::vector<u8> out(kMagic, kMagic + sizeof kMagic);
  store_le<u32>(out, static_cast<u32>(forge::kCandidates));
  u32 count = 0;
  const std::size_t count_at = out.size();
  store_le<u32>(out, 0);  // set below
  for (const auto& [print, entry] : entries_) {
    if (!entry.met && !keep_others) continue;
    ++count;
    out.push_back(static_cast<u8>(print.game));
    store_le<u64>(out, print.stored_size);
    store_le<u32>(out, print.crc32);
    store_le<u32>(out, print.adler32);
    out.push_back(static_cast<u8>((entry.ids ? kHasIds : 0) | (entry.vote ? kHasVote : 0)));
    const forge::ChecksumVote vote = entry.vote.value_or(forge::ChecksumVote{});
    store_le<u64>(out, vote.blocks);
    for (std::size_t matched : vote.matched) store_le<u64>(out, matched);
    const std::size_t ids = entry.ids ? entry.ids->size() : 0;
    store_le<u32>(out, static_cast<u32>(ids));
    if (ids > 0) {
      const auto* bytes = reinterpret_cast<const u8*>(entry.ids->data());
      out.insert(out.end(), bytes, bytes + ids * 8);
    }
  }
  std::memcpy(out.data() + count_at, &count, 4);
  return platform::write_file_atomically(cache_path(dir_), out);
}

}  // namespace anvil::folder
