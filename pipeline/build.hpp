// `build`: the bytes of a level file from its `--full` dump, every object re-encoded from its
// (possibly edited) fields. The result is re-read to prove it carves into the same objects.
#pragma once

#include <absl/status/statusor.h>
#include <rapidjson/document.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/object.hpp"

namespace anvil {

// Where build encoded an object into the output.
struct Placed {
  std::size_t offset;
  std::size_t length;
  std::size_t kind;  // its Object alternative
};

struct Built {
  Game game;
  std::vector<u8> bytes;
  std::vector<Placed> placed;  // in file order
};

// The dump read in one pass straight from its text, when it is laid out as `dump --full` prints it:
// "format", "game", "size", "objects", "spans" in that order, and each object as JsonTextReader takes
// it. Objects are encoded into the output as they come: no document is held in memory. Nothing when
// the text departs from that layout or fails any check: build_from_dump then reads it as one
// document, which decides and names the error. What it accepts the document path accepts too, to the
// same bytes (the fast path; the document path is the reference: tests/build_in_order_test.cpp and
// the fuzz invariants compare them). The result is not yet re-read (build_from_dump does that).
// `passed`, when given, is told now and then how far into the text the reading has come (so that a
// mapped dump's pages can leave memory behind it).
using TextPassed = std::function<void(std::size_t offset)>;
std::optional<Built> build_in_order(std::string_view json_text, const TextPassed& passed = {});

// Errors name the JSON pointer of what failed: "/objects/0x…/instance/slots/0/is_fake: must be …".
absl::StatusOr<std::vector<u8>> build_from_dump(const rapidjson::Value& document);
// build_in_order when it takes the text, else build_from_dump_document.
absl::StatusOr<std::vector<u8>> build_from_dump(std::string_view json_text, const TextPassed& passed = {});
// The text parsed as one RapidJSON document (any member order), then built from it.
absl::StatusOr<std::vector<u8>> build_from_dump_document(std::string_view json_text);

}  // namespace anvil
