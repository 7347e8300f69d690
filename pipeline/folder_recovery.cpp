// Finishing or rolling back an interrupted transaction of a game folder (pipeline/folder_transaction.hpp):
// a journal in place is followed to the end; temporaries without one are removed.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "model/counted.hpp"
#include "pipeline/folder_journal.hpp"
#include "pipeline/folder_transaction.hpp"
#include "platform/durable_file.hpp"
#include "platform/file_stream.hpp"
#include "reader/input_file.hpp"

namespace anvil::folder {

namespace fs = std::filesystem;

namespace journal {

namespace {

bool is_temp(const fs::path& p) {
  const std::string name = p.filename().string();
  const std::string suffix = kTempSuffix;
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The temporaries left in DIR (not recursive) and under DIR/.anvilrt (recursive), sorted.
std::vector<fs::path> temporaries(const std::string& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (is_temp(it->path())) found.push_back(it->path());
  const fs::path state = fs::path(dir) / kStateFolder;
  for (fs::recursive_directory_iterator it(state, ec), end; !ec && it != end; it.increment(ec))
    if (is_temp(it->path())) found.push_back(it->path());
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

absl::Status roll_forward(const std::string& dir, const Journal& j, bool count_steps, std::vector<std::string>* done) {
  auto counted = [&](const std::string& path) { return count_steps ? step(path) : absl::OkStatus(); };
  std::set<std::string> folders;
  for (const Entry& e : j.entries) {
    const std::string target = (fs::path(dir) / e.relative).string();
    folders.insert(parent_of(dir, e.relative));
    std::error_code ec;
    if (e.removal) {
      if (!fs::exists(fs::symlink_status(target, ec))) continue;
      if (auto s = counted(target); !s.ok()) return s;
      if (auto s = platform::remove_file(target); !s.ok()) return s;
      if (done) done->push_back(absl::StrFormat("%s: removed %s", dir, e.relative));
      continue;
    }
    const std::string temp = temp_path(dir, e.relative);
    if (!fs::exists(fs::symlink_status(temp, ec))) continue;  // renamed before the interruption
    if (auto s = counted(target); !s.ok()) return s;
    if (auto s = platform::rename_over(temp, target); !s.ok()) return s;
    if (done) done->push_back(absl::StrFormat("%s: put the new %s in place", dir, e.relative));
  }
  for (const std::string& folder : folders) {
    if (auto s = counted(folder); !s.ok()) return s;
    if (auto s = platform::sync_folder(folder); !s.ok()) return s;
  }
  // "done" written last, then the journal goes: a journal marked done is only removed.
  const std::string path = journal_path(dir);
  if (!j.done) {
    if (auto s = counted(path); !s.ok()) return s;
    std::FILE* file = platform::open_file(path, "ab");
    if (file == nullptr) return absl::InternalError(absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
    std::fputs("done\n", file);
    absl::Status synced = platform::sync_file(file, path);
    std::fclose(file);
    if (!synced.ok()) return synced;
  }
  if (auto s = counted(path); !s.ok()) return s;
  if (auto s = platform::remove_file(path); !s.ok()) return s;
  const std::string state = (fs::path(dir) / kStateFolder).string();
  if (auto s = counted(state); !s.ok()) return s;
  return platform::sync_folder(state);
}

absl::Status roll_back(const std::string& dir, std::vector<std::string>* done) {
  std::error_code ec;
  const std::string draft = journal_draft_path(dir);
  if (fs::exists(fs::symlink_status(draft, ec))) {
    if (auto s = platform::remove_file(draft); !s.ok()) return s;
    if (done) done->push_back(absl::StrFormat("%s: removed an unfinished journal", dir));
  }
  for (const fs::path& temp : temporaries(dir)) {
    if (auto s = platform::remove_file(temp.string()); !s.ok()) return s;
    if (done)
      done->push_back(
          absl::StrFormat("%s: removed the unfinished new file %s", dir, fs::relative(temp, dir, ec).string()));
  }
  return absl::OkStatus();
}

}  // namespace journal

namespace {

absl::StatusOr<std::string> read_text(const std::string& path) {
  auto file = InputFile::open(path);  // its error names the path, with the system's reason
  if (!file.ok()) return file.status();
  return std::string(reinterpret_cast<const char*>(file->bytes().data()), file->bytes().size());
}

}  // namespace

absl::StatusOr<std::string> recover_locked(const std::string& dir, const platform::FileLock& held) {
  if (!held.held()) return absl::FailedPreconditionError(absl::StrCat(dir, ": recovery needs the folder's lock"));
  std::error_code ec;
  const std::string path = journal::journal_path(dir);
  std::string line;
  if (fs::exists(fs::symlink_status(path, ec))) {
    auto text = read_text(path);
    if (!text.ok()) return text.status();
    auto j = journal::parse(*text, path);
    if (!j.ok()) return j.status();
    std::vector<std::string> done;
    if (auto s = journal::roll_forward(dir, *j, false, &done); !s.ok()) return s;
    line = absl::StrFormat("%s: finished the interrupted \"%s\" (its journal was in place; %s)", dir, j->intent,
                           done.empty() ? std::string("every file was in place already")
                                        : counted(done.size(), "file") + " put in place or removed");
  }
  // Temporaries without a journal (or left beside a finished one): an unfinished change, removed.
  std::vector<std::string> removed;
  if (auto s = journal::roll_back(dir, &removed); !s.ok()) return s;
  if (line.empty() && !removed.empty())
    line = absl::StrFormat("%s: rolled back an interrupted change (it had not reached its journal; %s removed)", dir,
                           counted(removed.size(), "unfinished file"));
  return line;
}

bool interrupted(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(fs::path(dir) / kStateFolder, ec)) {
    // Temporaries only appear once the state folder exists (begin() makes it first).
    return false;
  }
  if (fs::exists(journal::journal_path(dir), ec) || fs::exists(journal::journal_draft_path(dir), ec)) return true;
  return !journal::temporaries(dir).empty();
}

}  // namespace anvil::folder
