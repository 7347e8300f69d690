// The head of a level document (model/document.hpp): "format", "game" and "size", read and checked in one
// place, from a parsed document (with the error build reports) or straight from text laid out as dump
// prints it (JsonTextReader: the fast path, which leaves any departure to the other).
#pragma once

#include <absl/status/statusor.h>
#include <rapidjson/document.h>

#include "model/document.hpp"
#include "model/object.hpp"
#include "reader/json_text_reader.hpp"

namespace anvil {

struct DocumentHead {
  Game game = Game::ac2;
  u64 size = 0;
};

// The head of `document`, which must be a JSON object; the first failure otherwise, naming its JSON
// pointer: "/format: must be \"anvilrt/1\" (found \"x\")", "/game: ...", "/size: ...".
absl::StatusOr<DocumentHead> read_document_head(const rapidjson::Value& document);

// The head from the reader's position in the open document object, when its first members are "format",
// "game" and "size" in that order and valid; false otherwise (the caller stops the reader).
bool read_document_head(JsonTextReader& r, DocumentHead& head);

}  // namespace anvil
