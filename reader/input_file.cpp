#include "reader/input_file.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "platform/memory.hpp"

namespace anvil {

namespace {

// The first read's size; the buffer doubles from there as the input keeps coming.
constexpr std::size_t kFirstRead = std::size_t{64} << 10;

// Reads `file` to its end, or refuses it past InputFile::stream_limit(). Memory grows with the bytes that
// actually arrive, never with a size the input claims.
absl::Status read_all(platform::ReadableFile& file, const std::string& path, std::vector<u8>& out) {
  const std::size_t limit = InputFile::stream_limit();
  std::size_t size = 0;
  out.resize(std::min(kFirstRead, limit + 1));
  for (;;) {
    if (size > limit) {
      out = {};
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": not a regular file, so read into memory, and longer than the limit of ", limit,
          " bytes (ANVILRT_STREAM_LIMIT; by default half of this machine's memory): give a regular file, which "
          "is mapped"));
    }
    // One byte past the limit is enough to know the stream is too long.
    if (size == out.size()) out.resize(std::min(out.size() * 2, limit + 1));
    auto n = file.read(std::span<u8>(out).subspan(size));
    if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": cannot read: ", n.status().message()));
    if (*n == 0) break;
    size += *n;
  }
  out.resize(size);
  out.shrink_to_fit();
  return absl::OkStatus();
}

}  // namespace

std::size_t InputFile::stream_limit() {
  if (const char* text = std::getenv("ANVILRT_STREAM_LIMIT")) {
    std::size_t limit = 0;
    // At most half the address space, so that one byte past the limit is always a size.
    if (absl::SimpleAtoi(text, &limit)) return std::min(limit, std::numeric_limits<std::size_t>::max() / 2);
  }
  const std::size_t memory = platform::physical_memory();
  return memory == 0 ? std::size_t{1} << 31 : memory / 2;
}

absl::StatusOr<InputFile> InputFile::from(platform::ReadableFile file, const std::string& path) {
  InputFile out;
  out.path_ = path;
  using Kind = platform::ReadableFile::Kind;
  if (file.kind() == Kind::kFolder) return absl::InvalidArgumentError(absl::StrCat(path, ": ", std::strerror(EISDIR)));
  if (file.kind() == Kind::kStream) {
    if (auto s = read_all(file, path, out.read_); !s.ok()) return s;
    out.bytes_ = out.read_;
    return out;
  }
  auto mapping = platform::Mapping::map(file);
  if (!mapping.ok()) return absl::InternalError(absl::StrCat(path, ": cannot map: ", mapping.status().message()));
  out.mapping_ = std::move(*mapping);
  out.bytes_ = out.mapping_.bytes();
  out.file_ = std::move(file);
  return out;
}

absl::StatusOr<InputFile> InputFile::open(const std::string& path) {
  if (path == "-") return from(platform::ReadableFile::standard_input(), path);
  auto file = platform::ReadableFile::open(path);
  if (!file.ok()) return absl::NotFoundError(absl::StrCat(path, ": ", file.status().message()));
  return from(std::move(*file), path);
}

absl::StatusOr<InputFile> InputFile::reopen(std::FILE* stream, const std::string& name) {
  auto file = platform::ReadableFile::reopen(stream);
  if (!file.ok()) return absl::NotFoundError(absl::StrCat(name, ": ", file.status().message()));
  return from(std::move(*file), name);
}

std::span<const u8> InputFile::read_at(std::size_t offset, std::size_t length, std::vector<u8>& buffer) const {
  if (offset >= bytes_.size()) return {};
  length = std::min(length, bytes_.size() - offset);
  if (!file_ || mapping_.bytes().empty()) return bytes().subspan(offset, length);
  buffer.resize(length);
  auto n = file_->read_at(offset, buffer);
  // The mapping answers what a read could not.
  if (!n.ok() || *n != length) return bytes().subspan(offset, length);
  return buffer;
}

void InputFile::read_in_pieces(std::size_t offset, std::size_t length,
                               const std::function<void(std::span<const u8>)>& each) const {
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  if (offset >= bytes_.size()) return;
  length = std::min(length, bytes_.size() - offset);
  std::vector<u8> buffer;
  for (std::size_t at = 0; at < length; at += kPiece) each(read_at(offset + at, std::min(kPiece, length - at), buffer));
}

void InputFile::release(std::size_t offset, std::size_t length) const { mapping_.release(offset, length); }

void InputFile::forget_cached() const {
  if (!file_) return;
  mapping_.release(0, bytes_.size());
  file_->forget_cached();
}

}  // namespace anvil
