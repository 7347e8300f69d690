#include "pipeline/dump.hpp"

#include <rapidjson/stringbuffer.h>

#include <cerrno>
#include <cstring>

#include "reader/level.hpp"
#include "writer/document_json.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/object_json.hpp"

namespace anvil {
namespace {

Level carve(std::span<const u8> bytes, Game game, const std::vector<Extent>& regions,
            const std::function<void(const Piece&, const Object&)>& on_object) {
  return regions.empty() ? carve_level(bytes, game, on_object) : carve_regions(bytes, game, regions, on_object);
}

// "size" and "objects" of one level, the objects written as they are carved.
template <class Writer>
Level write_objects(Writer& w, std::span<const u8> bytes, Game game, const std::vector<Extent>& regions,
                    std::string& key, ProgressSteps& steps) {
  write_key(w, document::kSize);
  w.number(bytes.size());
  write_key(w, document::kObjects);
  w.start_object();
  Level level = carve(bytes, game, regions, [&](const Piece& piece, const Object& object) {
    object_key(piece, game, key);
    write_object_json(w, key, {piece.offset, piece.length}, object);
    steps.at(piece.offset + piece.length);
  });
  w.end_object();
  return level;
}

template <class Stream>
void write_document(std::span<const u8> bytes, const DumpOptions& options, Stream& stream,
                    const ProgressFn& progress = {}, std::size_t* objects = nullptr) {
  JsonTextHandler<Stream> handler(stream);
  JsonWriter<JsonTextHandler<Stream>> w(handler);
  w.start_object();
  write_document_head(w, options.game);
  std::string key;
  // Two passes over the file with `full` (objects, then spans): progress counts both.
  const std::size_t passes = options.full ? 2 : 1;
  ProgressSteps steps(progress, passes * bytes.size());
  Level level = write_objects(w, bytes, options.game, options.regions, key, steps);
  if (options.full) {
    write_key(w, document::kSpans);
    w.start_array();
    for (const Piece& piece : level.pieces) {
      steps.at(bytes.size() + piece.offset);
      write_span(w, piece, bytes, [&]() -> const std::string& {
        object_key(piece, options.game, key);
        return key;
      });
    }
    w.end_array();
  }
  w.end_object();
  stream.Flush();
  steps.finish();
  if (objects) *objects = level.object_count();
}

template <class Stream>
absl::Status write_datafiles(Game game, const NextLevel& next, Stream& stream) {
  JsonTextHandler<Stream> handler(stream);
  JsonWriter<JsonTextHandler<Stream>> w(handler);
  w.start_object();
  write_document_head(w, game);
  write_key(w, document::kDatafiles);
  w.start_object();
  std::string key;
  const ProgressFn no_progress;
  while (true) {
    auto level = next();
    if (!level.ok()) {
      stream.Flush();
      return level.status();
    }
    if (!*level) break;
    w.key((*level)->name);
    w.start_object();
    ProgressSteps steps(no_progress, (*level)->bytes.size());
    write_objects(w, (*level)->bytes, game, (*level)->regions, key, steps);
    w.end_object();
  }
  w.end_object();
  w.end_object();
  stream.Flush();
  return absl::OkStatus();
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

absl::Status dump_datafiles_json(Game game, const NextLevel& next, std::FILE* out) {
  absl::Status status;
  {
    JsonFileStream stream(out);
    status = write_datafiles(game, next, stream);
  }
  if (!status.ok()) return status;
  std::fputc('\n', out);
  if (std::fflush(out) != 0 || std::ferror(out))
    return absl::InternalError(std::string("cannot write: ") + std::strerror(errno));
  return absl::OkStatus();
}

std::string dump_datafiles_json(Game game, const NextLevel& next, absl::Status& status) {
  rapidjson::StringBuffer buffer;
  status = write_datafiles(game, next, buffer);
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace anvil
