#include "model/forge/forge_error.hpp"

#include <absl/strings/cord.h>
#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <utility>

namespace anvil::forge {
namespace {
// Abseil's own string_view (Debian builds it apart from std::string_view).
absl::string_view as_absl(std::string_view s) { return {s.data(), s.size()}; }
}  // namespace

std::string data_file_text(const ForgeError::DataFile& file) {
  return absl::StrFormat("data file %d '%s' (%s)", file.index, file.name, file.id);
}

std::string ForgeError::message() const {
  std::string out;
  auto part = [&](std::string_view text) { absl::StrAppend(&out, as_absl(text), ": "); };
  if (!archive.empty()) part(archive);
  const bool decompressed = offset && offset_in == OffsetIn::data_file;
  if (offset && !decompressed) part(absl::StrFormat("offset 0x%x", *offset));
  if (data_file) part(data_file_text(*data_file));
  if (decompressed) part(absl::StrFormat("decompressed offset 0x%x", *offset));
  if (block) part(absl::StrFormat("set %d block %d", block->set, block->index));
  if (entry)
    part(entry->name.empty() ? absl::StrFormat("entry %d", entry->index)
                             : absl::StrFormat("entry %d '%s'", entry->index, entry->name));
  out += reason;
  if (!rule.empty()) absl::StrAppend(&out, " under the archive's checksum rule ", rule);
  if (read_as) {
    absl::StrAppend(&out, " (read as version ", read_as->version);
    if (read_as->layout) absl::StrAppend(&out, ", layout ", *read_as->layout);
    if (!read_as->game.empty()) absl::StrAppend(&out, ", game ", read_as->game);
    out += ')';
  }
  return out;
}

// The payload: every field as a netstring ("5:hello"), in declaration order, an optional one after a
// netstring saying whether it is there. Only status() writes it and of() reads it, in one build.
namespace {

constexpr std::string_view kPayloadUrl = "type.anvilrt/anvil.forge.ForgeError";

class PayloadWriter {
 public:
  void text(std::string_view s) { absl::StrAppend(&out_, s.size(), ":", as_absl(s)); }
  void number(u64 n) { text(absl::StrCat(n)); }
  bool present(bool there) {
    number(there);
    return there;
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class PayloadReader {
 public:
  explicit PayloadReader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  std::string text() {
    const std::size_t colon = in_.find(':');
    std::size_t size = 0;
    if (!ok_ || colon == std::string_view::npos || !absl::SimpleAtoi(as_absl(in_.substr(0, colon)), &size) ||
        size > in_.size() - colon - 1) {
      ok_ = false;
      return {};
    }
    std::string out(in_.substr(colon + 1, size));
    in_.remove_prefix(colon + 1 + size);
    return out;
  }
  u64 number() {
    u64 n = 0;
    if (!absl::SimpleAtoi(text(), &n)) ok_ = false;
    return n;
  }
  bool present() { return number() != 0; }

 private:
  std::string_view in_;
  bool ok_ = true;
};

std::string encode(const ForgeError& e) {
  PayloadWriter w;
  w.text(e.archive);
  if (w.present(e.offset.has_value())) w.number(*e.offset);
  w.number(static_cast<u64>(e.offset_in));
  if (w.present(e.data_file.has_value())) {
    w.number(e.data_file->index);
    w.text(e.data_file->name);
    w.text(e.data_file->id);
  }
  if (w.present(e.block.has_value())) {
    w.number(e.block->set);
    w.number(e.block->index);
  }
  if (w.present(e.entry.has_value())) {
    w.number(e.entry->index);
    w.text(e.entry->name);
  }
  w.text(e.reason);
  w.text(e.rule);
  if (w.present(e.read_as.has_value())) {
    w.number(e.read_as->version);
    if (w.present(e.read_as->layout.has_value())) w.number(*e.read_as->layout);
    w.text(e.read_as->game);
  }
  return w.take();
}

std::optional<ForgeError> decode(std::string_view payload, absl::StatusCode code) {
  PayloadReader r(payload);
  ForgeError e;
  e.code = code;
  e.archive = r.text();
  if (r.present()) e.offset = r.number();
  e.offset_in = r.number() != 0 ? ForgeError::OffsetIn::data_file : ForgeError::OffsetIn::archive;
  if (r.present()) e.data_file = ForgeError::DataFile{r.number(), r.text(), r.text()};
  if (r.present()) e.block = ForgeError::Block{r.number(), r.number()};
  if (r.present()) e.entry = ForgeError::Entry{r.number(), r.text()};
  e.reason = r.text();
  e.rule = r.text();
  if (r.present()) {
    e.read_as = ForgeError::ReadAs{};
    e.read_as->version = static_cast<u32>(r.number());
    if (r.present()) e.read_as->layout = static_cast<u8>(r.number());
    e.read_as->game = r.text();
  }
  if (!r.ok()) return std::nullopt;
  return e;
}

}  // namespace

absl::Status ForgeError::status() const {
  absl::Status out(code, message());
  out.SetPayload(as_absl(kPayloadUrl), absl::Cord(encode(*this)));
  return out;
}

std::optional<ForgeError> ForgeError::of(const absl::Status& status) {
  if (status.ok()) return std::nullopt;
  auto payload = status.GetPayload(as_absl(kPayloadUrl));
  if (!payload) return std::nullopt;
  return decode(std::string(*payload), status.code());
}

absl::Status with_data_file(const absl::Status& status, const ForgeError::DataFile& file) {
  if (status.ok()) return status;
  std::optional<ForgeError> e = ForgeError::of(status);
  if (!e) return absl::Status(status.code(), absl::StrCat(data_file_text(file), ": ", status.message()));
  if (!e->data_file) e->data_file = file;
  return e->status();
}

absl::Status with_archive(const absl::Status& status, std::string_view path) {
  if (status.ok()) return status;
  std::optional<ForgeError> e = ForgeError::of(status);
  if (!e) return absl::Status(status.code(), absl::StrCat(as_absl(path), ": ", status.message()));
  if (e->archive.empty()) e->archive = std::string(path);
  return e->status();
}

std::string message_under(const absl::Status& status, const ForgeError::DataFile& file) {
  std::optional<ForgeError> e = ForgeError::of(status);
  if (!e) return std::string(status.message());
  if (e->data_file && e->data_file->index == file.index) e->data_file.reset();
  return e->message();
}

absl::Status with_game(const absl::Status& status, std::string_view game) {
  std::optional<ForgeError> e = ForgeError::of(status);
  if (!e || !e->read_as || !e->read_as->game.empty()) return status;
  e->read_as->game = std::string(game);
  return e->status();
}

}  // namespace anvil::forge
