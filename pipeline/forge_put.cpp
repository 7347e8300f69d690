#include "pipeline/forge_put.hpp"

#include <absl/strings/match.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <filesystem>

#include "model/counted.hpp"
#include "model/forge/forge_error.hpp"
#include "pipeline/forge_list.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "platform/paths.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {
namespace {

// Accepts everything and keeps nothing: a dry run's rewrite, for what it would do.
class NullSink : public ByteSink {
 public:
  absl::Status write_at(u64, std::span<const u8>) override { return absl::OkStatus(); }
  absl::Status write_original(std::span<const u8>) override { return absl::OkStatus(); }
};

std::string file_stem(const std::string& path) {
  std::string base = platform::utf8_of(platform::path_of(path).filename());
  if (absl::EndsWith(base, ".data")) base.resize(base.size() - 5);
  return base;
}

// A file's bytes, as a data file unless `raw`: its entry table must parse to its end (FORGE.md 3).
absl::StatusOr<std::vector<u8>> read_put_file(const std::string& path, bool raw, ForgeVariant variant,
                                              std::optional<DataFileView>* view = nullptr) {
  auto file = InputFile::open(path);
  if (!file.ok()) return file.status();
  std::vector<u8> bytes(file->bytes().begin(), file->bytes().end());
  if (raw) return bytes;
  auto parsed = view_data_file(bytes, variant);
  if (!parsed.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a data file (", parsed.status().message(), "); --raw stores it as it is"));
  if (view) *view = std::move(*parsed);
  return bytes;
}

std::string blocks_text(const RepackReport& r) {
  if (r.blocks == 0) return "stored plain";
  return absl::StrFormat("%d of %s re-compressed", r.recompressed, counted(r.blocks, "block"));
}

std::string place_text(const Placement& p) {
  return p.moved ? absl::StrFormat("moved to the end, 0x%x", p.header_offset) : "in place";
}

}  // namespace

namespace {

// One put, in its steps: the removals, what each FILE replaces, the additions, the write, the report.
class PutRun {
 public:
  PutRun(const InputFile& input, const PutRequest& request, const Archive& archive)
      : input_(input),
        request_(request),
        archive_(archive),
        path_(input.path()),
        names_(data_file_names(archive)),
        removed_(archive.files.size(), false) {}

  absl::Status remove();
  absl::Status replace();
  absl::Status add();
  absl::Status write(const std::optional<std::string>& target, const platform::OutputOptions& options);
  PutOutcome outcome() &&;

 private:
  // What a FILE replaces: the data file its name (or --as) names.
  struct Put {
    std::size_t index;
    std::vector<u8> bytes;
    u64 old_size = 0;
    bool unchanged = false;
  };
  absl::StatusOr<Put> replacement(const std::string& path);
  absl::StatusOr<DataFileAddition> addition(const PutRequest::Add& add);

  const InputFile& input_;
  const PutRequest& request_;
  const Archive& archive_;
  const std::string& path_;
  const std::vector<std::string> names_;
  std::vector<bool> removed_;
  ArchiveEdit edit_;
  std::vector<Put> puts_;
  std::vector<std::string> skipped_;
  EditReport report_;
  bool changed_ = false;
};

absl::Status PutRun::remove() {
  for (const std::string& selector : request_.removed) {
    std::vector<std::size_t> found = find_data_files(archive_, names_, selector);
    if (found.empty())
      return absl::InvalidArgumentError(
          absl::StrFormat("--remove %s: %s has no data file of that name or id", selector, path_));
    for (std::size_t i : found)
      if (!removed_[i]) {
        removed_[i] = true;
        edit_.removed.push_back(i);
      }
  }
  return absl::OkStatus();
}

// The data file `path` replaces (exactly one, each once), read, and compared with what the archive holds.
absl::StatusOr<PutRun::Put> PutRun::replacement(const std::string& path) {
  const std::string selector = request_.as ? *request_.as : file_stem(path);
  if (!request_.as && !absl::EndsWith(path, ".data"))
    return absl::InvalidArgumentError(
        path + ": not named NAME.data as extract names a data file; give --as NAME|0xID to say which it replaces");
  std::vector<std::size_t> found = find_data_files(archive_, names_, selector);
  if (found.empty())
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s has no data file named '%s'", path, path_, selector));
  if (found.size() > 1)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: '%s' names %d data files of %s; give --as with a name as ls shows it", path, selector,
                        found.size(), path_));
  const std::size_t i = found[0];
  if (removed_[i])
    return absl::InvalidArgumentError(absl::StrFormat("%s: data file '%s' is also removed", path, names_[i]));
  if (std::any_of(puts_.begin(), puts_.end(), [&](const Put& p) { return p.index == i; }))
    return absl::InvalidArgumentError(absl::StrFormat("%s: data file '%s' is given twice", path, names_[i]));
  auto file = read_put_file(path, request_.raw, archive_.variant());
  if (!file.ok()) return file.status();
  Put p{i, std::move(*file)};
  // Compared with what the archive holds, unchecked: a data file that does not decompress is left to the
  // rewrite, which says why it cannot be replaced.
  auto held = read_data_file(input_.bytes(), archive_, i, ChecksumVerdict{});
  if (held.ok()) {
    p.old_size = held->decoded.bytes.size();
    p.unchanged = std::ranges::equal(held->decoded.bytes, p.bytes);
  }
  // Its stored bytes were read through the mapping: they leave this process's memory (the rewrite reads
  // them again only when the data file changed).
  input_.release(archive_.files[i].stored_offset(), archive_.files[i].index.size);
  return p;
}

absl::Status PutRun::replace() {
  for (const std::string& path : request_.files) {
    // The list `extract` writes beside the data files (`put A.forge DIR/*` names it too): not a data file.
    if (!request_.as && platform::path_of(path).filename() == kListFile) {
      skipped_.push_back(path);
      continue;
    }
    auto p = replacement(path);
    if (!p.ok()) return p.status();
    puts_.push_back(std::move(*p));
  }
  // In the archive's order, as `patch` writes them: the data files that move land at the end in that order,
  // whatever the order of the FILEs.
  std::sort(puts_.begin(), puts_.end(), [](const Put& a, const Put& b) { return a.index < b.index; });
  for (Put& p : puts_)
    if (!p.unchanged) edit_.changes.push_back({p.index, std::move(p.bytes)});
  return absl::OkStatus();
}

absl::StatusOr<DataFileAddition> PutRun::addition(const PutRequest::Add& add) {
  std::optional<DataFileView> view;
  auto file = read_put_file(add.path, request_.raw, archive_.variant(), &view);
  if (!file.ok()) return file.status();
  const Entry* first = view && !view->file.entries.empty() ? &view->file.entries.front() : nullptr;
  DataFileAddition a;
  a.name = add.name ? *add.name : first ? std::string(view->name(0).begin(), view->name(0).end()) : file_stem(add.path);
  a.name = a.name.substr(0, a.name.find('\0'));
  if (a.name.empty() || a.name.size() > kDataFileNameSize)
    return absl::InvalidArgumentError(absl::StrFormat("--add %s: the name '%s' must have 1 to %d bytes (give --name)",
                                                      add.path, printable_name(a.name), kDataFileNameSize));
  if (!add.file_id && !first)
    return absl::InvalidArgumentError(
        absl::StrFormat("--add %s: it has no entry to take an id from; give --id 0xID", add.path));
  if (!add.file_type && !first)
    return absl::InvalidArgumentError(
        absl::StrFormat("--add %s: it has no entry to take a type from; give --type N", add.path));
  a.file_id = add.file_id ? *add.file_id : first->file_id.value;
  a.file_type = add.file_type ? *add.file_type : first->resource_type;
  // A name another data file has, ASCII case ignored (as data_file_names() tells names apart), would be
  // listed under another unique name than the one given.
  for (std::size_t i = 0; i < archive_.files.size(); ++i)
    if (!removed_[i] && absl::EqualsIgnoreCase(std::string(data_file_name(archive_.files[i])), a.name))
      return absl::InvalidArgumentError(absl::StrFormat(
          "--add %s: %s already has a data file named '%s' (put replaces it)", add.path, path_, names_[i]));
  for (const DataFileAddition& other : edit_.added)
    if (absl::EqualsIgnoreCase(other.name, a.name))
      return absl::InvalidArgumentError(
          absl::StrFormat("--add %s: a data file named '%s' is added twice", add.path, printable_name(a.name)));
  a.decoded = std::move(*file);
  return a;
}

absl::Status PutRun::add() {
  for (const PutRequest::Add& add : request_.added) {
    auto a = addition(add);
    if (!a.ok()) return a.status();
    edit_.added.push_back(std::move(*a));
  }
  return absl::OkStatus();
}

absl::Status PutRun::write(const std::optional<std::string>& target, const platform::OutputOptions& options) {
  changed_ = !edit_.changes.empty() || !edit_.removed.empty() || !edit_.added.empty();
  if (!target) {
    NullSink sink;
    auto r = rewrite(input_.bytes(), edit_, sink, &input_, nullptr, archive_.variant().layout);
    if (!r.ok()) return with_archive(r.status(), path_);
    report_ = std::move(*r);
  } else if (changed_ || !options.in_place) {
    // Nothing changed and -o OUT: the archive is written as it is (the edit path's round trip), checked.
    auto r = rewrite_file(input_.bytes(), edit_, *target, options, &input_, nullptr, archive_.variant().layout);
    if (!r.ok()) return r.status();
    report_ = std::move(*r);
  }
  return absl::OkStatus();
}

PutOutcome PutRun::outcome() && {
  PutOutcome outcome;
  for (const std::string& path : skipped_)
    outcome.lines.push_back(path + ": skipped (the list extract writes, which pack reads; not a data file)");
  outcome.changed = changed_;
  std::size_t k = 0;
  for (const Put& p : puts_) {
    if (p.unchanged) {
      outcome.lines.push_back(absl::StrFormat("%s: unchanged", names_[p.index]));
      continue;
    }
    const ChangeReport& c = report_.changes.at(k);
    const std::vector<u8>& now = edit_.changes.at(k).decoded;
    ++k;
    outcome.lines.push_back(absl::StrFormat("%s: replaced (decompressed %d -> %d bytes, stored %d -> %d bytes, %s, %s)",
                                            names_[p.index], p.old_size, now.size(), archive_.files[p.index].index.size,
                                            c.placement.stored_size, blocks_text(c.blocks), place_text(c.placement)));
  }
  for (std::size_t i : edit_.removed)
    outcome.lines.push_back(absl::StrFormat("%s: removed (its %d stored bytes left unreferenced; compact drops them)",
                                            names_[i], archive_.files[i].index.size));
  for (std::size_t a = 0; a < edit_.added.size(); ++a) {
    const ChangeReport& c = report_.added.at(a);
    const DataFileAddition& added = edit_.added[a];
    outcome.lines.push_back(absl::StrFormat(
        "%s: added (%s, type 0x%08x, decompressed %d bytes, stored %d bytes, %s, at 0x%x)", printable_name(added.name),
        format_id(added.file_id, archive_.variant()), added.file_type, added.decoded.size(), c.placement.stored_size,
        blocks_text(c.blocks), c.placement.header_offset));
  }
  if (report_.index_table_moved || report_.name_table_moved)
    outcome.lines.push_back(absl::StrFormat("the last table section's %s moved to the end of the archive",
                                            report_.index_table_moved && report_.name_table_moved
                                                ? "index and name tables"
                                            : report_.index_table_moved ? "index table"
                                                                        : "name table"));
  return outcome;
}

}  // namespace

absl::StatusOr<PutOutcome> put(const InputFile& input, const PutRequest& request,
                               const std::optional<std::string>& target, const platform::OutputOptions& options) {
  auto archive = read_archive(input.bytes(), &input);
  if (!archive.ok()) return with_archive(archive.status(), input.path());
  if (request.as && request.files.size() != 1)
    return absl::InvalidArgumentError(absl::StrFormat("--as names the data file of one FILE, and %s are given",
                                                      counted(request.files.size(), "file")));
  PutRun run(input, request, *archive);
  if (auto s = run.remove(); !s.ok()) return s;
  if (auto s = run.replace(); !s.ok()) return s;
  if (auto s = run.add(); !s.ok()) return s;
  if (auto s = run.write(target, options); !s.ok()) return s;
  return std::move(run).outcome();
}

}  // namespace anvil::forge
