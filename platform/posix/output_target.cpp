#include "platform/posix/output_target.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>

#include "platform/replace_file.hpp"

namespace anvil::platform {

namespace {

namespace fs = std::filesystem;

// Linux's limit on the links one lookup follows (MAXSYMLINKS).
constexpr int kMaxLinks = 40;

absl::Status fail(const std::string& target, int error) {
  return absl::InvalidArgumentError(absl::StrCat(target, ": ", std::strerror(error)));
}

// The descriptor that `name` in the real folder `folder` stands for when the folder is this process's
// /proc/PID/fd or /proc/PID/task/TID/fd (where /dev/stdout, /dev/fd and /proc/self/fd lead). Such a
// "link" is a handle on an open file, not a path to follow: a pipe's reads "pipe:[…]".
std::optional<int> own_descriptor(std::string_view folder, std::string_view name) {
  // A whole decimal number, or nothing.
  auto number = [](std::string_view text) -> std::optional<int> {
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
  };
  if (!folder.starts_with("/proc/")) return std::nullopt;
  folder.remove_prefix(6);
  std::string_view pid = folder.substr(0, folder.find('/'));
  if (number(pid) != ::getpid()) return std::nullopt;
  folder.remove_prefix(pid.size());
  if (folder.starts_with("/task/")) {
    folder.remove_prefix(6);
    folder.remove_prefix(std::min(folder.find('/'), folder.size()));
  }
  if (folder != "/fd") return std::nullopt;
  return number(name);
}

}  // namespace

absl::StatusOr<OutputTarget> resolve_output(const std::string& target) {
  OutputTarget out;
  if (target == "-") {
    out.kind = OutputTarget::Kind::kDescriptor;
    out.fd = STDOUT_FILENO;
  } else {
    fs::path path = target;
    for (int links = 0;; ++links) {
      if (links > kMaxLinks) return fail(target, ELOOP);
      fs::path name = path.filename();
      if (name.empty() || name == "." || name == "..") return fail(target, EISDIR);
      // The folder with its own links resolved: a link's target is relative to where the link really is.
      std::error_code ec;
      fs::path folder = fs::canonical(path.parent_path().empty() ? fs::path(".") : path.parent_path(), ec);
      if (ec) return fail(target, ec.value());
      if (auto fd = own_descriptor(folder.native(), name.native())) {
        out.kind = OutputTarget::Kind::kDescriptor;
        out.fd = *fd;
        break;
      }
      path = folder / name;
      if (::lstat(path.c_str(), &out.st) != 0) {
        if (errno != ENOENT) return fail(target, errno);
        out.kind = OutputTarget::Kind::kNewFile;  // also the end of a dangling link: it is created
        out.path = path.string();
        return out;
      }
      if (S_ISLNK(out.st.st_mode)) {
        fs::path link = fs::read_symlink(path, ec);
        if (ec) return fail(target, ec.value());
        path = link.is_absolute() ? link : folder / link;
        continue;
      }
      if (S_ISDIR(out.st.st_mode)) return fail(target, EISDIR);
      out.kind = S_ISREG(out.st.st_mode) ? OutputTarget::Kind::kRegularFile : OutputTarget::Kind::kSpecial;
      out.path = path.string();
      return out;
    }
  }
  int flags = ::fcntl(out.fd, F_GETFL);
  if (flags < 0) return fail(target, errno);
  if ((flags & O_ACCMODE) == O_RDONLY)
    return absl::InvalidArgumentError(absl::StrCat(target, ": not open for writing"));
  if (::fstat(out.fd, &out.st) != 0) return fail(target, errno);
  return out;
}

absl::StatusOr<OutputTarget> resolve_name(const std::string& target) {
  OutputTarget out;
  const fs::path path = target;
  const fs::path name = path.filename();
  if (name.empty() || name == "." || name == "..") return fail(target, EISDIR);
  std::error_code ec;
  const fs::path folder = fs::canonical(path.parent_path().empty() ? fs::path(".") : path.parent_path(), ec);
  if (ec) return fail(target, ec.value());
  out.path = (folder / name).string();
  if (::lstat(out.path.c_str(), &out.st) != 0) {
    if (errno != ENOENT) return fail(target, errno);
    return out;
  }
  if (S_ISDIR(out.st.st_mode)) return fail(target, EISDIR);
  if (S_ISREG(out.st.st_mode)) out.kind = OutputTarget::Kind::kRegularFile;
  return out;
}

bool writes_standard_output(const std::string& target) {
  auto out = resolve_output(target);
  if (!out.ok() || out->kind == OutputTarget::Kind::kNewFile) return false;
  struct stat st {};
  return ::fstat(STDOUT_FILENO, &st) == 0 && st.st_dev == out->st.st_dev && st.st_ino == out->st.st_ino;
}

}  // namespace anvil::platform
