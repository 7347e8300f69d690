// The dictionary of full class names behind the class ids (FORMAT.md: class id = crc32(full name)).
#include "model/class_ids.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/strings/str_format.h>

#include <array>
#include <boost/crc.hpp>
#include <charconv>

namespace anvil::class_id {
namespace {

constexpr std::array<std::string_view, 16> kNames = {
    "Visual",
    "LODSelector",
    "LODSelectorInstance",
    "MeshInstanceData",
    "LightInstance",
    "SplashFXInstanceData",
    "ImpostorInstanceData",
    "CompiledMeshInstance",
    "MeshInstanceMaterialInfo",
    "SubMeshInstanceData",
    "VisualShaderConstants",
    "VisualShaderConstantsDefaultLayout",
    "VisualShaderConstantsUILayout",
    "VisualShaderConstantsSkinLayout",
    "VisualShaderConstantsGearLayout",
    "VisualShaderConstantsMaterialLayout",
};

struct Dictionary {
  absl::flat_hash_map<u32, std::string_view> by_id;
  absl::flat_hash_map<std::string_view, u32> by_name;
  Dictionary() {
    for (std::string_view name : kNames) {
      by_id.emplace(crc32(name), name);
      by_name.emplace(name, crc32(name));
    }
  }
};

const Dictionary& dictionary() {
  static const Dictionary d;
  return d;
}

}  // namespace

u32 crc32(std::string_view name) {
  boost::crc_32_type crc;
  crc.process_bytes(name.data(), name.size());
  return crc.checksum();
}

std::optional<std::string_view> name_of(u32 id) {
  const auto& d = dictionary();
  if (auto it = d.by_id.find(id); it != d.by_id.end()) return it->second;
  return std::nullopt;
}

std::optional<u32> parse(std::string_view text) {
  const auto& d = dictionary();
  if (auto it = d.by_name.find(text); it != d.by_name.end()) return it->second;
  if (text.size() != 10 || text.substr(0, 2) != "0x") return std::nullopt;
  u32 id = 0;
  auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), id, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return id;
}

std::string to_json(u32 id) {
  if (auto name = name_of(id)) return std::string(*name);
  return absl::StrFormat("0x%08x", id);
}

}  // namespace anvil::class_id
