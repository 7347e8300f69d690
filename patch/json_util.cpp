#include "patch/json_util.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "model/json_text.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/json_writer.hpp"
#include "writer/object_json.hpp"

namespace anvil::patch {

std::optional<std::vector<std::string>> parse_pointer(std::string_view pointer) {
  std::vector<std::string> segments;
  if (pointer.empty()) return segments;
  if (pointer[0] != '/') return std::nullopt;
  std::size_t pos = 1;
  while (true) {
    std::size_t end = pointer.find('/', pos);
    std::string_view raw = pointer.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    std::string segment;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '~') {
        segment += raw[i];
        continue;
      }
      if (i + 1 >= raw.size() || (raw[i + 1] != '0' && raw[i + 1] != '1')) return std::nullopt;
      segment += raw[i + 1] == '0' ? '~' : '/';
      ++i;
    }
    segments.push_back(std::move(segment));
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return segments;
}

std::string escape_segment(std::string_view segment) {
  std::string out;
  for (char c : segment) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string make_pointer(const std::vector<std::string>& segments, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < segments.size(); ++i) {
    out += '/';
    out += escape_segment(segments[i]);
  }
  return out;
}

std::optional<std::size_t> parse_index(std::string_view segment) {
  if (segment.empty() || segment.size() > 18) return std::nullopt;
  if (segment.size() > 1 && segment[0] == '0') return std::nullopt;
  std::size_t value = 0;
  for (char c : segment) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return value;
}

void object_dom(const Object& object, const Piece& piece, rapidjson::Document& out) {
  auto generate = [&](rapidjson::Document& handler) {
    JsonWriter<rapidjson::Document> w(handler);
    write_object_value(w, {piece.offset, piece.length}, object);
    return true;
  };
  // A fresh document (its own memory pool): regenerating in place would keep every earlier version's
  // memory until the document goes, which 10,000 operations on one object would notice.
  rapidjson::Document fresh;
  fresh.Populate(generate);
  out = std::move(fresh);
}

void object_document(const Object& object, const Extent& extent, rapidjson::Document& out) {
  rapidjson::StringBuffer buffer;
  {
    JsonTextHandler<rapidjson::StringBuffer> handler(buffer);
    JsonWriter<JsonTextHandler<rapidjson::StringBuffer>> w(handler);
    write_object_value(w, extent, object);
  }
  rapidjson::Document fresh;  // its own memory pool, as in object_dom
  fresh.Parse<rapidjson::kParseFullPrecisionFlag>(buffer.GetString(), buffer.GetSize());
  if (fresh.HasParseError()) throw std::logic_error("the JSON of an object does not parse back");
  out = std::move(fresh);
}

std::string to_text(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  JsonTextHandler<rapidjson::StringBuffer> handler(buffer);
  value.Accept(handler);
  return {buffer.GetString(), buffer.GetSize()};
}

bool exact_equal(const rapidjson::Value& a, const rapidjson::Value& b) {
  if (a.GetType() != b.GetType()) return false;
  switch (a.GetType()) {
    case rapidjson::kNullType:
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return true;
    case rapidjson::kStringType:
      return a.GetStringLength() == b.GetStringLength() &&
             std::memcmp(a.GetString(), b.GetString(), a.GetStringLength()) == 0;
    case rapidjson::kNumberType:
      if (a.IsDouble() != b.IsDouble()) return false;
      if (a.IsDouble()) return std::bit_cast<u64>(a.GetDouble()) == std::bit_cast<u64>(b.GetDouble());
      if (a.IsUint64() != b.IsUint64()) return false;
      return a.IsUint64() ? a.GetUint64() == b.GetUint64() : a.GetInt64() == b.GetInt64();
    case rapidjson::kArrayType:
      if (a.Size() != b.Size()) return false;
      for (rapidjson::SizeType i = 0; i < a.Size(); ++i)
        if (!exact_equal(a[i], b[i])) return false;
      return true;
    case rapidjson::kObjectType: {
      if (a.MemberCount() != b.MemberCount()) return false;
      auto ia = a.MemberBegin();
      auto ib = b.MemberBegin();
      for (; ia != a.MemberEnd(); ++ia, ++ib)
        if (!exact_equal(ia->name, ib->name) || !exact_equal(ia->value, ib->value)) return false;
      return true;
    }
  }
  return false;
}

namespace {

// Two JSON numbers by mathematical value: RapidJSON holds an integer as int64 or uint64 and anything
// else as a double, and a double equals an integer only when it is that integer exactly.
bool number_equal(const rapidjson::Value& a, const rapidjson::Value& b) {
  if (a.IsDouble() && b.IsDouble()) return a.GetDouble() == b.GetDouble();
  if (!a.IsDouble() && !b.IsDouble()) {
    if (a.IsUint64() && b.IsUint64()) return a.GetUint64() == b.GetUint64();
    if (a.IsInt64() && b.IsInt64()) return a.GetInt64() == b.GetInt64();
    return false;  // a negative integer and one above INT64_MAX
  }
  const rapidjson::Value& integer = a.IsDouble() ? b : a;
  double d = a.IsDouble() ? a.GetDouble() : b.GetDouble();
  if (d != std::trunc(d)) return false;
  if (integer.IsUint64()) return d >= 0 && d < 0x1p64 && static_cast<std::uint64_t>(d) == integer.GetUint64();
  return d >= -0x1p63 && d < 0x1p63 && static_cast<std::int64_t>(d) == integer.GetInt64();
}

}  // namespace

bool json_equal(const rapidjson::Value& a, const rapidjson::Value& b) {
  if (a.IsNumber() && b.IsNumber()) return number_equal(a, b);
  if (a.IsBool() && b.IsBool()) return a.GetBool() == b.GetBool();
  if (a.GetType() != b.GetType()) return false;
  switch (a.GetType()) {
    case rapidjson::kArrayType:
      if (a.Size() != b.Size()) return false;
      for (rapidjson::SizeType i = 0; i < a.Size(); ++i)
        if (!json_equal(a[i], b[i])) return false;
      return true;
    case rapidjson::kObjectType:
      // Both ways, so that a member given twice cannot stand in for one that is missing.
      for (const auto* x : {&a, &b}) {
        const rapidjson::Value& y = x == &a ? b : a;
        for (auto& m : x->GetObject()) {
          auto it = y.FindMember(m.name);
          if (it == y.MemberEnd() || !json_equal(m.value, it->value)) return false;
        }
      }
      return true;
    default:
      return exact_equal(a, b);
  }
}

const rapidjson::Value* find(const rapidjson::Value& root, const std::vector<std::string>& segments,
                             std::size_t begin) {
  const rapidjson::Value* v = &root;
  for (std::size_t i = begin; i < segments.size(); ++i) {
    if (v->IsObject()) {
      auto it = v->FindMember(rapidjson::StringRef(segments[i].data(), segments[i].size()));
      if (it == v->MemberEnd()) return nullptr;
      v = &it->value;
    } else if (v->IsArray()) {
      auto index = parse_index(segments[i]);
      if (!index || *index >= v->Size()) return nullptr;
      v = &(*v)[static_cast<rapidjson::SizeType>(*index)];
    } else {
      return nullptr;
    }
  }
  return v;
}

namespace {

// Levenshtein distance, stopping at `limit` + 1 (member names are short; a pointer may not be).
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string did_you_mean(const rapidjson::Value& root, const std::vector<std::string>& segments, std::size_t begin) {
  const rapidjson::Value* v = &root;
  for (std::size_t i = begin; i < segments.size(); ++i) {
    const std::string& name = segments[i];
    if (v->IsArray()) {
      auto index = parse_index(name);
      if (!index || *index >= v->Size()) return "";
      v = &(*v)[static_cast<rapidjson::SizeType>(*index)];
      continue;
    }
    if (!v->IsObject()) return "";
    auto it = v->FindMember(rapidjson::StringRef(name.data(), name.size()));
    if (it != v->MemberEnd()) {
      v = &it->value;
      continue;
    }
    // A short name is nearly any other short name: allow one edit below 5 letters, two from there.
    const std::size_t limit = name.size() < 5 ? 1 : 2;
    std::string_view best;
    std::size_t best_distance = limit + 1;
    for (const auto& m : v->GetObject()) {
      std::string_view member(m.name.GetString(), m.name.GetStringLength());
      const std::size_t d = edit_distance(name, member, limit);
      if (d < best_distance) best_distance = d, best = member;
    }
    if (best_distance > limit) return "";
    return " (did you mean \"" + std::string(best) + "\"?)";
  }
  return "";
}

std::string f32_text(f32 value) {
  if (!std::isfinite(value)) return absl::StrCat("\"", json_text::format_f32_bits(value), "\"");
  std::string out;
  json_text::append_f32(out, value);
  return out;
}

std::string id_text(u64 value, std::size_t width) {
  return absl::StrCat("\"", json_text::format_id(value, width), "\"");
}

std::string matrix_text(const Matrix& m) {
  std::string out = "[";
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (i) out += ',';
    out += f32_text(m[i]);
  }
  return out + "]";
}

}  // namespace anvil::patch
