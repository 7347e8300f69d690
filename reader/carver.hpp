// The carver (FORMAT.md section 1): finds every top-level object of a known class by a search for its
// class-id bytes, parses it strictly, and leaves everything else to opaque spans. Left to right; at
// each position the first object that parses wins; objects never overlap. Linear in the file size.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "model/level.hpp"
#include "model/object.hpp"
#include "reader/check_failure.hpp"

namespace anvil {

class FileTails;

// A candidate (class-id bytes in place) that failed a check: what `stats` counts as a near miss.
struct NearMiss {
  std::size_t offset = 0;       // where the candidate object would have started
  std::string_view class_name;  // "Visual", "LODSelector"
  const CheckFailure& failure;
};

class Carver {
 public:
  // `tails` may be shared with others reading the same file.
  Carver(std::span<const u8> file, Game game, std::shared_ptr<FileTails> tails = nullptr);
  ~Carver();
  Carver(const Carver&) = delete;
  Carver& operator=(const Carver&) = delete;

  // Parses the next object after the previous one into `object` (reusing its storage); its extent,
  // or nothing at the end of the file.
  std::optional<Extent> next(Object& object);

  // Starts the carve at `cursor` instead of 0 (reader/split_carve.hpp); before the first next().
  void start_at(std::size_t cursor) { cursor_ = cursor; }

  // Called for every candidate that failed a check.
  void on_near_miss(std::function<void(const NearMiss&)> sink) { near_miss_ = std::move(sink); }

 private:
  struct Kind;
  bool parse(std::size_t start, std::size_t kind, Object& object, Extent& extent);

  std::span<const u8> file_;
  std::vector<Kind> kinds_;
  std::shared_ptr<FileTails> tails_;
  std::size_t cursor_ = 0;
  std::function<void(const NearMiss&)> near_miss_;
};

class TailFinder;

// Parses one object of the variant alternative `kind` at `start` of `file`, as the carver does; the
// failure if it does not parse. `tails` serves the file's unknown instance bodies.
std::optional<CheckFailure> parse_object_at(std::span<const u8> file, std::size_t start, std::size_t kind,
                                            Object& object, Extent& extent, TailFinder* tails);

}  // namespace anvil
