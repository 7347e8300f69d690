// The envelope of the JSON document of a level file, a data file or an archive (model/document.hpp),
// written through a JsonWriter: its head, the keys of its members, and its spans. dump and patch write
// it through these, so that its spelling and order are in one place.
#pragma once

#include <absl/strings/escaping.h>

#include <span>
#include <string_view>

#include "model/document.hpp"
#include "model/object.hpp"
#include "model/level.hpp"

namespace anvil {

// A member's key, from model/document.hpp.
template <class Writer>
void write_key(Writer& w, Key member) {
  w.key(document::text(member));
}

// "format" and "game": the head of every document (an archive's "datafiles" follows it).
template <class Writer>
void write_document_head(Writer& w, Game game) {
  write_key(w, document::kFormat);
  w.string(kDocumentFormat);
  write_key(w, document::kGame);
  w.string(game_name(game));
}

// "format", "game" and "size": the head of a level document ("objects" and "spans" follow it).
template <class Writer>
void write_document_head(Writer& w, Game game, std::size_t size) {
  write_document_head(w, game);
  write_key(w, document::kSize);
  w.number(size);
}

// One element of "spans": {"offset", "object": KEY} for an object, {"offset", "opaque": BASE64} for
// opaque bytes. `key()` gives an object's key; `file` is the bytes the pieces lie in.
template <class Writer, class KeyOf>
void write_span(Writer& w, const Piece& piece, std::span<const u8> file, KeyOf&& key) {
  w.start_object();
  write_key(w, document::kOffset);
  w.number(piece.offset);
  if (piece.is_object()) {
    write_key(w, document::kObject);
    w.string(key());
  } else {
    write_key(w, document::kOpaque);
    auto span = file.subspan(piece.offset, piece.length);
    w.string(absl::Base64Escape({reinterpret_cast<const char*>(span.data()), span.size()}));
  }
  w.end_object();
}

}  // namespace anvil
