// The rows of `anvilrt export` and `anvilrt import` (issue 51, docs/blender.md) on the census-size level
// file, through the binary as a user runs it.
#pragma once

#include <string>

namespace anvil::bench {

// `export FILE -o SCENE.glb` against `verify --no-json FILE` (target: at most 2 x), and `import` of that
// scene with one node moved against `export` (target: at most 2 x); each the fastest of `runs`, measured
// in alternation so that a slow spell of a shared machine lands on both sides. Files go into `dir`.
void scene_rows(const std::string& anvilrt, const std::string& census, const std::string& dir, int runs,
                unsigned cores);

}  // namespace anvil::bench
