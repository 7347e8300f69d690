#include "writer/dump.hpp"

#include <absl/strings/escaping.h>
#include <rapidjson/stringbuffer.h>

#include "reader/level.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/object_json.hpp"

namespace anvil {
namespace {

template <class Stream>
void write_document(std::span<const u8> bytes, const DumpOptions& options, Stream& stream,
                    const ProgressFn& progress = {}, std::size_t* objects = nullptr) {
  JsonTextHandler<Stream> handler(stream);
  JsonWriter<JsonTextHandler<Stream>> w(handler);
  w.start_object();
  w.key("format");
  w.string(kDocumentFormat);
  w.key("game");
  w.string(game_name(options.game));
  w.key("size");
  w.number(bytes.size());
  w.key("objects");
  w.start_object();
  std::string key;
  // Two passes over the file with `full` (objects, then spans): progress counts both.
  const std::size_t passes = options.full ? 2 : 1;
  ProgressSteps steps(progress, passes * bytes.size());
  Level level = carve_level(bytes, options.game, [&](const Piece& piece, const Object& object) {
    object_key(piece, options.game, key);
    write_object_json(w, key, {piece.offset, piece.length}, object);
    steps.at(piece.offset + piece.length);
  });
  w.end_object();
  if (options.full) {
    w.key("spans");
    w.start_array();
    for (const Piece& piece : level.pieces) {
      steps.at(bytes.size() + piece.offset);
      w.start_object();
      w.key("offset");
      w.number(piece.offset);
      if (piece.is_object()) {
        w.key("object");
        object_key(piece, options.game, key);
        w.string(key);
      } else {
        w.key("opaque");
        auto span = bytes.subspan(piece.offset, piece.length);
        w.string(absl::Base64Escape({reinterpret_cast<const char*>(span.data()), span.size()}));
      }
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
  stream.Flush();
  steps.finish();
  if (objects) *objects = level.object_count();
}

}  // namespace

bool dump_json(std::span<const u8> bytes, const DumpOptions& options, std::FILE* out, const ProgressFn& progress,
               std::size_t* objects) {
  {
    JsonFileStream stream(out);  // all written to `out` when it goes
    write_document(bytes, options, stream, progress, objects);
  }
  std::fputc('\n', out);
  return std::fflush(out) == 0 && !std::ferror(out);
}

std::string dump_json(std::span<const u8> bytes, const DumpOptions& options) {
  rapidjson::StringBuffer buffer;
  write_document(bytes, options, buffer);
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace anvil
