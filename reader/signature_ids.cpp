#include "reader/signature_ids.hpp"

#include <algorithm>
#include <cstring>

#include "model/dialect.hpp"
#include "reader/signature_search.hpp"

namespace anvil {

std::vector<u64> signature_ids(std::span<const u8> bytes, Game game, std::span<const Extent> regions) {
  const std::size_t width = dialect::facts(game).id_width;
  std::vector<u64> ids;
  for (const dialect::Kind& kind : dialect::kinds(game)) {
    // The id is the `width` bytes right before the class id: the object starts there.
    const std::size_t class_at = dialect::class_offset(kind);
    for (const Extent& r : regions) {
      const std::span<const u8> region = bytes.subspan(r.offset, r.length);
      for (auto at = find_class_id(region, class_at, kind.class_id); at;
           at = find_class_id(region, *at + 1, kind.class_id)) {
        u64 id = 0;
        std::memcpy(&id, region.data() + (*at - width), width);  // little-endian, as stored
        ids.push_back(id);
      }
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace anvil
