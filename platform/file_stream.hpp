// What the C library's FILE streams lack for output: an open by a UTF-8 path on every system, a seek past
// 2 GiB, a sync to the disk, and an anonymous read-write file. POSIX: fopen, fseeko, fsync, fdatasync,
// memfd_create; Windows: _wfopen of the UTF-16 path, _fseeki64, FlushFileBuffers, a delete-on-close file in
// the temporary folder.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace anvil::platform {

// Opens the file `path` (UTF-8, whatever the system's code page) as std::fopen does with `mode` ("wb",
// "ab"); null on failure (errno set). Std::fopen itself reads a path in the ANSI code page on Windows.
std::FILE* open_file(const std::string& path, const char* mode);
// Moves `stream`'s position to `offset` from its start; false on failure (errno set).
bool seek(std::FILE* stream, std::uint64_t offset);
// Writes `stream`'s file to the disk (flushed first by the caller): its bytes, and on POSIX its metadata.
bool sync(std::FILE* stream);
// Starts or does the write-back of `stream`'s bytes (a data sync; may block while the disk's queue is
// full, so a caller may run it on a thread of its own). Nothing is reported: a final sync() meets any
// failure again.
void sync_data(std::FILE* stream);
// A new anonymous file open for reading and writing ("w+b"), in memory where the system can (a memfd),
// gone when closed; null on failure (errno set).
std::FILE* anonymous_file();

}  // namespace anvil::platform
