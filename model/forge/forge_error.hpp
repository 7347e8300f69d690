// An error of the forge layer as a value (docs/design.md, "Forge errors"): what it is about (the archive,
// the data file, the block or chunk, the entry, the offset and which bytes it counts in, the checksum rule)
// and the variant the bytes were read as, with the reason. It travels inside an absl::Status as a payload,
// so that a caller that knows more (the data file, the archive's path) fills a field and formats the line
// again; message() is the one place that turns it into text.
#pragma once

#include <absl/status/status.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "model/forge/variant.hpp"
#include "model/primitives.hpp"

namespace anvil::forge {

struct ForgeError {
  // Which bytes `offset` counts in: the archive's, or the decompressed data file's.
  enum class OffsetIn : u8 { archive, data_file };

  struct DataFile {
    std::size_t index = 0;
    std::string name{};  // printable_name() of its name entry
    std::string id{};    // its file_id, formatted (format_id)
    friend bool operator==(const DataFile&, const DataFile&) = default;
  };
  struct Block {
    std::size_t set = 0;    // 0 or 1
    std::size_t index = 0;  // in the set's blocks, or its chunks (BlockAt::block): "block" names either
    friend bool operator==(const Block&, const Block&) = default;
  };
  struct Entry {
    std::size_t index = 0;
    std::string name{};  // printable; empty when not known
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  // The variant the bytes were read as: the archive version, the data-file layout when it shaped the read
  // (the tables are read by the version alone) and the game when known.
  struct ReadAs {
    u32 version = 0;
    std::optional<u8> layout{};
    std::string game{};
    friend bool operator==(const ReadAs&, const ReadAs&) = default;
  };

  absl::StatusCode code = absl::StatusCode::kInvalidArgument;
  std::string archive{};  // the archive's path; empty when the reader was given bytes alone
  std::optional<u64> offset{};
  OffsetIn offset_in = OffsetIn::archive;
  std::optional<DataFile> data_file{};
  std::optional<Block> block{};
  std::optional<Entry> entry{};
  std::string reason{};
  std::string rule{};  // the archive's checksum rule, described (ChecksumVerdict::describe), when one applies
  std::optional<ReadAs> read_as{};

  // The one line: "PATH: offset 0x1a2b: data file 3 'x' (0x0001a2b3): set 1 block 2: REASON under the
  // archive's checksum rule RULE (read as version 27, layout 3)". An offset in the decompressed data file
  // follows the data file ("data file 3 'x' (…): decompressed offset 0x40: entry 2: …"); each part only
  // when known.
  std::string message() const;

  // As an absl::Status of `code` whose message is message(), carrying the value as its payload.
  absl::Status status() const;
  // The value a status() carries; none for another status (OK, or an error from elsewhere).
  static std::optional<ForgeError> of(const absl::Status& status);

  friend bool operator==(const ForgeError&, const ForgeError&) = default;
};

// `variant` as its bytes were read: the version and the layout (a data file's stored form and entries), or
// the version alone (the archive's tables, which the layout does not shape).
inline ForgeError::ReadAs read_as(ForgeVariant variant) { return {variant.archive, variant.layout, {}}; }
inline ForgeError::ReadAs read_as_version(ForgeVariant variant) { return {variant.archive, std::nullopt, {}}; }

// "data file 3 'level_01' (0x0001a2b3)": how a data file is named, in errors and in lines that name one.
std::string data_file_text(const ForgeError::DataFile& file);

// `status` with context added by a caller that knows it: a ForgeError's missing field filled (a field
// already set is kept: the reader that set it knew better) and its message formatted again; any other
// error has the text put before it ("data file 3 'x' (…): ", "PATH: "). OK stays OK.
absl::Status with_data_file(const absl::Status& status, const ForgeError::DataFile& file);
absl::Status with_archive(const absl::Status& status, std::string_view path);
// The message of `status` for a line that names `file` already (verify's line of a data file): a ForgeError
// about that data file without it, so that the line names it once; any other error's message as it is.
std::string message_under(const absl::Status& status, const ForgeError::DataFile& file);
// The game the data file was read for (its objects carved as), on a ForgeError that says what it was read as;
// any other status unchanged.
absl::Status with_game(const absl::Status& status, std::string_view game);

}  // namespace anvil::forge
