#include "model/forge/archive.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>

namespace anvil::forge {

std::string_view data_file_name(const DataFileAt& file) {
  const auto& b = file.name.name.bytes;
  auto end = std::find(b.begin(), b.end(), u8{0});
  return {reinterpret_cast<const char*>(b.data()), static_cast<std::size_t>(end - b.begin())};
}

std::string printable_name(std::string_view name) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '\\') {
      out += c;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

std::optional<Compression> compression_of(u8 id) {
  switch (id) {
    case 0:
    case 1:
      return Compression::lzo1x;
    case 2:
      return Compression::lzo2a;
    case 5:
      return Compression::lzo1c;
    default:
      return std::nullopt;
  }
}

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::plain:
      return "plain";
    case Compression::lzo1x:
      return "lzo1x";
    case Compression::lzo2a:
      return "lzo2a";
    case Compression::lzo1c:
      return "lzo1c";
  }
  return "?";
}

std::string_view checksum_rule_name(ChecksumRule rule) {
  switch (rule) {
    case ChecksumRule::adler32_0_stored:
      return "adler32-0/stored";
    case ChecksumRule::adler32_1_stored:
      return "adler32-1/stored";
    case ChecksumRule::adler32_0_decoded:
      return "adler32-0/decompressed";
    case ChecksumRule::adler32_1_decoded:
      return "adler32-1/decompressed";
  }
  return "?";
}

std::size_t candidate_index(ChecksumRule rule) {
  for (std::size_t i = 0; i < kCandidates; ++i)
    if (kChecksumRules[i] == rule) return i;
  return 0;
}

void ChecksumVote::count(ChecksumRules rules) {
  ++blocks;
  for (std::size_t i = 0; i < kCandidates; ++i) matched[i] += (rules & static_cast<u8>(kChecksumRules[i])) != 0;
}

ChecksumVote& ChecksumVote::operator+=(const ChecksumVote& other) {
  for (std::size_t i = 0; i < kCandidates; ++i) matched[i] += other.matched[i];
  blocks += other.blocks;
  decoded = decoded || other.decoded;
  return *this;
}

ChecksumVerdict judge(const ChecksumVote& vote) {
  ChecksumVerdict out;
  out.blocks = vote.blocks;
  const std::size_t counted = vote.decoded ? kCandidates : 2;
  for (std::size_t i = 0; i < counted; ++i)
    if (vote.matched[i] > out.matched) {  // strictly more: a tie keeps the earlier candidate
      out.matched = vote.matched[i];
      out.best = kChecksumRules[i];
    }
  // More than half: 2 * matched > blocks, without overflow (matched <= blocks).
  if (out.best && out.matched > vote.blocks - out.matched) out.rule = out.best;
  return out;
}

std::string ChecksumVerdict::name() const {
  if (blocks == 0) return "n/a";
  return rule ? std::string(checksum_rule_name(*rule)) : "none";
}

std::string ChecksumVerdict::describe() const {
  if (blocks == 0) return "n/a";
  if (rule) return absl::StrFormat("%s (%d of %d blocks)", checksum_rule_name(*rule), matched, blocks);
  if (!best) return absl::StrFormat("none (no candidate matches any of %d blocks)", blocks);
  return absl::StrFormat("none (the best candidate, %s, matches %d of %d blocks)", checksum_rule_name(*best), matched,
                         blocks);
}

}  // namespace anvil::forge
