#include "patch/patch.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

#include "patch/engine.hpp"
#include "patch/json_util.hpp"
#include "patch/ops.hpp"
#include "reader/json_messages.hpp"
#include "reader/json_numbers.hpp"
#include "writer/encode.hpp"

namespace anvil::patch {

std::string PatchError::message() const {
  if (op_index == kWholePatch) return reason;
  return absl::StrFormat("op %d (%s): %s", op_index, pointer, reason);
}

std::string PatchError::line(const std::string& patch_name, const std::string& input) const {
  if (!input_fault) return patch_name.empty() ? message() : absl::StrCat(patch_name, ": ", message());
  const std::string of = patch_name.empty() ? "" : absl::StrCat(" of ", patch_name);
  const std::string needed = absl::StrFormat("%s (needed by op %d (%s)%s)", reason, op_index, pointer, of);
  return input.empty() ? needed : absl::StrCat(input, ": ", needed);
}

namespace {

// build names the field it refuses; when that is the operation's own path, which the error names already
// ("op 3 (PATH): reason"), the reason leaves it out so that the path is said once.
std::string said_once(const std::string& pointer, const std::string& reason) {
  const std::string own = pointer + ": ";
  return !pointer.empty() && reason.compare(0, own.size(), own) == 0 ? reason.substr(own.size()) : reason;
}

// The nesting depth of a JSON value, without recursion (patch files may be hostile).
std::size_t depth_of(const Value& root) {
  std::vector<std::pair<const Value*, std::size_t>> stack{{&root, 1}};
  std::size_t deepest = 0;
  while (!stack.empty()) {
    auto [v, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    if (v->IsArray())
      for (auto& item : v->GetArray()) stack.push_back({&item, depth + 1});
    else if (v->IsObject())
      for (auto& m : v->GetObject()) stack.push_back({&m.value, depth + 1});
  }
  return deepest;
}
constexpr std::size_t kMaxDepth = 64;

// A member of an operation that must be a string: "missing" when absent, "must be" when of another type.
const Value* string_member(const Value& op, const char* name, const char* what) {
  const Value* v = optional_member(op, name);
  if (v == nullptr) fail_malformed(absl::StrFormat("missing \"%s\" (%s)", name, what));
  if (!v->IsString()) fail_malformed(absl::StrFormat("\"%s\" must be %s (found %s)", name, what, json_kind(*v)));
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------

void Engine::run_op(std::size_t index, const Value& op, std::string& pointer) {
  op_index_ = index;
  op_pointer_.clear();
  if (!op.IsObject()) fail_malformed(absl::StrFormat("an operation must be a JSON object (found %s)", json_kind(op)));
  {
    absl::flat_hash_set<std::string_view> names;
    for (auto& m : op.GetObject())
      if (!names.insert({m.name.GetString(), m.name.GetStringLength()}).second)
        fail_malformed(absl::StrFormat("member \"%s\" given twice",
                                       std::string_view(m.name.GetString(), m.name.GetStringLength())));
  }
  const Value* name_value = string_member(op, "op", "a string");
  std::string name(name_value->GetString(), name_value->GetStringLength());
  pointer = op_pointer_ = name;
  const OpInfo* info = find_op(name);
  if (info == nullptr) fail_malformed(absl::StrFormat("unknown op \"%s\" (%s)", name, op_names()));
  switch (info->op) {
    case Op::swap_material:
      return op_swap_material(op);
    case Op::transform:
      return op_transform(op);
    case Op::set_switch_distance:
      return op_switch_distance(op, false);
    case Op::scale_switch_distance:
      return op_switch_distance(op, true);
    case Op::duplicate_instance:
      return op_duplicate_instance(op);
    case Op::remove_instance:
      return op_remove_instance(op);
    case Op::add_material:
      return op_add_material(op);
    case Op::test:
    case Op::replace:
    case Op::add:
    case Op::remove:
    case Op::move:
    case Op::copy:
      break;
  }
  // RFC 6902: members not defined for the operation are ignored.
  const Value* path = string_member(op, "path", "a JSON pointer string");
  pointer.assign(path->GetString(), path->GetStringLength());
  op_pointer_ = pointer;
  Location loc = locate(pointer);
  if (info->op == Op::remove) return modify(name, loc, nullptr, nullptr);
  if (info->op == Op::move || info->op == Op::copy) {
    const Value* from = string_member(op, "from", "a JSON pointer string");
    Location from_loc = locate({from->GetString(), from->GetStringLength()});
    if (info->op == Op::move && from_loc.segments == loc.segments) {
      read(from_loc);  // RFC 6902: a no-op, once "from" is known to exist
      return;
    }
    return modify(name, loc, &from_loc, nullptr);
  }
  const Value* value = optional_member(op, "value");
  if (value == nullptr) fail_malformed("missing \"value\"");
  if (info->op == Op::test) return op_test(loc, *value);
  modify(name, loc, nullptr, value);
}

// The overlays: each edited object's encoding (states_ is ordered by piece, so `edited` ascends). The
// engine is done after this, so the objects move out and each DOM is freed as soon as it is passed.
PatchResult Engine::finish() {
  // An object whose JSON still does not re-read fails the patch, the first in file order as in `build`,
  // for the reason build would give with the keys as they are now.
  for (auto& [piece, s] : states_) {
    if (!s.broken) continue;
    Object unused;
    if (auto reason = reread(piece, unused)) s.broken->reason = *reason;
    fail_broken(*s.broken);
  }
  PatchResult result;
  for (auto& [piece, s] : states_) {
    Document().Swap(s.dom);
    if (!s.edited) continue;
    const Piece& p = level_.pieces[piece];
    std::vector<u8> encoded;
    encoded.reserve(p.length);
    encode_object(s.object, encoded);
    // revalidate and commit refuse a change of size outside a data file (FORMAT.md 1, FORGE.md 5)
    if (encoded.size() != p.length && !resizable()) throw std::logic_error("an edited object changed size");
    if (encoded.size() != s.length) throw std::logic_error("an edited object's length is not its encoding's");
    result.edited.push_back(piece);
    result.edited_objects.push_back(std::move(s.object));
    result.overlays.push_back(std::move(encoded));
  }
  result.changes = std::move(changes_);
  return result;
}

std::optional<PatchError> check_patch_shape(const rapidjson::Value& patch) {
  auto whole = [](std::string reason) { return PatchError{PatchError::kWholePatch, "", std::move(reason), kBadPatch}; };
  if (!patch.IsArray())
    return whole(absl::StrFormat("a patch must be a JSON array of operations (found %s)", json_kind(patch)));
  if (depth_of(patch) > kMaxDepth) return whole(absl::StrFormat("nested deeper than %d levels", kMaxDepth));
  return std::nullopt;
}

PatchOutcome apply_patch(const Level& level, const rapidjson::Value& patch, const PatchOptions& options) {
  PatchOutcome outcome;
  if ((outcome.error = check_patch_shape(patch))) return outcome;
  Engine engine(level, options);
  std::size_t index = 0;
  std::string pointer;
  try {
    for (; index < patch.Size(); ++index) {
      pointer.clear();
      engine.run_op(index, patch[static_cast<rapidjson::SizeType>(index)], pointer);
    }
    index = PatchError::kWholePatch;
    outcome.result = engine.finish();
  } catch (const OpFailure& f) {
    outcome.error = f.op_index ? PatchError{*f.op_index, f.pointer, said_once(f.pointer, f.reason), f.exit_code}
                               : PatchError{index, pointer, said_once(pointer, f.reason), f.exit_code};
    outcome.error->malformed = f.malformed;
  } catch (const std::exception& e) {
    outcome.error = PatchError{index, pointer, std::string("internal error: ") + e.what(), kBadPatch};
  }
  return outcome;
}

std::optional<PatchError> parse_patch_text(std::string_view patch_json, Document& doc) {
  if (auto at = misread_json_number(patch_json))
    return PatchError{PatchError::kWholePatch, "",
                      at_text_position(patch_json, *at, "a number that the JSON parser would misread"), kBadPatch};
  doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag>(patch_json.data(), patch_json.size());
  if (doc.HasParseError())
    return PatchError{PatchError::kWholePatch, "",
                      json_syntax_error(patch_json, doc.GetParseError(), doc.GetErrorOffset()), kBadPatch};
  return std::nullopt;
}

PatchOutcome apply_patch_text(const Level& level, std::string_view patch_json, const PatchOptions& options) {
  Document doc;
  if (auto error = parse_patch_text(patch_json, doc)) {
    PatchOutcome outcome;
    outcome.error = std::move(error);
    return outcome;
  }
  return apply_patch(level, doc, options);
}

std::vector<u8> patched_bytes(const Level& original, const PatchResult& result) {
  if (result.overlays.size() != result.edited.size())
    throw std::logic_error("a patch result with overlays that do not pair up with its edited pieces");
  std::vector<u8> bytes(original.bytes.begin(), original.bytes.end());
  for (std::size_t i = 0; i < result.edited.size(); ++i) {
    const Piece& p = original.pieces.at(result.edited[i]);
    const std::vector<u8>& overlay = result.overlays[i];
    if (overlay.size() != p.length) throw std::logic_error("an overlay does not have its piece's length");
    std::memcpy(bytes.data() + p.offset, overlay.data(), overlay.size());
  }
  return bytes;
}

}  // namespace anvil::patch
