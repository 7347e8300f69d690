// One Visual's instance edits as patch operations (scene/instance_ops.hpp).
#include "scene/instance_ops.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "model/json_text.hpp"
#include "patch/bulk_operands.hpp"
#include "patch/json_util.hpp"

namespace anvil::scene {
namespace {

std::string bound_text(const Opaque<40>& bound) {
  std::string hex = "\"";
  json_text::append_hex(hex, bound.bytes.data(), bound.bytes.size());
  return hex + "\"";
}

std::string op_text(const char* op, const std::string& path, const std::string& value) {
  std::string text = absl::StrCat(R"({"op": ")", op, R"(", "path": )", json_string(path));
  if (!value.empty()) absl::StrAppend(&text, R"(, "value": )", value);
  return text + "}";
}

bool same_bits(const Matrix& a, const Matrix& b) { return std::memcmp(a.data(), b.data(), sizeof(Matrix)) == 0; }

}  // namespace

std::string json_string(const std::string& text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

void append_instance_ops(Object& visual, const std::string& base, const InstanceEdits& edits,
                         std::vector<std::string>& ops) {
  std::vector<patch::bulk::InstanceList> lists = patch::bulk::instance_lists(visual, base);
  if (lists.empty()) return;
  std::vector<Matrix>& own = *lists.front().matrices;
  const std::vector<Matrix> before = own;
  // Whether list l's matrix i is the own one's: it then takes the own one's new matrix.
  auto follows = [&](const patch::bulk::InstanceList& list, std::size_t i) {
    return list.matrices->size() == before.size() && i < before.size() && same_bits((*list.matrices)[i], before[i]);
  };
  std::vector<std::vector<bool>> follow(lists.size());
  for (std::size_t l = 0; l < lists.size(); ++l)
    for (std::size_t i = 0; i < before.size(); ++i) follow[l].push_back(follows(lists[l], i));

  for (const auto& [i, matrix] : edits.moved)
    for (std::size_t l = 0; l < lists.size(); ++l)
      if (follow[l][i]) {
        ops.push_back(op_text("replace", absl::StrCat(lists[l].pointer, "/", i), patch::matrix_text(matrix)));
        (*lists[l].matrices)[i] = matrix;
      }
  for (const auto& [i, matrix] : edits.added) {
    const std::size_t count = own.size();
    for (std::size_t l = 0; l < lists.size(); ++l) {
      std::vector<Matrix>& list = *lists[l].matrices;
      if (list.size() != count) continue;
      const Matrix copy = follow[l][i] ? matrix : list[i];
      ops.push_back(op_text("add", lists[l].pointer + "/-", patch::matrix_text(copy)));
      list.push_back(copy);
      if (lists[l].bounds != nullptr && lists[l].bounds->size() == count) {
        const Opaque<40> bound = (*lists[l].bounds)[i];
        ops.push_back(op_text("add", lists[l].bounds_pointer + "/-", bound_text(bound)));
        lists[l].bounds->push_back(bound);
      }
    }
  }
  std::vector<std::size_t> removed = edits.removed;
  std::sort(removed.begin(), removed.end(), std::greater<>());
  for (std::size_t i : removed) {
    const std::size_t count = own.size();
    for (std::size_t l = 0; l < lists.size(); ++l) {
      std::vector<Matrix>& list = *lists[l].matrices;
      if (list.size() != count) continue;
      ops.push_back(op_text("remove", absl::StrCat(lists[l].pointer, "/", i), ""));
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
      if (lists[l].bounds != nullptr && lists[l].bounds->size() == count) {
        ops.push_back(op_text("remove", absl::StrCat(lists[l].bounds_pointer, "/", i), ""));
        lists[l].bounds->erase(lists[l].bounds->begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  }
}

}  // namespace anvil::scene
