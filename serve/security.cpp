// The editor's door (serve/security.hpp).
#include "serve/security.hpp"

#include <absl/strings/escaping.h>
#include <absl/strings/str_cat.h>

#include <stdexcept>

#include "platform/random.hpp"

namespace anvil::serve {
namespace {

// Equal, in a time that does not depend on where they first differ.
bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::optional<std::string> refusal(const Door& door, const Knock& knock) {
  const std::string local = absl::StrCat("127.0.0.1:", door.port), named = absl::StrCat("localhost:", door.port);
  if (knock.host != local && knock.host != named)
    return absl::StrCat("forbidden: the Host header must be ", local, " or ", named);
  if (knock.origin && *knock.origin != "http://" + local && *knock.origin != "http://" + named)
    return "forbidden: a request from another origin";
  if (knock.page_file || (!knock.header_token.empty() && same_secret(knock.header_token, door.token)))
    return std::nullopt;
  return "forbidden: the token is missing or wrong (open the URL anvilrt serve printed)";
}

std::string new_token() {
  auto bytes = platform::secure_random_bytes(16);
  if (!bytes.ok()) throw std::runtime_error(std::string(bytes.status().message()));
  return absl::BytesToHexString(std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
}

}  // namespace anvil::serve
