#include "platform/file_stamp.hpp"

#include <absl/strings/str_cat.h>
#include <windows.h>

#include "platform/windows/system.hpp"

namespace anvil::platform {

absl::StatusOr<FileStamp> file_stamp(const std::string& path) {
  WIN32_FILE_ATTRIBUTE_DATA data{};
  if (!::GetFileAttributesExW(windows::wide(path).c_str(), GetFileExInfoStandard, &data))
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", windows::last_error_status().message()));
  const std::uint64_t ticks =
      (static_cast<std::uint64_t>(data.ftLastWriteTime.dwHighDateTime) << 32) | data.ftLastWriteTime.dwLowDateTime;
  // FILETIME counts 100 ns from 1601-01-01; 11,644,473,600 s lie between that and 1970-01-01.
  constexpr std::int64_t kTicksTo1970 = 116444736000000000;
  return FileStamp{(static_cast<std::uint64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow,
                   (static_cast<std::int64_t>(ticks) - kTicksTo1970) * 100};
}

}  // namespace anvil::platform
