// A decompressed data file's entry table and resource headers (FORGE.md 3, 7), and where its bodies and size
// fields lie.
#include <absl/strings/str_format.h>

#include <optional>
#include <string>
#include <utility>

#include "model/counted.hpp"
#include "model/forge/archive.hpp"
#include "model/forge/forge_error.hpp"
#include "reader/byte_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

namespace {

// The entry table of a decompressed data file; with `runs`, skimmed (ByteReader::skim_into).
absl::Status read_data_file_table(std::span<const u8> decoded, DataFile& file, std::vector<std::span<const u8>>* runs,
                                  ForgeVariant variant) {
  if (decoded.empty()) return absl::OkStatus();  // an empty data file holds no entries
  ByteReader reader(decoded);
  reader.skim_into(runs);
  serialize_root(reader, file, variant.code());
  auto error = [&](u64 offset, std::string reason, std::optional<ForgeError::Entry> entry = std::nullopt) {
    return ForgeError{.offset = offset,
                      .offset_in = ForgeError::OffsetIn::data_file,
                      .entry = std::move(entry),
                      .reason = std::move(reason),
                      .read_as = read_as(variant)}
        .status();
  };
  if (const auto& failure = reader.failure()) {
    std::optional<ForgeError::Entry> entry;
    if (failure->element) {
      // Its name once read (the resource's header comes before its body), else its index alone.
      const Entry& e = file.entries[*failure->element];
      entry = ForgeError::Entry{*failure->element, printable_name(e.name.bytes)};
    }
    return error(failure->offset, failure->message(), std::move(entry));
  }
  if (reader.remaining() != 0)
    return error(reader.pos(), absl::StrFormat("%s after the last body", counted(reader.remaining(), "byte")));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DataFile> parse_data_file(std::span<const u8> decoded, ForgeVariant variant) {
  DataFile file;
  if (auto s = read_data_file_table(decoded, file, nullptr, variant); !s.ok()) return s;
  return file;
}

absl::StatusOr<DataFileView> view_data_file(std::span<const u8> decoded, ForgeVariant variant) {
  DataFileView view;
  view.bytes = decoded;
  view.variant = variant;
  if (auto s = read_data_file_table(decoded, view.file, &view.runs, variant); !s.ok()) return s;
  view.first_entry_run = view.runs.size() - 2 * view.file.entries.size();
  return view;
}

u64 entry_head_size(const Entry& entry, ForgeVariant variant) {
  FieldWalker walker(variant.code());
  HeadOf<Entry>{const_cast<Entry&>(entry)}.serialize(walker, variant.code());
  return walker.size;
}

u64 data_size_offset(const Entry& entry, ForgeVariant variant) {
  FieldWalker walker(variant.code());
  walker.wanted = "data_size";
  HeadOf<Entry>{const_cast<Entry&>(entry)}.serialize(walker, variant.code());
  return *walker.wanted_at;
}

u64 table_end(const DataFile& file, ForgeVariant variant) {
  // The declaration walked up to the bodies: the count, the entries' rows and the tails of the layout.
  FieldWalker walker(variant.code());
  const_cast<DataFile&>(file).serialize(walker, variant.code());
  return *walker.bodies_at;
}

namespace {
// The bytes of an entry's resource header (type, size, name, flag and its records), before its body.
u64 resource_header_size(const Entry& entry, ForgeVariant variant) {
  FieldWalker walker(variant.code());
  walker.wanted = "body";
  BodyOf<Entry>{const_cast<Entry&>(entry)}.serialize(walker, variant.code());
  return *walker.wanted_at;
}
}  // namespace

std::vector<BodyAt> body_layout(const DataFile& file, ForgeVariant variant) {
  std::vector<BodyAt> out;
  if (file.entries.empty() && file.unknown.bytes.empty() && file.unknown_26.bytes.empty()) return out;
  u64 at = table_end(file, variant);
  for (std::size_t i = 0; i < file.entries.size(); ++i) {
    const Entry& e = file.entries[i];
    at += resource_header_size(e, variant);
    out.push_back({i, at, e.body.bytes.size()});
    at += e.body.bytes.size();
  }
  return out;
}

std::vector<BodyAt> body_layout(const DataFileView& view) {
  std::vector<BodyAt> out;
  for (std::size_t i = 0; i < view.file.entries.size(); ++i) {
    std::span<const u8> body = view.body(i);
    out.push_back({i, static_cast<u64>(body.data() - view.bytes.data()), body.size()});
  }
  return out;
}

std::vector<SizeFieldsAt> size_fields(const DataFileView& view) {
  std::vector<SizeFieldsAt> out;
  u64 head_at = sizeof(u16);  // where the entry's head starts in the entries' table
  std::size_t headed = 0;
  for (const BodyAt& body : body_layout(view)) {
    for (; headed < body.entry; ++headed) head_at += entry_head_size(view.file.entries[headed], view.variant);
    const Entry& e = view.file.entries[body.entry];
    // [u32 resource_type][u32 file_size][u32 name_length][name][u8 flag], flag 1: [3 bytes][u32 k][12k bytes]
    const u64 flag_part = e.flag == 1 ? e.flag_unknown.bytes.size() + 4 + 12 * u64{e.flag_records.size()} : 0;
    const u64 header_tail = flag_part + 1 + view.name(body.entry).size() + 4;
    out.push_back({body, head_at + data_size_offset(e, view.variant), body.offset - header_tail - 4});
  }
  return out;
}

}  // namespace anvil::forge
