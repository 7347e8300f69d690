// Random bytes from the system's cryptographic source (a secret such as the editor's access token:
// serve/), never from a seeded generator.
#pragma once

#include <absl/status/statusor.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace anvil::platform {

// `count` bytes from the system's source of secrets; an error (one line) when it cannot give them.
absl::StatusOr<std::vector<std::uint8_t>> secure_random_bytes(std::size_t count);

}  // namespace anvil::platform
