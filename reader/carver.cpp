#include "reader/carver.hpp"

#include <algorithm>
#include <vector>

#include "model/dialect.hpp"
#include "reader/byte_reader.hpp"
#include "reader/file_tails.hpp"
#include "reader/signature_search.hpp"

namespace anvil {

// A top-level object kind of a dialect (model/dialect.hpp) and where the search for it stands.
struct Carver::Kind {
  std::size_t variant_index;
  u32 class_id;
  std::size_t class_offset;  // its class id lies this many bytes into the object
  std::string_view name;
  std::optional<std::size_t> next_signature;  // the next place of the class id not yet tried
  bool exhausted = false;
};

namespace {

template <std::size_t I>
using Alt = std::variant_alternative_t<I, Object>;

template <std::size_t I = 0>
bool parse_alternative(std::size_t kind, ByteReader& reader, Object& object) {
  if constexpr (I == std::variant_size_v<Object>) {
    return false;
  } else {
    if (kind != I) return parse_alternative<I + 1>(kind, reader, object);
    if (object.index() != I) object.template emplace<I>();
    std::get<I>(object).serialize(reader, 0);
    return reader.ok();
  }
}

}  // namespace

Carver::Carver(std::span<const u8> file, Game game, std::shared_ptr<FileTails> tails)
    : file_(file), tails_(tails ? std::move(tails) : std::make_shared<FileTails>(file)) {
  for (const dialect::Kind& k : dialect::kinds(game))
    kinds_.push_back({k.alternative, k.class_id, dialect::class_offset(k), k.class_name, {}});
}

Carver::~Carver() = default;

bool Carver::parse(std::size_t start, std::size_t kind, Object& object, Extent& extent) {
  ByteReader reader(file_, start, tails_.get());
  if (!parse_alternative(kinds_[kind].variant_index, reader, object)) {
    if (near_miss_) near_miss_(NearMiss{start, kinds_[kind].name, *reader.failure()});
    return false;
  }
  extent = {start, reader.pos() - start};
  return true;
}

std::optional<Extent> Carver::next(Object& object) {
  for (;;) {
    // The kind whose next candidate starts first (at or after the cursor).
    std::size_t best = kinds_.size();
    std::size_t best_start = 0;
    for (std::size_t k = 0; k < kinds_.size(); ++k) {
      Kind& kind = kinds_[k];
      if (kind.exhausted) continue;
      std::size_t min_signature = cursor_ + kind.class_offset;
      if (!kind.next_signature || *kind.next_signature < min_signature) {
        kind.next_signature = find_class_id(file_, min_signature, kind.class_id);
        if (!kind.next_signature) {
          kind.exhausted = true;
          continue;
        }
      }
      std::size_t start = *kind.next_signature - kind.class_offset;
      if (best == kinds_.size() || start < best_start) {
        best = k;
        best_start = start;
      }
    }
    if (best == kinds_.size()) return std::nullopt;
    Extent extent;
    if (parse(best_start, best, object, extent)) {
      cursor_ = extent.offset + extent.length;
      return extent;
    }
    kinds_[best].next_signature = find_class_id(file_, *kinds_[best].next_signature + 1, kinds_[best].class_id);
    if (!kinds_[best].next_signature) kinds_[best].exhausted = true;
  }
}

std::optional<CheckFailure> parse_object_at(std::span<const u8> file, std::size_t start, std::size_t kind,
                                            Object& object, Extent& extent, TailFinder* tails) {
  ByteReader reader(file, start, tails);
  if (!parse_alternative(kind, reader, object)) return reader.failure();
  extent = {start, reader.pos() - start};
  return std::nullopt;
}

}  // namespace anvil
