#include "model/forge/archive.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/ascii.h>
#include <absl/strings/numbers.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

namespace anvil::forge {

const TableLayout& TableLayout::of(ForgeVariant variant) {
  static const auto layouts = [] {
    std::array<TableLayout, ForgeVariant::kLast - ForgeVariant::kFirst + 1> out;
    for (u32 version = ForgeVariant::kFirst; version <= ForgeVariant::kLast; ++version) {
      const ForgeVariant v{version};
      TableLayout& t = out[version - ForgeVariant::kFirst];
      t.variant = v;
      t.data_header = wire_size<DataHeader>(v);
      t.section = wire_size<TableSection>(v);
      t.index_entry = wire_size<IndexEntry>(v);
      t.name_entry = wire_size<NameEntry>(v);
      t.file_header = v.file_header() ? wire_size<DataFileHeader>(v) : 0;
      t.first_section_at = field_offset<DataHeader>("first_section", v);
      t.index_table_at = field_offset<TableSection>("index_table", v);
      t.next_at = field_offset<TableSection>("next", v);
      t.name_table_at = field_offset<TableSection>("name_table", v);
    }
    return out;
  }();
  return layouts[ForgeVariant::known(variant.archive) ? variant.archive - ForgeVariant::kFirst : 0];
}

void resolve_layout(Archive& archive, u8 layout) {
  if (archive.layout_) throw std::logic_error("resolve_layout: the archive's layout is resolved already");
  archive.layout_ = layout;
}

void resolve_checksums(const Archive& archive, ArchiveChecksums checksums) {
  archive.checksums_.set(std::move(checksums), "resolve_checksums: the archive's checksum rule is resolved already");
}

const ArchiveChecksums& checksums_or_vote(const Archive& archive, const std::function<ArchiveChecksums()>& vote) {
  return archive.checksums_.get_or_make(vote);
}

ForgeError::DataFile data_file_ref(const Archive& archive, std::size_t index) {
  const DataFileAt& f = archive.files[index];
  return {index, printable_name(data_file_name(f)), format_id(f.index.file_id.value, archive.variant())};
}

std::string data_file_label(const Archive& archive, std::size_t index) {
  return data_file_text(data_file_ref(archive, index));
}

std::string_view data_file_name(const DataFileAt& file) {
  const auto& b = file.name.name.bytes;
  auto end = std::find(b.begin(), b.end(), u8{0});
  return {reinterpret_cast<const char*>(b.data()), static_cast<std::size_t>(end - b.begin())};
}

std::string printable_name(std::span<const u8> name) {
  return printable_name(std::string_view(reinterpret_cast<const char*>(name.data()), name.size()));
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

std::vector<std::string> data_file_names(const Archive& archive) {
  std::vector<std::string> names;
  names.reserve(archive.files.size());
  absl::flat_hash_set<std::string> taken;  // lowercase
  for (std::size_t i = 0; i < archive.files.size(); ++i) {
    std::string name = printable_name(data_file_name(archive.files[i]));
    if (taken.contains(absl::AsciiStrToLower(name)))
      name = absl::StrFormat("%s@%s", name, format_id(archive.files[i].index.file_id.value, archive.variant()));
    if (taken.contains(absl::AsciiStrToLower(name))) name = absl::StrFormat("%s@%d", name, i);
    taken.insert(absl::AsciiStrToLower(name));
    names.push_back(std::move(name));
  }
  return names;
}

namespace {

// The length of the device name `stem` spells (Windows ignores spaces after it: "NUL " is NUL), or 0.
std::size_t reserved_device(std::string_view stem) {
  while (!stem.empty() && stem.back() == ' ') stem.remove_suffix(1);
  std::string upper = absl::AsciiStrToUpper(std::string(stem));
  if (upper == "CON" || upper == "PRN" || upper == "AUX" || upper == "NUL" || upper == "CONIN$" || upper == "CONOUT$")
    return upper.size();
  const bool numbered =
      upper.size() == 4 && (upper.starts_with("COM") || upper.starts_with("LPT")) && upper[3] >= '1' && upper[3] <= '9';
  return numbered ? 4 : 0;
}

}  // namespace

std::string file_name_of(std::string_view unique_name, std::size_t index) {
  if (unique_name.empty()) return "%";
  // The stem before the first '.', whose device name's last letter is spelled out when it is one.
  std::size_t stem = std::min(unique_name.find('.'), unique_name.size());
  std::size_t device = reserved_device(unique_name.substr(0, stem));
  std::size_t device_letter = device > 0 ? device - 1 : std::string_view::npos;
  std::string out;
  for (std::size_t i = 0; i < unique_name.size(); ++i) {
    char c = unique_name[i];
    if (c == '\\' && i + 3 < unique_name.size() && unique_name[i + 1] == 'x') {
      out += '%';
      out.append(unique_name.substr(i + 2, 2));
      i += 3;
      continue;
    }
    bool spell = std::string_view("/\\:*?\"<>|%").find(c) != std::string_view::npos || (i == 0 && c == '.') ||
                 i == device_letter;
    if (spell)
      out += absl::StrFormat("%%%02x", static_cast<unsigned char>(c));
    else
      out += c;
  }
  if (out.size() > 240) {
    std::size_t cut = 200;
    // Not inside a "%NN": a '%' in the last two characters kept starts one.
    if (out[cut - 1] == '%')
      cut -= 1;
    else if (out[cut - 2] == '%')
      cut -= 2;
    out = absl::StrFormat("%s%%-%d", out.substr(0, cut), index);
  }
  return out;
}

std::vector<std::size_t> find_data_files(const Archive& archive, std::span<const std::string> names,
                                         std::string_view selector) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == selector) return {i};
  for (std::size_t i = 0; i < names.size(); ++i)
    if (file_name_of(names[i], i) == selector) return {i};
  std::vector<std::size_t> found;
  u64 id = 0;
  if (selector.size() > 2 && selector.size() <= 2u + archive.variant().id_digits() && selector[0] == '0' &&
      (selector[1] == 'x' || selector[1] == 'X') &&
      std::all_of(selector.begin() + 2, selector.end(), [](char c) { return absl::ascii_isxdigit(c); }) &&
      absl::SimpleHexAtoi(std::string(selector.substr(2)), &id))
    for (std::size_t i = 0; i < archive.files.size(); ++i)
      if (archive.files[i].index.file_id.value == id) found.push_back(i);
  return found;
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
