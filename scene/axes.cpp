// The engine's frame and glTF's (scene/axes.hpp).
#include "scene/axes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace anvil::scene {

Matrix4d to_gltf(const Matrix& engine) {
  Matrix4d g{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      g[c * 4 + r] = kAxisSign[r] * kAxisSign[c] * static_cast<double>(engine[kAxisFrom[c] * 4 + kAxisFrom[r]]);
  return g;
}

Matrix4d to_engine(const Matrix4d& gltf) {
  Matrix4d m{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m[kAxisFrom[c] * 4 + kAxisFrom[r]] = kAxisSign[r] * kAxisSign[c] * gltf[c * 4 + r];
  return m;
}

Matrix4d multiply(const Matrix4d& a, const Matrix4d& b) {
  Matrix4d out{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = sum;
    }
  return out;
}

Matrix4d from_trs(const std::array<double, 3>& t, const std::array<double, 4>& q, const std::array<double, 3>& s) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  // The rotation matrix of a unit quaternion, column by column.
  const double rot[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                         2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                         2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
  Matrix4d m{};
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[c * 4 + r] = rot[c * 3 + r] * s[c];
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  m[15] = 1;
  return m;
}

bool same_transform(const Matrix& before, const Matrix4d& after) {
  for (int i = 0; i < 16; ++i) {
    const double old = before[i];
    if (!(std::fabs(after[i] - old) <= kUnchangedTolerance * std::max(1.0, std::fabs(old)))) return false;
  }
  return true;
}

const char* unholdable(const Matrix4d& m) {
  for (double v : m)
    if (!std::isfinite(v) || std::fabs(v) > std::numeric_limits<f32>::max())
      return "an element is not a finite number within the f32 range of the engine's matrix";
  if (m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1) return "a projection (its bottom row is not 0 0 0 1)";
  // Columns 0..2 are the images of the three axes: at right angles unless sheared.
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) {
      double dot = 0, la = 0, lb = 0;
      for (int r = 0; r < 3; ++r) {
        dot += m[a * 4 + r] * m[b * 4 + r];
        la += m[a * 4 + r] * m[a * 4 + r];
        lb += m[b * 4 + r] * m[b * 4 + r];
      }
      if (la == 0 || lb == 0) return "a scale of zero (an axis of no length)";
      if (std::fabs(dot) > 1e-4 * std::sqrt(la * lb)) return "a shear (its axes are not at right angles)";
    }
  return "";
}

Matrix to_f32(const Matrix4d& engine) {
  Matrix m{};
  for (int i = 0; i < 16; ++i) m[i] = static_cast<f32>(engine[i]);
  return m;
}

}  // namespace anvil::scene
