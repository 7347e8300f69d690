#include "pipeline/verify.hpp"

#include <absl/strings/escaping.h>
#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>

#include "pipeline/read_back.hpp"
#include "reader/object_json.hpp"
#include "reader/split_carve.hpp"
#include "writer/encode.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/object_json.hpp"

namespace anvil {
namespace {

// The round trips of one object or one opaque span; each thread owns one (its buffers).
class RoundTrips {
 public:
  RoundTrips(std::span<const u8> bytes, Game game, bool json) : bytes_(bytes), game_(game), json_(json) {}

  // Both trips of the object carved at `extent`; the first difference into `report`.
  void object(const Extent& extent, const Object& object, VerifyReport& report) {
    compare(extent, object, "bytes -> model -> bytes", report);
    if (json_ && report.identical()) through_json(extent, object, report);
  }

  void opaque(std::size_t offset, std::size_t length, VerifyReport& report) {
    report.opaque_bytes += length;
    if (!json_ || length == 0) return;
    auto span = bytes_.subspan(offset, length);
    absl::Base64Escape({reinterpret_cast<const char*>(span.data()), span.size()}, &base64_);
    absl::Base64Unescape(base64_, &decoded_);
    if (auto at = first_difference(span, {reinterpret_cast<const u8*>(decoded_.data()), decoded_.size()})) {
      report.first_difference = offset + *at;
      report.difference = "bytes -> JSON -> bytes: an opaque span does not survive base64";
    }
  }

 private:
  // The object read back (read_back.hpp), against the bytes it was carved from.
  void compare(const Extent& extent, const Object& object, std::string_view trip, VerifyReport& report) {
    if (auto at = object_difference(object, bytes_.subspan(extent.offset, extent.length), encoded_)) {
      report.first_difference = extent.offset + *at;
      report.difference =
          absl::StrCat(std::string(trip), ": the object at offset ", extent.offset, " re-encodes differently");
    }
  }

  void through_json(const Extent& extent, const Object& object, VerifyReport& report) {
    text_.Clear();
    JsonTextHandler<rapidjson::StringBuffer> handler(text_);
    JsonWriter<JsonTextHandler<rapidjson::StringBuffer>> w(handler);
    write_object_value(w, extent, object);
    std::string_view text(text_.GetString(), text_.GetSize());
    u64 offset = 0, length = 0;
    JsonTextReader reader(text);
    if (!read_object_json(reader, game_, reread_, offset, length) || reader.peek() != '\0') {
      // Not read by the fast reader: the general one, which names what is wrong if anything is.
      if (!read_through_document(extent, offset, length, report)) return;
    }
    if (offset != extent.offset || length != extent.length) {
      fail(extent, "the JSON gives another offset or length", report);
      return;
    }
    compare(extent, reread_, "bytes -> JSON -> bytes", report);
  }

  bool read_through_document(const Extent& extent, u64& offset, u64& length, VerifyReport& report) {
    // A fresh document on a cleared pool per object: RapidJSON's pool never frees a reparsed document.
    pool_.Clear();
    rapidjson::Document document(&pool_);
    // In situ: the text is ours and rewritten for the next object, so strings need no copy.
    document.ParseInsitu<rapidjson::kParseFullPrecisionFlag>(const_cast<char*>(text_.GetString()));
    if (document.HasParseError()) {
      fail(extent, "the JSON written does not parse", report);
      return false;
    }
    if (auto failure = read_object_json(document, game_, "/object", reread_)) {
      fail(extent, "the JSON does not read back: " + failure->message(), report);
      return false;
    }
    offset = document["offset"].GetUint64();
    length = document["length"].GetUint64();
    return true;
  }

  static void fail(const Extent& extent, std::string why, VerifyReport& report) {
    report.first_difference = extent.offset;
    report.difference = absl::StrCat("bytes -> JSON -> bytes: object at offset ", extent.offset, ": ", why);
  }

  std::span<const u8> bytes_;
  Game game_;
  bool json_;
  std::vector<u8> encoded_;
  std::string base64_, decoded_;  // an opaque span's JSON spelling and what it reads back to
  rapidjson::StringBuffer text_;
  char pool_buffer_[1 << 16];
  rapidjson::MemoryPoolAllocator<> pool_{pool_buffer_, sizeof pool_buffer_};
  Object reread_;
};

class Verifier {
 public:
  Verifier(std::span<const u8> bytes, Game game, bool json, const ProgressFn& progress, unsigned threads)
      : bytes_(bytes), game_(game), json_(json), threads_(std::max(1u, threads)), progress_(progress) {
    report_.size = bytes.size();
    for (unsigned t = 0; t < threads_; ++t) trips_.push_back(std::make_unique<RoundTrips>(bytes, game, json));
  }

  // Each part of the carve round-trips its objects on its own thread, each stopping at its first
  // difference; then the one carve's opaque spans are checked in its order, and the first difference in
  // it is the report's, as one thread carving and checking left to right would have found it.
  VerifyReport run() {
    std::vector<VerifyReport> found(threads_);  // per part
    SplitVisit visit = [&](unsigned part, const Extent& extent, const Object& object) {
      trips_[part]->object(extent, object, found[part]);
      return found[part].identical();
    };
    SplitCarve carve = split_carve(bytes_, game_, {.parts = threads_}, visit, progress_);
    auto near_misses_to = [&](std::size_t offset) {
      return static_cast<std::size_t>(std::upper_bound(carve.near_misses.begin(), carve.near_misses.end(), offset) -
                                      carve.near_misses.begin());
    };
    RoundTrips& trips = *trips_[0];
    std::size_t end = 0;
    for (const Extent& extent : carve.objects) {
      trips.opaque(end, extent.offset - end, report_);
      if (!report_.identical()) {
        report_.near_misses = near_misses_to(extent.offset);
        return report_;
      }
      ++report_.objects;
      end = extent.offset + extent.length;
    }
    report_.near_misses = carve.near_misses.size();
    if (carve.stopped_part) {
      report_.first_difference = found[*carve.stopped_part].first_difference;
      report_.difference = std::move(found[*carve.stopped_part].difference);
      return report_;
    }
    trips.opaque(end, bytes_.size() - end, report_);
    return report_;
  }

 private:
  std::span<const u8> bytes_;
  Game game_;
  bool json_;
  unsigned threads_;
  const ProgressFn& progress_;
  VerifyReport report_;
  std::vector<std::unique_ptr<RoundTrips>> trips_;  // one per part of the carve
};

}  // namespace

VerifyReport verify_bytes(std::span<const u8> bytes, Game game, bool json_round_trip, const ProgressFn& progress,
                          unsigned threads) {
  return Verifier(bytes, game, json_round_trip, progress, threads).run();
}

}  // namespace anvil
