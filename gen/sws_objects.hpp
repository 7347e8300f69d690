// `sws` Visuals and LODSelectors drawn with the proportions of the notes' level 01 where it shows them,
// chosen otherwise (sws_objects.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "gen/draw.hpp"
#include "model/object.hpp"

namespace anvil::gen {

// The instance class of an sws Visual. (Lights have a LightInstance, which has no known sws length: not
// generated as Visuals.)
enum class SwsInstance { mesh, lod_selector, none };

class SwsObjects {
 public:
  explicit SwsObjects(Draw& draw) : draw_(draw) {}

  // The file's top-level LODSelectors, which the LODSelectorInstances then follow.
  void draw_selectors(u64 count);
  std::vector<sws::LODSelector>& selectors() { return selectors_; }

  // An instance class in the notes' proportions.
  SwsInstance draw_instance();
  static std::string_view class_name(SwsInstance kind);

  // One Visual of the given instance class into `object`.
  void visual(Object& object, SwsInstance kind);

 private:
  void mesh(sws::MeshInstanceData& m);
  void selector(sws::LODSelector& s);

  Draw& draw_;
  Rng& rng_ = draw_.rng();
  std::vector<sws::LODSelector> selectors_;
};

}  // namespace anvil::gen
