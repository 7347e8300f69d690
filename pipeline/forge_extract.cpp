#include "pipeline/forge_extract.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include "model/forge/forge_error.hpp"
#include "pipeline/forge_list.hpp"
#include "platform/staged_folder.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil::forge {

absl::StatusOr<std::vector<std::size_t>> select_data_files(const Archive& archive,
                                                           std::span<const std::string> selectors) {
  std::vector<bool> chosen(archive.files.size(), selectors.empty());
  std::vector<std::string> names = data_file_names(archive);
  for (const std::string& sel : selectors) {
    std::vector<std::size_t> found = find_data_files(archive, names, sel);
    if (found.empty())
      return absl::NotFoundError("no data file is named or has the id '" + printable_name(sel) + "' (see anvilrt ls)");
    for (std::size_t i : found) chosen[i] = true;
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < chosen.size(); ++i)
    if (chosen[i]) out.push_back(i);
  return out;
}

std::vector<std::string> extract_names(const Archive& archive, std::span<const std::size_t> selected) {
  std::vector<std::string> names = data_file_names(archive), out;
  for (std::size_t i : selected) out.push_back(file_name_of(names[i], i) + ".data");
  return out;
}

absl::StatusOr<ExtractOutcome> extract(std::span<const u8> bytes, const Archive& archive,
                                       std::span<const std::size_t> selected, const std::string& dir,
                                       const ExtractOptions& options) {
  std::vector<std::string> names = extract_names(archive, selected);
  auto folder = platform::StagedFolder::open(dir);
  if (!folder.ok()) return folder.status();
  // Every name is checked before any data file is read: a refusal writes nothing.
  for (const std::string& name : names)
    if (auto s = folder->check(name, options.no_clobber); !s.ok()) return s;
  if (options.write_list)
    if (auto s = folder->check(std::string(kListFile), options.no_clobber); !s.ok()) return s;
  ExtractOutcome out;
  const ChecksumVerdict& checksums = checksum_rule(bytes, archive).verdict;
  ForgeList list = list_head(archive, checksums);
  const std::vector<std::string> unique = data_file_names(archive);
  for (std::size_t k = 0; k < selected.size(); ++k) {
    auto read = read_data_file(bytes, archive, selected[k], checksums);
    if (!read.ok()) {
      if (!options.keep_going)
        return absl::Status(read.status().code(),
                            absl::StrCat(with_archive(read.status(), options.archive_path).message(),
                                         " (nothing is written; --keep-going writes the data files that read)"));
      out.failed.push_back(std::string(with_archive(read.status(), options.archive_path).message()));
      continue;
    }
    if (auto s = folder->stage(names[k], read->decoded.bytes); !s.ok()) return s;
    out.written.push_back({selected[k], folder->path(names[k]), read->decoded.bytes.size()});
    if (options.write_list)
      list.datafiles.push_back(listed_data_file(archive, selected[k], unique[selected[k]], read->stored, read->runs,
                                                read->decoded.bytes.size()));
  }
  if (out.written.empty()) return out;  // the folder is left as it was (the staging folder goes with it)
  if (options.write_list) {
    // Written with the data files, so that the list always describes the files beside it.
    list.complete = out.written.size() == archive.files.size();
    const std::string text = list_json(list);
    const std::string name(kListFile);
    if (auto s = folder->stage(name, std::span(reinterpret_cast<const u8*>(text.data()), text.size())); !s.ok())
      return s;
    out.list_path = folder->path(name);
  }
  if (auto s = folder->commit(options.no_clobber); !s.ok()) return s;
  return out;
}

}  // namespace anvil::forge
