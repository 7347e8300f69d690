// Class ids of the Anvil formats. A class id is the CRC-32 (zlib) of the full class name; the table in
// class_ids.cpp lists the names, and a test checks every constant below against crc32 of its name.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/primitives.hpp"

namespace anvil::class_id {

inline constexpr u32 kVisual = 0xEC658D29;
inline constexpr u32 kLODSelector = 0x51DC6B80;
inline constexpr u32 kLODSelectorInstance = 0x01437462;
inline constexpr u32 kMeshInstanceData = 0x536E963B;
inline constexpr u32 kLightInstance = 0x554C614C;
inline constexpr u32 kSplashFXInstanceData = 0xB8B08A89;
inline constexpr u32 kImpostorInstanceData = 0xB3F06BC3;
inline constexpr u32 kCompiledMeshInstance = 0x4368101B;
inline constexpr u32 kMeshInstanceMaterialInfo = 0x995BFBF5;
inline constexpr u32 kSubMeshInstanceData = 0x128A77EC;
inline constexpr u32 kVisualShaderConstants = 0xBFF5DF99;
inline constexpr u32 kDefaultLayout = 0xD74FA591;
inline constexpr u32 kUILayout = 0x9FAF160F;
inline constexpr u32 kSkinLayout = 0x605001B7;
inline constexpr u32 kGearLayout = 0xF54C16B8;
inline constexpr u32 kMaterialLayout = 0xF977AE02;

// CRC-32 (ISO-HDLC) of a class name.
u32 crc32(std::string_view name);

// The full class name of a known id, if any.
std::optional<std::string_view> name_of(u32 id);

// The id named by a JSON "class" string: a known class name, or "0x" + 8 hex digits.
std::optional<u32> parse(std::string_view text);

// The JSON "class" string of an id: its name when known, else "0x%08x".
std::string to_json(u32 id);

}  // namespace anvil::class_id
