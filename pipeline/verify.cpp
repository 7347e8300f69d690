#include "pipeline/verify.hpp"

#include <absl/strings/escaping.h>
#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>

#include "pipeline/read_back.hpp"
#include "reader/carver.hpp"
#include "reader/object_json.hpp"
#include "writer/encode.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/object_json.hpp"

namespace anvil {
namespace {

class Verifier {
 public:
  Verifier(std::span<const u8> bytes, Game game, bool json, const ProgressFn& progress)
      : bytes_(bytes), game_(game), json_(json), progress_(progress, bytes.size()) {
    report_.size = bytes.size();
  }

  VerifyReport run() {
    Carver carver(bytes_, game_);
    carver.on_near_miss([this](const NearMiss&) { ++report_.near_misses; });
    Object object;
    std::size_t end = 0;
    while (report_.identical()) {
      auto extent = carver.next(object);
      std::size_t next = extent ? extent->offset : bytes_.size();
      opaque(end, next - end);
      if (!extent) break;
      ++report_.objects;
      compare(*extent, object, "bytes -> model -> bytes");
      if (json_ && report_.identical()) through_json(*extent, object);
      end = extent->offset + extent->length;
      progress_.at(end);
    }
    progress_.finish();
    return report_;
  }

 private:
  // The object read back (read_back.hpp), against the bytes it was carved from.
  void compare(const Extent& extent, const Object& object, std::string_view trip) {
    if (auto at = object_difference(object, bytes_.subspan(extent.offset, extent.length), encoded_)) {
      report_.first_difference = extent.offset + *at;
      report_.difference =
          absl::StrCat(std::string(trip), ": the object at offset ", extent.offset, " re-encodes differently");
    }
  }

  void opaque(std::size_t offset, std::size_t length) {
    report_.opaque_bytes += length;
    if (!json_ || length == 0) return;
    auto span = bytes_.subspan(offset, length);
    absl::Base64Escape({reinterpret_cast<const char*>(span.data()), span.size()}, &base64_);
    absl::Base64Unescape(base64_, &decoded_);
    if (auto at = first_difference(span, {reinterpret_cast<const u8*>(decoded_.data()), decoded_.size()})) {
      report_.first_difference = offset + *at;
      report_.difference = "bytes -> JSON -> bytes: an opaque span does not survive base64";
    }
  }

  void through_json(const Extent& extent, const Object& object) {
    text_.Clear();
    JsonTextHandler<rapidjson::StringBuffer> handler(text_);
    JsonWriter<JsonTextHandler<rapidjson::StringBuffer>> w(handler);
    write_object_value(w, extent, object);
    std::string_view text(text_.GetString(), text_.GetSize());
    u64 offset = 0, length = 0;
    JsonTextReader reader(text);
    if (!read_object_json(reader, game_, reread_, offset, length) || reader.peek() != '\0') {
      // Not read by the fast reader: the general one, which names what is wrong if anything is.
      if (!read_through_document(extent, offset, length)) return;
    }
    if (offset != extent.offset || length != extent.length) {
      fail(extent, "the JSON gives another offset or length");
      return;
    }
    compare(extent, reread_, "bytes -> JSON -> bytes");
  }

  bool read_through_document(const Extent& extent, u64& offset, u64& length) {
    // A fresh document on a cleared pool per object: RapidJSON's pool never frees a reparsed document.
    pool_.Clear();
    rapidjson::Document document(&pool_);
    // In situ: the text is ours and rewritten for the next object, so strings need no copy.
    document.ParseInsitu<rapidjson::kParseFullPrecisionFlag>(const_cast<char*>(text_.GetString()));
    if (document.HasParseError()) {
      fail(extent, "the JSON written does not parse");
      return false;
    }
    if (auto failure = read_object_json(document, game_, "/object", reread_)) {
      fail(extent, "the JSON does not read back: " + failure->message());
      return false;
    }
    offset = document["offset"].GetUint64();
    length = document["length"].GetUint64();
    return true;
  }

  void fail(const Extent& extent, std::string why) {
    report_.first_difference = extent.offset;
    report_.difference = absl::StrCat("bytes -> JSON -> bytes: object at offset ", extent.offset, ": ", why);
  }

  std::span<const u8> bytes_;
  Game game_;
  bool json_;
  ProgressSteps progress_;
  VerifyReport report_;
  std::vector<u8> encoded_;
  std::string base64_, decoded_;  // an opaque span's JSON spelling and what it reads back to
  rapidjson::StringBuffer text_;
  char pool_buffer_[1 << 16];
  rapidjson::MemoryPoolAllocator<> pool_{pool_buffer_, sizeof pool_buffer_};
  Object reread_;
};

}  // namespace

VerifyReport verify_bytes(std::span<const u8> bytes, Game game, bool json_round_trip, const ProgressFn& progress) {
  return Verifier(bytes, game, json_round_trip, progress).run();
}

}  // namespace anvil
