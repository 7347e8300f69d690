// `build`: the bytes of a level file from its `--full` dump, every object re-encoded from its
// (possibly edited) fields. The result is re-read to prove it carves into the same objects.
#pragma once

#include <absl/status/statusor.h>
#include <rapidjson/document.h>

#include <string_view>
#include <vector>

#include "model/primitives.hpp"

namespace anvil {

// Errors name the JSON pointer of what failed: "/objects/0x…/instance/slots/0/is_fake: must be …".
absl::StatusOr<std::vector<u8>> build_from_dump(const rapidjson::Value& document);
absl::StatusOr<std::vector<u8>> build_from_dump(std::string_view json_text);

}  // namespace anvil
