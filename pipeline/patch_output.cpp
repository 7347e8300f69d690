#include "pipeline/patch_output.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "model/counted.hpp"
#include "pipeline/read_back.hpp"
#include "platform/file_stream.hpp"
#include "platform/replace_file.hpp"

namespace anvil::patch {

namespace {

// Unedited bytes go out in chunks of this size, each released once written.
constexpr std::size_t kChunk = std::size_t{8} << 20;

absl::Status write_error(const std::string& name) {
  return absl::InternalError(absl::StrCat(name, ": cannot write: ", std::strerror(errno)));
}

}  // namespace

std::optional<std::string> check_written(const Level& original, const PatchResult& result, std::span<const u8> written,
                                         const ReleaseFn& release_original, const ReleaseFn& release_written) {
  if (written.size() != original.bytes.size())
    return absl::StrFormat("the output has %s, not %d", counted(written.size(), "byte"), original.bytes.size());
  if (result.edited.size() != result.edited_objects.size())
    return "the patch result lists edited pieces and patched objects that do not pair up";
  // An edit may turn an object into one of another class of the same size, as `build` allows.
  std::vector<ExpectedObject> changed;
  changed.reserve(result.edited.size());
  for (std::size_t i = 0; i < result.edited.size(); ++i) {
    if (result.edited[i] >= original.pieces.size() || (i > 0 && result.edited[i] <= result.edited[i - 1]))
      return "the patch result's edited pieces are not ascending indices of this level's pieces";
    changed.push_back({result.edited[i], &result.edited_objects[i]});
  }
  ExpectedLevel expected = expect_unchanged(original);
  expected.changed = changed;
  auto failure = read_back(written, expected, {release_original, release_written});
  if (!failure) return std::nullopt;
  return failure->after_patch_message();
}

absl::Status stream_patched(const Level& level, const PatchResult& result, std::FILE* out, const std::string& name,
                            const ReleaseFn& release_input) {
  if (result.overlays.size() != result.edited.size())
    return absl::InternalError(absl::StrCat(name, ": the patch result has ", result.overlays.size(), " overlays for ",
                                            result.edited.size(), " edited objects"));
  const std::span<const u8> bytes = level.bytes;
  std::size_t pos = 0;
  // The original bytes [pos, end), then released.
  auto copy_to = [&](std::size_t end) -> absl::Status {
    while (pos < end) {
      std::size_t n = std::min(kChunk, end - pos);
      if (std::fwrite(bytes.data() + pos, 1, n, out) != n) return write_error(name);
      if (release_input) release_input(pos, n);
      pos += n;
    }
    return absl::OkStatus();
  };
  for (std::size_t i = 0; i < result.edited.size(); ++i) {
    if (result.edited[i] >= level.pieces.size())
      return absl::InternalError(absl::StrCat(name, ": an edited piece index is out of range"));
    const Piece& p = level.pieces[result.edited[i]];
    const std::vector<u8>& overlay = result.overlays[i];
    if (p.offset < pos || overlay.size() != p.length)
      return absl::InternalError(absl::StrCat(name, ": the overlay of the object at offset ", p.offset,
                                              " does not fit its piece (", overlay.size(), " bytes for ", p.length,
                                              ", or out of order)"));
    if (auto s = copy_to(p.offset); !s.ok()) return s;
    if (!overlay.empty() && std::fwrite(overlay.data(), 1, overlay.size(), out) != overlay.size())
      return write_error(name);
    pos += overlay.size();
  }
  if (auto s = copy_to(bytes.size()); !s.ok()) return s;
  if (std::fflush(out) != 0) return write_error(name);
  return absl::OkStatus();
}

absl::Status write_patched(const Level& level, const PatchResult& result, const std::string& target,
                           const InputFile* input, const platform::OutputOptions& options, const ProgressFn& progress) {
  ReleaseFn release_input;
  if (input != nullptr && input->bytes().data() == level.bytes.data() && input->bytes().size() == level.bytes.size())
    release_input = [input](std::size_t offset, std::size_t length) { input->release(offset, length); };
  // Progress: the write is the first pass over the file, the check (which re-reads and compares) the
  // second; the check's releases restart at 0 for its compare, so the furthest point counts.
  const std::size_t size = level.bytes.size();
  std::size_t checked = 0;
  ReleaseFn release_streamed = release_input;
  if (progress)
    release_streamed = [&](std::size_t offset, std::size_t length) {
      if (release_input) release_input(offset, length);
      progress(offset + length, 2 * size);
    };
  platform::AtomicFile output;
  if (auto s = output.open(target, options); !s.ok()) return s;
  // Where the output is streamed and read back from: the temporary that replaces the target, or, for a
  // target that is not a regular file (standard output, a pipe, a device: nothing written there can be
  // read back), an anonymous file in memory (platform::anonymous_file) that holds the bytes until they are checked and
  // then copied to the target. There, what is proven is the same of the bytes handed to the target;
  // what a pipe's reader or a device does with them is beyond any check. It costs one file size of
  // memory.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> memory(nullptr, &std::fclose);
  std::FILE* staging = output.stream();
  if (!output.to_temporary()) {
    memory.reset(platform::anonymous_file());
    if (memory == nullptr) return write_error(target);
    staging = memory.get();
  }
  if (auto s = stream_patched(level, result, staging, target, release_streamed); !s.ok()) return s;
  {
    // Read the output back from the file system (the file the stream wrote, opened again) and prove it is
    // the patched model before it replaces the target or goes out.
    auto written = InputFile::reopen(staging, target);
    if (!written.ok())
      return absl::InternalError(absl::StrCat(target, ": cannot read the output back: ", written.status().message()));
    const InputFile& file = *written;
    ReleaseFn release_written = [&](std::size_t offset, std::size_t length) {
      file.release(offset, length);
      checked = std::max(checked, offset + length);
      if (progress) progress(size + checked, 2 * size);
    };
    if (auto mismatch = check_written(level, result, file.bytes(), release_input, release_written))
      return absl::DataLossError(
          absl::StrCat(target, ": the written output does not read back as the patched model: ", *mismatch));
    if (memory != nullptr) {
      std::span<const u8> bytes = file.bytes();
      for (std::size_t pos = 0; pos < bytes.size(); pos += kChunk) {
        std::size_t n = std::min(kChunk, bytes.size() - pos);
        if (std::fwrite(bytes.data() + pos, 1, n, output.stream()) != n) return write_error(target);
        file.release(pos, n);
      }
    }
  }
  if (progress) progress(2 * size, 2 * size);
  return output.commit();
}

}  // namespace anvil::patch
