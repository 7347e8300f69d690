// `sws` MeshInstanceData with its SubMeshInstanceData and CompiledMeshInstance (FORMAT.md 3.2;
// Inferred: accepted only when every check passes).
#pragma once

#include "model/class_ids.hpp"
#include "model/layout.hpp"

namespace anvil::sws {

// `00 [u32 id][u32 class = 0x128A77EC] 01 [u32 submesh] [u32 ao]`
struct SubMeshInstanceData {
  static constexpr const char* format_section = "3.2";
  static constexpr std::size_t wire_size = 1 + 4 + 4 + 1 + 4 + 4;

  Id32 id;
  Id32 submesh;  // a link
  Id32 ao;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& expect<u8>(0x00, "SubMeshInstanceData tag");
    ar& make_nvp("id", id);
    ar& expect<u32>(class_id::kSubMeshInstanceData, "SubMeshInstanceData class");
    ar& expect<u8>(0x01, "submesh link tag");
    ar& make_nvp("submesh", submesh);
    ar& make_nvp("ao", ao);
  }
};

// `00 [u32 id][u32 class = 0x4368101B] [u32 len][len bytes][u32 21][u32 32][u64 hash][u32 key]`
struct CompiledMeshInstance {
  static constexpr const char* format_section = "3.2";
  Id32 id;
  OpaqueBytes data;
  Id64 hash;
  u32 key = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& expect<u8>(0x00, "CompiledMeshInstance tag");
    ar& make_nvp("id", id);
    ar& expect<u32>(class_id::kCompiledMeshInstance, "CompiledMeshInstance class");
    ar& counted_bytes<u32>("data", data);
    ar& expect<u32>(21, "CompiledMeshInstance constant 21");
    ar& expect<u32>(32, "CompiledMeshInstance constant 32");
    ar& make_nvp("hash", hash);
    ar& make_nvp("key", key);
  }
};

struct MeshInstanceData {
  static constexpr const char* format_section = "3.2";
  static constexpr u32 class_id = class_id::kMeshInstanceData;

  Id32 mesh;  // an external pointer
  Id32 prt;
  std::vector<SubMeshInstanceData> submeshes;
  CompiledMeshInstance compiled;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& expect<u8>(0x02, "mesh external pointer tag");
    ar& make_nvp("mesh", mesh);
    ar& make_nvp("prt", prt);
    ar& counted<u32>("submeshes", submeshes);
    ar& make_nvp("compiled", compiled);
  }
};

}  // namespace anvil::sws
