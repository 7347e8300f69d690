#include "pipeline/folder_transaction.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include "pipeline/folder_journal.hpp"
#include "platform/durable_file.hpp"
#include "platform/file_stream.hpp"

namespace anvil::folder {

namespace fs = std::filesystem;

namespace {

std::chrono::milliseconds lock_wait() {
  const char* text = std::getenv("ANVILRT_LOCK_WAIT_MS");
  long ms = 0;
  if (text != nullptr && absl::SimpleAtoi(text, &ms) && ms >= 0) return std::chrono::milliseconds(ms);
  return std::chrono::seconds(10);
}

// A name staged must be a file of DIR (or under DIR/.anvilrt/), said as a relative path that stays inside.
absl::Status check_relative(const std::string& dir, const std::string& relative) {
  fs::path p(relative);
  bool ok = !relative.empty() && !p.is_absolute() && relative.find('\n') == std::string::npos && p.has_filename() &&
            p.filename() != "." && p.filename() != "..";
  for (const fs::path& part : p) ok = ok && part != "..";
  if (p.has_parent_path()) ok = ok && *p.begin() == kStateFolder;
  if (!ok)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: \"%s\" is not a file of the folder (nor under %s/)", dir, relative, kStateFolder));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<platform::FileLock> lock_folder(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return absl::NotFoundError(absl::StrCat(dir, fs::exists(dir, ec) ? ": not a folder" : ": no such folder"));
  fs::create_directory(fs::path(dir) / kStateFolder, ec);
  if (ec) return absl::InternalError(absl::StrCat(dir, ": cannot make ", kStateFolder, "/: ", ec.message()));
  const std::chrono::milliseconds wait = lock_wait();
  auto lock = platform::FileLock::acquire(journal::lock_path(dir), wait);
  if (lock.ok()) return lock;
  if (absl::IsDeadlineExceeded(lock.status()))
    return absl::UnavailableError(absl::StrFormat(
        "%s: another anvilrt process is changing this folder (its lock %s was held for %d ms): try again when "
        "it is done",
        dir, journal::lock_path(dir), wait.count()));
  return absl::Status(lock.status().code(), absl::StrCat(journal::lock_path(dir), ": ", lock.status().message()));
}

absl::StatusOr<FolderTransaction> FolderTransaction::begin(const std::string& dir, platform::FileLock lock,
                                                           std::string intent) {
  if (!lock.held())
    return absl::FailedPreconditionError(
        absl::StrCat(dir, ": a transaction begins in a folder opened for a change, under its lock"));
  for (char& c : intent)
    if (c == '\n' || c == '\r') c = ' ';
  return FolderTransaction(dir, std::move(intent), std::move(lock));
}

FolderTransaction& FolderTransaction::operator=(FolderTransaction&& other) noexcept {
  if (this != &other) {
    discard();
    dir_ = std::move(other.dir_);
    intent_ = std::move(other.intent_);
    lock_ = std::move(other.lock_);
    staged_ = std::move(other.staged_);
    finished_ = other.finished_;
    other.staged_.clear();
    other.finished_ = true;
  }
  return *this;
}

FolderTransaction::~FolderTransaction() { discard(); }

std::string FolderTransaction::path(const std::string& relative) const { return (fs::path(dir_) / relative).string(); }

std::vector<std::string> FolderTransaction::staged() const {
  std::vector<std::string> names;
  for (const Staged& s : staged_) names.push_back(s.relative);
  return names;
}

void FolderTransaction::discard() {
  if (finished_) return;
  for (const Staged& s : staged_)
    if (!s.removal) (void)platform::remove_file(journal::temp_path(dir_, s.relative));
  (void)platform::remove_file(journal::journal_draft_path(dir_));
  staged_.clear();
  finished_ = true;
}

absl::Status FolderTransaction::check_target(const std::string& relative) const {
  if (finished_) return absl::FailedPreconditionError(absl::StrCat(dir_, ": the transaction is over"));
  if (auto s = check_relative(dir_, relative); !s.ok()) return s;
  for (const Staged& s : staged_)
    if (s.relative == relative)
      return absl::InvalidArgumentError(absl::StrFormat("%s: staged twice in one transaction", path(relative)));
  std::error_code ec;
  if (fs::is_directory(path(relative), ec))
    return absl::InvalidArgumentError(absl::StrCat(path(relative), ": is a folder"));
  if (!platform::writable(path(relative)))
    return absl::PermissionDeniedError(
        absl::StrCat(path(relative), ": read-only: the folder is left as it was (make it writable to change it)"));
  return absl::OkStatus();
}

absl::Status FolderTransaction::stage(const std::string& relative, std::span<const u8> bytes) {
  return stage_with(relative, [&](std::FILE* file, const std::string& temp) {
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
      return absl::InternalError(absl::StrCat(temp, ": cannot write: ", std::strerror(errno)));
    return absl::OkStatus();
  });
}

absl::Status FolderTransaction::stage_with(const std::string& relative, const Writer& write) {
  if (auto s = check_target(relative); !s.ok()) return s;
  const std::string target = path(relative);
  const std::string temp = journal::temp_path(dir_, relative);
  std::error_code ec;
  fs::create_directories(journal::parent_of(dir_, relative), ec);
  if (auto s = journal::step(target); !s.ok()) return s;
  // Registered before it exists, so that any failure from here on removes it.
  staged_.push_back({relative, false});
  std::FILE* file = platform::open_file(temp, "wb");
  if (file == nullptr) return absl::InternalError(absl::StrCat(temp, ": cannot create: ", std::strerror(errno)));
  absl::Status written = write(file, temp);
  if (written.ok()) written = journal::step(target);
  if (written.ok()) written = platform::sync_file(file, target);
  if (std::fclose(file) != 0 && written.ok())
    written = absl::InternalError(absl::StrCat(target, ": cannot write: ", std::strerror(errno)));
  if (!written.ok()) return written;
  // The new file keeps the mode of the one it replaces.
  if (fs::exists(target, ec)) fs::permissions(temp, fs::status(target, ec).permissions(), ec);
  return absl::OkStatus();
}

absl::Status FolderTransaction::stage_removal(const std::string& relative) {
  if (auto s = check_target(relative); !s.ok()) return s;
  staged_.push_back({relative, true});
  return absl::OkStatus();
}

absl::Status FolderTransaction::write_journal() {
  journal::Journal j;
  j.intent = intent_;
  std::set<std::string> folders;
  for (const Staged& s : staged_) {
    j.entries.push_back({s.relative, s.removal});
    if (s.removal) continue;
    // The temporary's folder, and each folder above it up to DIR (stage_with may have made them).
    for (fs::path folder = journal::parent_of(dir_, s.relative);; folder = folder.parent_path()) {
      folders.insert(folder.string());
      if (folder == fs::path(dir_) || !folder.has_parent_path() || folder.parent_path() == folder) break;
    }
  }
  // The temporaries' names reach the disk before the journal that names them.
  for (const std::string& folder : folders) {
    if (auto s = journal::step(folder); !s.ok()) return s;
    if (auto s = platform::sync_folder(folder); !s.ok()) return s;
  }
  const std::string draft = journal::journal_draft_path(dir_), final_path = journal::journal_path(dir_);
  if (auto s = journal::step(draft); !s.ok()) return s;
  std::FILE* file = platform::open_file(draft, "wb");
  if (file == nullptr) return absl::InternalError(absl::StrCat(draft, ": cannot create: ", std::strerror(errno)));
  const std::string text = journal::format(j);
  absl::Status written = std::fwrite(text.data(), 1, text.size(), file) == text.size()
                             ? absl::OkStatus()
                             : absl::InternalError(absl::StrCat(draft, ": cannot write: ", std::strerror(errno)));
  if (written.ok()) written = journal::step(draft);
  if (written.ok()) written = platform::sync_file(file, draft);
  std::fclose(file);
  if (!written.ok()) return written;
  if (auto s = journal::step(final_path); !s.ok()) return s;
  return platform::rename_over(draft, final_path);
}

absl::Status FolderTransaction::commit() {
  if (auto s = write_journal(); !s.ok()) {
    discard();
    return s;
  }
  // From here on the transaction has happened: what is left is carried out now or by the next opening.
  finished_ = true;
  journal::Journal j;
  j.intent = intent_;
  for (const Staged& s : staged_) j.entries.push_back({s.relative, s.removal});
  staged_.clear();
  const std::string state = (fs::path(dir_) / kStateFolder).string();
  absl::Status s = journal::step(state);
  if (s.ok()) s = platform::sync_folder(state);
  if (s.ok()) s = journal::roll_forward(dir_, j, true, nullptr);
  if (!s.ok())
    return absl::Status(s.code(), absl::StrCat(s.message(), " (the change is journaled: the next anvilrt command on ",
                                               dir_, " finishes it)"));
  return absl::OkStatus();
}

}  // namespace anvil::folder
