#include "codec/lzo.hpp"

#include <absl/strings/str_format.h>
#include <lzo/lzo1c.h>
#include <lzo/lzo1x.h>
#include <lzo/lzo2a.h>
#include <lzo/lzoconf.h>

#include <algorithm>
#include <stdexcept>

#include "model/parallel.hpp"

namespace anvil::codec {
namespace {

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (lzo_init() != LZO_E_OK) throw std::runtime_error("liblzo2: lzo_init failed");
  });
}

}  // namespace

std::string_view algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::lzo1x:
      return "lzo1x";
    case Algorithm::lzo2a:
      return "lzo2a";
    case Algorithm::lzo1c:
      return "lzo1c";
  }
  return "?";
}

std::size_t max_decompressed_size(std::size_t compressed_size) { return compressed_size * 256 + 256; }

absl::StatusOr<std::vector<std::uint8_t>> decompress(Algorithm algorithm, std::span<const std::uint8_t> in,
                                                     std::size_t out_size) {
  if (out_size > max_decompressed_size(in.size()))
    return absl::InvalidArgumentError(absl::StrFormat("%d compressed bytes cannot decompress to %d (at most %d)",
                                                      in.size(), out_size, max_decompressed_size(in.size())));
  std::vector<std::uint8_t> out(out_size);
  if (auto s = decompress_into(algorithm, in, out); !s.ok()) return s;
  return out;
}

absl::Status decompress_into(Algorithm algorithm, std::span<const std::uint8_t> in, std::span<std::uint8_t> out) {
  init_once();
  const std::size_t out_size = out.size();
  lzo_uint got = out_size;
  int rc = LZO_E_ERROR;
  switch (algorithm) {
    case Algorithm::lzo1x:
      rc = lzo1x_decompress_safe(in.data(), in.size(), out.data(), &got, nullptr);
      break;
    case Algorithm::lzo2a:
      rc = lzo2a_decompress_safe(in.data(), in.size(), out.data(), &got, nullptr);
      break;
    case Algorithm::lzo1c:
      rc = lzo1c_decompress_safe(in.data(), in.size(), out.data(), &got, nullptr);
      break;
  }
  if (rc == LZO_E_OUTPUT_OVERRUN)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s data decompresses to more than its stated %d bytes", algorithm_name(algorithm), out_size));
  if (rc != LZO_E_OK)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s data does not decompress (liblzo2 error %d)", algorithm_name(algorithm), rc));
  if (got != out_size)
    return absl::InvalidArgumentError(absl::StrFormat("%s data decompresses to %d bytes, not its stated %d",
                                                      algorithm_name(algorithm), got, out_size));
  return absl::OkStatus();
}

std::vector<std::uint8_t> compress(Algorithm algorithm, std::span<const std::uint8_t> in) {
  init_once();
  // liblzo2's worst case for incompressible input is in + in/16 + 64 + 3 (LZO1X); the others stay within
  // the same bound, and in/8 + 128 leaves room to spare.
  std::vector<std::uint8_t> out(in.size() + in.size() / 8 + 128);
  lzo_uint size = out.size();
  int rc = LZO_E_ERROR;
  switch (algorithm) {
    case Algorithm::lzo1x: {
      std::vector<std::uint8_t> work(LZO1X_999_MEM_COMPRESS);
      rc = lzo1x_999_compress(in.data(), in.size(), out.data(), &size, work.data());
      break;
    }
    case Algorithm::lzo2a: {
      std::vector<std::uint8_t> work(LZO2A_999_MEM_COMPRESS);
      rc = lzo2a_999_compress(in.data(), in.size(), out.data(), &size, work.data());
      break;
    }
    case Algorithm::lzo1c: {
      std::vector<std::uint8_t> work(LZO1C_999_MEM_COMPRESS);
      rc = lzo1c_999_compress(in.data(), in.size(), out.data(), &size, work.data());
      break;
    }
  }
  // The compressors fail only when out of memory, which the vectors above would have thrown for.
  if (rc != LZO_E_OK) throw std::runtime_error(absl::StrFormat("liblzo2: compress failed (%d)", rc));
  out.resize(size);
  return out;
}

std::vector<std::vector<std::uint8_t>> compress_all(Algorithm algorithm,
                                                    std::span<const std::span<const std::uint8_t>> parts,
                                                    unsigned threads) {
  std::vector<std::vector<std::uint8_t>> out(parts.size());
  if (threads == 0) threads = thread_budget();
  // compress() throws only when out of memory: rethrown on the calling thread.
  for_each_index(parts.size(), threads, [&](std::size_t i) { out[i] = compress(algorithm, parts[i]); });
  return out;
}

}  // namespace anvil::codec
