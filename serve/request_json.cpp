// The API's JSON bodies (serve/request_json.hpp).
#include "serve/request_json.hpp"

#include <rapidjson/error/en.h>

#include <string>
#include <utility>
#include <vector>

namespace anvil::serve {

std::size_t json_depth(const rapidjson::Value& value) {
  std::vector<std::pair<const rapidjson::Value*, std::size_t>> stack{{&value, 1}};
  std::size_t deepest = 0;
  while (!stack.empty()) {
    auto [v, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    if (v->IsArray())
      for (const rapidjson::Value& e : v->GetArray()) stack.emplace_back(&e, depth + 1);
    else if (v->IsObject())
      for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m) stack.emplace_back(&m->value, depth + 1);
  }
  return deepest;
}

absl::Status parse_request(std::string_view body, rapidjson::Document& out) {
  if (body.size() > kMaxBodyBytes) return absl::InvalidArgumentError("the request body is larger than 1 MiB");
  out.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag>(body.data(), body.size());
  if (out.HasParseError())
    return absl::InvalidArgumentError(std::string("the request is not JSON: ") +
                                      rapidjson::GetParseError_En(out.GetParseError()) + " at byte " +
                                      std::to_string(out.GetErrorOffset()));
  if (!out.IsObject()) return absl::InvalidArgumentError("the request is not a JSON object");
  if (json_depth(out) > kMaxJsonDepth) return absl::InvalidArgumentError("the request's JSON is nested deeper than 64");
  return absl::OkStatus();
}

}  // namespace anvil::serve
