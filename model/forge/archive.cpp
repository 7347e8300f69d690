#include "model/forge/archive.hpp"

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

std::optional<ChecksumRule> first_rule(ChecksumRules rules) {
  for (ChecksumRule r : kChecksumRules)
    if (rules & static_cast<u8>(r)) return r;
  return std::nullopt;
}

std::string describe_rules(ChecksumRules rules, std::size_t blocks) {
  if (blocks == 0) return "n/a";
  auto rule = first_rule(rules);
  return rule ? std::string(checksum_rule_name(*rule)) : "none";
}

}  // namespace anvil::forge
