// The generator: one Visual (or LODSelector) at a time, drawn as a model object (gen/ac2_objects.hpp,
// gen/sws_objects.hpp), encoded with its layout declaration, and surrounded by signature-free filler,
// now and then with a planted near miss in it (gen/near_miss.hpp).
#include "gen/generator.hpp"

#include <absl/strings/str_cat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "gen/ac2_objects.hpp"
#include "gen/draw.hpp"
#include "gen/sws_objects.hpp"
#include "model/dialect.hpp"
#include "platform/replace_file.hpp"
#include "writer/encode.hpp"

namespace anvil::gen {

absl::Status validate(const Options& options) {
  const bool selectors = dialect::carves<sws::LODSelector>(options.game);
  if (!selectors && options.selectors && *options.selectors != 0)
    return absl::InvalidArgumentError(absl::StrCat("--selectors is for a game with top-level LODSelectors (",
                                                   std::string(game_name(options.game)), " has none)"));
  constexpr u64 kMax = u64{1} << 32;
  if (options.visuals >= kMax || options.selectors.value_or(0) >= kMax)
    return absl::InvalidArgumentError("at most 4294967295 objects");
  u64 objects = options.visuals;
  if (selectors) objects += options.selectors.value_or(options.visuals * 221 / 3966);
  if (options.near_misses > objects + 1)
    return absl::InvalidArgumentError(
        absl::StrCat("at most one planted near miss per gap: ", objects + 1, " for ", objects, " objects"));
  return absl::OkStatus();
}

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 22;

class Generator {
 public:
  Generator(const Options& options, const std::function<void(std::span<const u8>)>& sink)
      : options_(options), draw_(options.seed), sink_(sink) {
    record_.game = options.game;
    buffer_.reserve(kChunk + (std::size_t{1} << 16));
  }

  Record run() {
    switch (options_.game) {
      case Game::ac2:
        run_ac2();
        break;
      case Game::sws:
        run_sws();
        break;
    }
    flush();
    record_.size = flushed_;
    if (options_.progress) options_.progress(flushed_, flushed_);
    return std::move(record_);
  }

 private:
  // --- output ---------------------------------------------------------------------------------------

  std::size_t here() const { return flushed_ + buffer_.size(); }

  void flush() {
    if (buffer_.empty()) return;
    sink_(buffer_);
    flushed_ += buffer_.size();
    buffer_.clear();
    if (options_.progress && record_.visuals > 0)
      options_.progress(flushed_,
                        std::max<std::size_t>(flushed_, static_cast<std::size_t>(static_cast<double>(flushed_) *
                                                                                 options_.visuals / record_.visuals)));
  }

  void filler(std::size_t n) {
    std::size_t at = buffer_.size();
    buffer_.resize(at + n);
    draw_.safe_bytes(buffer_.data() + at, n);
  }

  // Opaque bytes between objects: filler, perhaps a planted near miss, and perhaps the 00 tag of an
  // inline pointer right before the next object. Never empty, so objects never touch.
  void gap(bool before_object) {
    if (planting_left_ > 0 && rng_.uniform(gaps_left_) < planting_left_) {
      filler(rng_.between(1, 16));
      plant();
      --planting_left_;
    }
    --gaps_left_;
    std::size_t n = rng_.pick({10, 30, 30, 20, 10});  // 0, 1-8, 9-32, 33-64, 65-256 bytes (chosen)
    static constexpr std::array<std::pair<u64, u64>, 5> ranges = {{{0, 0}, {1, 8}, {9, 32}, {33, 64}, {65, 256}}};
    std::size_t len = rng_.between(ranges[n].first, ranges[n].second);
    bool zero = before_object && rng_.chance(15, 100);  // chosen
    if (len == 0 && !zero) len = 1;
    filler(len);
    if (zero) {
      buffer_.push_back(0x00);
      ++record_.behind_zero;
    }
  }

  void emit(const Object& object) {
    std::size_t at = here();
    std::size_t before = buffer_.size();
    encode_object(object, buffer_);
    std::size_t length = buffer_.size() - before;
    record_.carved_bytes += length;
    if (options_.keep_objects) {
      record_.objects.push_back(object);
      record_.placed.push_back({at, length});
    }
    if (buffer_.size() >= kChunk) flush();
  }

  // --- the two dialects -----------------------------------------------------------------------------

  void run_ac2() {
    ac2_.draw_pools(options_.visuals);
    start_gaps(options_.visuals);
    filler(rng_.between(16, 64));  // a header of sorts
    Object object;
    for (u64 i = 0; i < options_.visuals; ++i) {
      gap(true);
      Ac2Instance kind = ac2_.draw_instance();
      ac2_.visual(object, kind);
      ++record_.instance_classes[std::string(Ac2Objects::class_name(kind))];
      ++record_.visuals;
      emit(object);
    }
    gap(false);
  }

  void run_sws() {
    u64 selectors = options_.selectors.value_or(options_.visuals * 221 / 3966);
    sws_.draw_selectors(selectors);
    start_gaps(options_.visuals + selectors);
    filler(rng_.between(16, 64));
    Object object;
    u64 visuals_left = options_.visuals, selectors_left = selectors;
    while (visuals_left + selectors_left > 0) {
      gap(true);
      if (rng_.uniform(visuals_left + selectors_left) < selectors_left) {
        object = sws_.selectors()[selectors - selectors_left];
        --selectors_left;
        ++record_.selectors;
      } else {
        SwsInstance kind = sws_.draw_instance();
        sws_.visual(object, kind);
        ++record_.instance_classes[std::string(SwsObjects::class_name(kind))];
        --visuals_left;
        ++record_.visuals;
      }
      emit(object);
    }
    gap(false);
  }

  // --- planted near misses ----------------------------------------------------------------------------

  void start_gaps(u64 objects) {
    gaps_left_ = objects + 1;
    planting_left_ = options_.near_misses;
  }

  // The next kind of the dialect's cycle, written as opaque bytes.
  void plant() {
    std::span<const Planted> kinds = planted_kinds(options_.game);
    Planted kind = kinds[planted_count_++ % kinds.size()];
    std::string failure = plant_near_miss(kind, ac2_, sws_, planted_);
    record_.near_misses.push_back({here(), kind, std::move(failure)});
    buffer_.insert(buffer_.end(), planted_.begin(), planted_.end());
    filler(rng_.between(1, 16));
  }

  Options options_;
  Draw draw_;
  Rng& rng_ = draw_.rng();
  Ac2Objects ac2_{draw_};
  SwsObjects sws_{draw_};
  const std::function<void(std::span<const u8>)>& sink_;
  Record record_;
  std::vector<u8> buffer_;
  std::size_t flushed_ = 0;
  std::vector<u8> planted_;
  u64 gaps_left_ = 1;
  u64 planting_left_ = 0;
  u64 planted_count_ = 0;
};

}  // namespace

Record generate(const Options& options, const std::function<void(std::span<const u8>)>& sink) {
  if (auto s = validate(options); !s.ok()) throw std::invalid_argument(std::string(s.message()));
  return Generator(options, sink).run();
}

std::vector<u8> generate_bytes(const Options& options, Record* record) {
  std::vector<u8> out;
  Record r = generate(options, [&](std::span<const u8> chunk) { out.insert(out.end(), chunk.begin(), chunk.end()); });
  if (record) *record = std::move(r);
  return out;
}

absl::StatusOr<Record> generate_file(const Options& options, const std::string& path) {
  if (auto s = validate(options); !s.ok()) return s;
  platform::AtomicFile file;
  if (auto s = file.open(path); !s.ok()) return s;
  bool ok = true;
  int error = 0;
  Record record = generate(options, [&](std::span<const u8> chunk) {
    if (ok && std::fwrite(chunk.data(), 1, chunk.size(), file.stream()) != chunk.size()) {
      ok = false;
      error = errno;
    }
  });
  if (!ok) return absl::InternalError(absl::StrCat(path, ": cannot write: ", std::strerror(error)));
  if (auto s = file.commit(); !s.ok()) return s;
  return record;
}

}  // namespace anvil::gen
