#include "pipeline/forge_extract.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/strings/ascii.h>
#include <absl/strings/numbers.h>
#include <absl/strings/str_format.h>

#include <filesystem>

#include "reader/forge/data_files.hpp"
#include "writer/atomic_file.hpp"

namespace anvil::forge {

absl::StatusOr<std::vector<std::size_t>> select_data_files(const Archive& archive,
                                                           std::span<const std::string> selectors) {
  std::vector<bool> chosen(archive.files.size(), selectors.empty());
  for (const std::string& sel : selectors) {
    std::optional<u32> id;
    u32 parsed = 0;
    if (sel.size() > 2 && sel.size() <= 10 && (sel[0] == '0') && (sel[1] == 'x' || sel[1] == 'X') &&
        absl::SimpleHexAtoi(sel.substr(2), &parsed))
      id = parsed;
    bool any = false;
    for (std::size_t i = 0; i < archive.files.size(); ++i) {
      const DataFileAt& f = archive.files[i];
      if (data_file_name(f) == sel || (id && f.index.file_id.value == *id)) {
        chosen[i] = true;
        any = true;
      }
    }
    if (!any) return absl::NotFoundError("no data file is named or has the id '" + sel + "'");
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < chosen.size(); ++i)
    if (chosen[i]) out.push_back(i);
  return out;
}

std::string safe_file_name(std::string_view name) {
  std::string out;
  for (char c : name.substr(0, 200))
    out += absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ? c : '_';
  if (!out.empty() && out[0] == '.') out[0] = '_';
  if (out.empty()) out = "datafile";
  // CON, PRN, AUX, NUL, COM1-9, LPT1-9 (with any extension) are devices on Windows.
  std::string stem = absl::AsciiStrToUpper(out.substr(0, out.find('.')));
  static const char* const kReserved[] = {"CON", "PRN", "AUX", "NUL"};
  bool reserved =
      std::find(std::begin(kReserved), std::end(kReserved), stem) != std::end(kReserved) ||
      (stem.size() == 4 && (stem.starts_with("COM") || stem.starts_with("LPT")) && stem[3] >= '1' && stem[3] <= '9');
  if (reserved) out.insert(stem.size(), "_");
  return out;
}

std::vector<std::string> extract_names(const Archive& archive, std::span<const std::size_t> selected) {
  // How many selected data files share each name (case ignored: some file systems ignore it).
  absl::flat_hash_map<std::string, std::size_t> uses;
  for (std::size_t i : selected) ++uses[absl::AsciiStrToLower(safe_file_name(data_file_name(archive.files[i])))];
  std::vector<std::string> names;
  absl::flat_hash_set<std::string> taken;
  for (std::size_t i : selected) {
    const DataFileAt& f = archive.files[i];
    std::string base = safe_file_name(data_file_name(f));
    std::string name = base + ".data";
    if (uses[absl::AsciiStrToLower(base)] > 1) name = absl::StrFormat("%s-0x%08x.data", base, f.index.file_id.value);
    if (!taken.insert(absl::AsciiStrToLower(name)).second)
      name = absl::StrFormat("%s-0x%08x-%d.data", base, f.index.file_id.value, i);
    taken.insert(absl::AsciiStrToLower(name));
    names.push_back(std::move(name));
  }
  return names;
}

absl::StatusOr<std::vector<Extracted>> extract(std::span<const u8> bytes, const Archive& archive,
                                               std::span<const std::size_t> selected, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InternalError(dir + ": " + ec.message());
  std::vector<std::string> names = extract_names(archive, selected);
  std::vector<Extracted> out;
  const ChecksumVerdict checksums = archive_checksums(bytes, archive).verdict;
  for (std::size_t k = 0; k < selected.size(); ++k) {
    auto read = read_data_file(bytes, archive, selected[k], checksums);
    if (!read.ok()) return read.status();
    std::string path = (std::filesystem::path(dir) / names[k]).string();
    if (auto s = write_file_atomically(path, read->decoded.bytes); !s.ok()) return s;
    out.push_back({selected[k], path, read->decoded.bytes.size()});
  }
  return out;
}

}  // namespace anvil::forge
