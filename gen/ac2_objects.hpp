// `ac2` Visuals drawn with the seed notes' observed proportions (004_c2a5cef028ef5c3f.txt). Where the
// notes give counts they are used as the weights themselves; where they only say "most", "some" or
// "usually", the weight is chosen here and marked "chosen" (ac2_objects.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "gen/draw.hpp"
#include "model/object.hpp"

namespace anvil::gen {

// The instance class of an ac2 Visual.
enum class Ac2Instance { lod_selector, mesh, light, splash, none };

class Ac2Objects {
 public:
  explicit Ac2Objects(Draw& draw) : draw_(draw) {}

  // The ids the Visuals share: material ids, and LODSelector ids for a file of `visuals` Visuals.
  void draw_pools(u64 visuals);

  // An instance class in the notes' proportions.
  Ac2Instance draw_instance();
  static std::string_view class_name(Ac2Instance kind);

  // One Visual of the given instance class into `object`; `pattern` fixes a LODSelectorInstance's slots
  // (else drawn), `force_material` gives a direct MeshInstanceData at least one material info.
  void visual(Object& object, Ac2Instance kind, const char* pattern = nullptr, bool force_material = false);

 private:
  void mesh(ac2::MeshInstanceData& m, u64 own_id, bool direct, bool force_material);
  void lod(ac2::LODSelectorInstance& lod, const char* pattern);
  void tail(ac2::VisualTail& t);

  Draw& draw_;
  Rng& rng_ = draw_.rng();
  std::vector<u64> materials_;
  std::vector<u64> selectors_;
};

}  // namespace anvil::gen
