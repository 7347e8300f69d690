#include "pipeline/ls_run.hpp"

#include <algorithm>
#include <optional>

#include "model/parallel.hpp"
#include "pipeline/game_folder.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil::forge {

ArchivePaths archive_paths(const std::vector<std::string>& named) {
  ArchivePaths out;
  for (const std::string& path : named) {
    if (!folder::is_folder(path)) {
      out.paths.push_back(path);
      continue;
    }
    auto opened = folder::open_game_folder(path);
    if (!opened.ok()) {
      out.said.emplace_back(opened.status().message());
      out.folders_failed = true;
      continue;
    }
    if (!opened->recovered.empty()) out.said.push_back(opened->recovered);
    for (std::size_t i = 0; i < opened->archives.size(); ++i) out.paths.push_back(opened->path(i));
  }
  return out;
}

const ArchiveChecksums& list_data_files(const InputFile& input, const Archive& archive, const ListOptions& options,
                                        const std::function<void(std::size_t index, ListedSummary& summary)>& each) {
  const unsigned threads = std::min(thread_budget(), 1024u);
  // The vote reads every stored byte, on all the command's threads. Without `objects` the tables are read
  // in the same pass, right after each data file votes, and its pages are dropped then; the vote is then
  // the archive's (resolve_checksums), as the resolver would have made it.
  const bool tables_while_voting = !options.objects && archive.checksums() == nullptr;
  std::vector<std::optional<ListedSummary>> tables(tables_while_voting ? archive.files.size() : 0);
  if (tables_while_voting)
    resolve_checksums(archive, archive_checksums_then(
                                   input.bytes(), archive,
                                   [&](std::size_t i) {
                                     tables[i] = summarize_tables(input.bytes(), archive, i);
                                     input.release(archive.files[i].index.offset,
                                                   archive.files[i].end() - archive.files[i].index.offset);
                                   },
                                   threads));
  const ArchiveChecksums& checksums = checksum_rule(input.bytes(), archive, {}, threads);
  auto summarize_one = [&](std::size_t i) -> ListedSummary {
    if (options.objects) return summarize(input.bytes(), archive, i, true, options.game, checksums);
    if (!tables_while_voting) return summarize(input.bytes(), archive, i, false, options.game, checksums);
    if (!tables[i]->ok()) return tables[i]->status();
    return judged(std::move(**tables[i]), input.bytes(), archive, checksums);
  };
  for_each_index_in_order<ListedSummary>(archive.files.size(), threads, summarize_one, each);
  return checksums;
}

}  // namespace anvil::forge
