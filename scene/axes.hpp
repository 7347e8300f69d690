// The one place where the engine's frame meets glTF's, and where "unchanged" is decided.
//
// Anvil's world is z-up and right-handed (docs/design.md, Maps: the format's `transform` moves "up" along
// z; the map looks down z), in metres (the notes name no unit; the games' distances read as metres);
// glTF 2.0 is y-up, right-handed, in metres. So a point of the engine is seen in glTF turned -90 degrees
// about x: (x, y, z) -> (x, z, -y), kAxisFrom and kAxisSign below. An instance matrix M (column-major, as stored and as
// glTF writes a node's `matrix`) becomes G = C M C^-1 in glTF; as C only permutes axes and flips a sign,
// every element of G is an element of M, maybe negated: the conversion is exact both ways. Blender turns
// glTF's y-up back to its own z-up on import, so Blender shows an instance at the engine's x, y, z.
#pragma once

#include <array>

#include "model/primitives.hpp"

namespace anvil::scene {

// A 4x4 matrix in double, column-major (element [c * 4 + r] is row r of column c), as glTF writes one.
using Matrix4d = std::array<double, 16>;

// Engine -> glTF, the rotation of -90 degrees about x written as what it is: glTF's axis i is the
// engine's axis kAxisFrom[i] times kAxisSign[i] (x = x, y = z, z = -y; the fourth, homogeneous, stays).
inline constexpr std::array<int, 4> kAxisFrom = {0, 2, 1, 3};
inline constexpr std::array<double, 4> kAxisSign = {1, 1, -1, 1};

// G = C M C^-1: the engine's matrix as a glTF node's matrix.
Matrix4d to_gltf(const Matrix& engine);
// M = C^-1 G C: a glTF world matrix back in the engine's frame (not rounded to f32 yet).
Matrix4d to_engine(const Matrix4d& gltf);

// a x b, column-major.
Matrix4d multiply(const Matrix4d& a, const Matrix4d& b);
// The matrix of glTF's translation, rotation (a unit quaternion x, y, z, w) and scale: T R S.
Matrix4d from_trs(const std::array<double, 3>& t, const std::array<double, 4>& q, const std::array<double, 3>& s);

// A transform counts as unchanged when every element of the new matrix is within this of the old one,
// relative to the larger of 1 and the old element's size: Blender reads a node's matrix into its own
// location, rotation and scale (f32) and writes them back as translation, quaternion and scale, so an
// untouched node comes back a few f32 steps away from what was exported (docs/blender.md says how far,
// as measured). A move smaller than this (a millionth of a metre within a kilometre) is not one.
inline constexpr double kUnchangedTolerance = 1e-5;
bool same_transform(const Matrix& before, const Matrix4d& after);

// Why a glTF world matrix has no engine matrix, or "" when it has one: the bottom row must be 0 0 0 1 (no
// projection), the three axes of its upper 3x3 at right angles (glTF holds no shear: nor can Blender),
// and every element finite within the f32 range once in the engine's frame.
const char* unholdable(const Matrix4d& engine);

// The engine matrix, each element rounded to the nearest f32 (check unholdable first).
Matrix to_f32(const Matrix4d& engine);

}  // namespace anvil::scene
