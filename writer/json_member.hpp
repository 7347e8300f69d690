// One member of a declared structure, written into the JSON object that is open by the saving JSON
// archive (writer/json_writer.hpp): its key is the declaration's NVP name and its value is spelled as the
// archive spells that field everywhere (an id as "0x" + hex digits, a number as a number). A listing that
// shows some fields of a structure (`ls --json`) takes them this way, so that its member names and shapes
// follow the declaration.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "writer/json_writer.hpp"

namespace anvil {

// A RapidJSON handler that passes on the member named `wanted` of the object being walked (its key and
// its whole value) and drops every other.
template <class Handler>
class MemberPick {
 public:
  MemberPick(Handler& out, std::string_view wanted) : out_(out), wanted_(wanted) {}

  bool found() const { return found_; }

  bool Key(const char* text, unsigned size, bool copy) {
    if (depth_ == 0) {
      passing_ = std::string_view(text, size) == wanted_;
      found_ = found_ || passing_;
    }
    return !passing_ || out_.Key(text, size, copy);
  }
  bool Null() { return !passing_ || out_.Null(); }
  bool Bool(bool b) { return !passing_ || out_.Bool(b); }
  bool Int(int v) { return !passing_ || out_.Int(v); }
  bool Uint(unsigned v) { return !passing_ || out_.Uint(v); }
  bool Int64(std::int64_t v) { return !passing_ || out_.Int64(v); }
  bool Uint64(std::uint64_t v) { return !passing_ || out_.Uint64(v); }
  bool Double(double v) { return !passing_ || out_.Double(v); }
  bool String(const char* text, unsigned size, bool copy) { return !passing_ || out_.String(text, size, copy); }
  bool StartObject() {
    ++depth_;
    return !passing_ || out_.StartObject();
  }
  bool EndObject(unsigned members) {
    --depth_;
    return !passing_ || out_.EndObject(members);
  }
  bool StartArray() {
    ++depth_;
    return !passing_ || out_.StartArray();
  }
  bool EndArray(unsigned elements) {
    --depth_;
    return !passing_ || out_.EndArray(elements);
  }

 private:
  Handler& out_;
  std::string_view wanted_;
  unsigned depth_ = 0;  // inside the value of a member of the structure walked
  bool passing_ = false;
  bool found_ = false;
};

// Writes `value`'s field `name` (as the structure of `version` declares it) as a member of the object
// open on `out`. A name the declaration does not have is a programming error (std::logic_error, as
// model/forge/variant.hpp field_offset throws): a listing cannot silently lose a member the declaration
// renamed.
template <class Handler, class T>
void write_member(Handler& out, const T& value, unsigned version, std::string_view name) {
  MemberPick<Handler> pick(out, name);
  JsonWriter<MemberPick<Handler>> writer(pick);
  T copy = value;  // a declaration run for saving may derive a field (a size) as it goes
  serialize_root(writer, copy, version);
  if (!pick.found()) throw std::logic_error("write_member: no field \"" + std::string(name) + "\" in the declaration");
}

}  // namespace anvil
