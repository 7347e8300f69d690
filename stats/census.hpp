// The census that `anvilrt stats` takes (FORMAT.md section 6): per dialect, objects by class, bytes
// carved vs opaque, value counts of the fields the research notes count, and the near misses (candidates
// that failed a check), counted by the check. A census is taken per file and merged in file order.
#pragma once

#include <array>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "model/object.hpp"
#include "model/progress.hpp"
#include "reader/carver.hpp"

namespace anvil::stats {

using Values = std::map<u64, u64>;         // value -> how many
using Names = std::map<std::string, u64>;  // name -> how many

// Candidates that failed the same check ("Visual: instance/compiled: streams count must be 0x00000000").
struct NearMisses {
  static constexpr std::size_t kExamples = 5;
  struct Example {
    std::size_t file = 0;  // index into the census' file list
    std::size_t offset = 0;
    std::string found;  // the value found instead, if the check names one
  };
  u64 count = 0;
  std::vector<Example> first;  // the first kExamples, in file order
};

// ac2 MeshInstanceData, direct and in LODSelectorInstance slots (FORMAT.md 2.3).
struct Ac2Meshes {
  u64 count = 0;
  u64 direct = 0;
  Values is_fake, is_near_fake, vertex_format, streams, platform_version;
  u64 fake_mesh_index_nonzero = 0;
  u64 mesh_hash_nonzero = 0;
  u64 compiled_id_zero = 0;
  Values instances, materials, instance_bounds, modes;
};

struct Ac2 {
  // Visual header (2.1)
  Values managed, active, is_an_optimized_component, is_partially_optimized;
  Values shown_tag;  // the two tag bytes of `object`, as 0xAABB
  Names instance_classes;
  // LODSelectorInstance (2.2)
  u64 lod_selector_instances = 0;
  Values lod_instances;
  Names slot_patterns;  // per slot: M MeshInstanceData, I ImpostorInstanceData, . empty
  std::array<Names, 5> slot_classes;
  Values used_slots;
  Ac2Meshes meshes;
  u64 impostors = 0;
  // LightInstance and unknown bodies
  u64 lights = 0;
  Names unknown_classes;
  u64 unknown_body_bytes = 0;
  u64 unknown_empty_bodies = 0;
  // Visual tail (2.7)
  u64 tails = 0;
  Values bools;  // the four bytes as 0xAABBCCDD (storage order)
  Values display_order;
  Values unaccounted;  // the 8 bytes in storage order as one number
  u64 shader_constants_id_zero = 0;
  Values data_layout;
  Values f32_ones;                                                // per data_layout: data_f32 == (1, 1, 1, 1)
  Values u32_zero;                                                // per data_layout: data_u32 == (0, 0, 0, 0)
  std::map<std::pair<u32, std::array<u32, 4>>, u64> f32_endings;  // (data_layout, f32 bits) -> how many
};

struct Sws {
  // LODSelector (3.1)
  u64 selectors = 0;
  Values selector_managed, used_slots, category, generated, flags, trailing;
  Names used_patterns;       // per slot: U used (object != 0), . unused
  u64 distance_checked = 0;  // selectors with two or more used slots
  u64 monotonic = 0;         // of those, switch distances non-decreasing over the used slots
  // Visual (3.2)
  Values managed, active, is_an_optimized_component, is_partially_optimized;
  Names instance_classes;
  u64 lod_selector_instances = 0;
  Values lod_instances;
  Names slot_patterns;  // M MeshInstanceData, . empty
  // MeshInstanceData, direct and in slots
  u64 meshes = 0;
  u64 direct_meshes = 0;
  Values submeshes;
  u64 prt_nonzero = 0;
  u64 ao_nonzero = 0;
  u64 submesh_total = 0;
  u64 compiled_data_bytes = 0;
  u64 hash_nonzero = 0;
};

struct Dialect {
  u64 files = 0;
  u64 bytes = 0;
  u64 carved_bytes = 0;
  Names objects;  // by class
  Ac2 ac2;
  Sws sws;
  std::map<std::string, NearMisses> near_misses;  // "Class: path: check"
};

// A `.forge` archive as `stats` sums it up (FORGE.md): its data files by compression, bytes stored and
// decompressed, the checksum rule its blocks match, and the data files that failed a container check.
struct Archive {
  std::string path;
  std::string error;  // the tables do not read: nothing else is known
  u64 datafiles = 0;
  Names compression;  // "lzo1x", "plain", ... -> data files
  u64 stored_bytes = 0;
  u64 decompressed_bytes = 0;
  std::string checksum_rule;  // "adler32-0/stored (41 of 42 blocks)", "none (...)", "n/a" (no block has one)
  u64 checked_blocks = 0;     // blocks and chunks that carry a checksum
  // "what failed" -> how many data files; an example's `file` indexes `names`, its offset is the archive's
  std::map<std::string, NearMisses> near_misses;
  std::vector<std::string> names;  // the data files' names, for the examples
};

struct Census {
  std::map<Game, Dialect> dialects;
  std::vector<Archive> archives;  // in file order

  // Carves one file and counts it; near-miss examples name `file` (an index into the caller's list).
  // With `regions` (a decompressed data file's bodies, FORGE.md 3) only those are carved. `progress`
  // hears how far the carve is.
  void add_file(std::span<const u8> bytes, Game game, std::size_t file = 0, std::span<const Extent> regions = {},
                const ProgressFn& progress = {});
  // Makes every near-miss example name `file`: for a census of one file whose place in the list is
  // known only once the files before it are counted (a folder walk skips files that carve nothing).
  void set_file(std::size_t file);
  // Adds `other` (a later file) to this census.
  void merge(const Census& other);
};

}  // namespace anvil::stats
