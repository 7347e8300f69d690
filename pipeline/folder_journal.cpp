#include "pipeline/folder_journal.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_split.h>

#include <cstdlib>
#include <filesystem>

#include "pipeline/folder_transaction.hpp"
#include "platform/self_kill.hpp"

namespace anvil::folder::journal {

namespace fs = std::filesystem;

namespace {

constexpr const char* kHeader = "anvilrt-journal 1";

std::string join(const std::string& dir, const std::string& relative) { return (fs::path(dir) / relative).string(); }

// A step number from the environment (0: none).
long step_from(const char* variable) {
  const char* text = std::getenv(variable);
  long n = 0;
  if (text == nullptr || !absl::SimpleAtoi(text, &n) || n < 1) return 0;
  return n;
}

}  // namespace

std::string journal_path(const std::string& dir) { return join(dir, std::string(kStateFolder) + "/journal"); }
std::string journal_draft_path(const std::string& dir) { return join(dir, std::string(kStateFolder) + "/journal.new"); }
std::string lock_path(const std::string& dir) { return join(dir, std::string(kStateFolder) + "/lock"); }

std::string temp_path(const std::string& dir, const std::string& relative) {
  fs::path target(relative);
  return (fs::path(dir) / target.parent_path() / ("." + target.filename().string() + kTempSuffix)).string();
}

std::string parent_of(const std::string& dir, const std::string& relative) {
  fs::path parent = fs::path(dir) / fs::path(relative).parent_path();
  return parent.string();
}

std::string format(const Journal& j) {
  std::string text = absl::StrCat(kHeader, "\nintent ", j.intent, "\n");
  for (const Entry& e : j.entries) absl::StrAppend(&text, e.removal ? "remove " : "rename ", e.relative, "\n");
  if (j.done) text += "done\n";
  return text;
}

absl::StatusOr<Journal> parse(const std::string& text, const std::string& path) {
  auto refuse = [&](std::size_t line, const std::string& why) {
    return absl::DataLossError(absl::StrCat(
        path, ": line ", line, ": ", why, " (not a journal anvilrt wrote; move it away to leave the folder as it is)"));
  };
  Journal j;
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  // Written as a whole and renamed into place: the last line always ends with a newline.
  if (lines.empty() || lines.back() != "") return refuse(lines.size(), "the journal does not end with a newline");
  lines.pop_back();
  if (lines.empty() || lines[0] != kHeader) return refuse(1, "the first line is not \"anvilrt-journal 1\"");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (j.done) return refuse(i + 1, "a line after \"done\"");
    if (line == "done") {
      j.done = true;
    } else if (line.rfind("intent ", 0) == 0 && i == 1) {
      j.intent = line.substr(7);
    } else if (line.rfind("rename ", 0) == 0 || line.rfind("remove ", 0) == 0) {
      Entry e{line.substr(7), line[2] == 'm'};
      fs::path p(e.relative);
      if (e.relative.empty() || p.is_absolute()) return refuse(i + 1, "an entry names no file in the folder");
      for (const fs::path& part : p)
        if (part == "..") return refuse(i + 1, "an entry names a file outside the folder");
      j.entries.push_back(std::move(e));
    } else {
      return refuse(i + 1, "an unknown entry");
    }
  }
  return j;
}

absl::Status step(const std::string& path) {
  static const long crash_at = step_from("ANVILRT_CRASH_AT_STEP");
  static const long fail_at = step_from("ANVILRT_FAIL_AT_STEP");
  static long count = 0;
  ++count;
  if (count == crash_at) platform::kill_self();
  if (count == fail_at)
    return absl::ResourceExhaustedError(absl::StrCat(path, ": cannot write: No space left on device"));
  return absl::OkStatus();
}

}  // namespace anvil::folder::journal
