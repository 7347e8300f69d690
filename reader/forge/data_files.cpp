// Reading a data file of an archive: its stored form (stored_form.cpp), decompressed (block_decode.cpp).
#include "reader/forge/data_files.hpp"

#include <array>
#include <utility>

#include "model/forge/forge_error.hpp"

namespace anvil::forge {
namespace {

// read_data_file()'s first step: the stored form into `out` (skimmed into `out.runs` unless `copy_stored`),
// a skimmed plain one checked as read_stored() checks a copied one.
absl::Status read_stored_into(std::span<const u8> bytes, const Archive& archive, ForgeVariant as, std::size_t index,
                              bool copy_stored, DataFileRead& out) {
  auto stored = read_stored(bytes, archive, as, index, copy_stored ? nullptr : &out.runs);
  if (!stored.ok()) return stored.status();
  out.stored = std::move(*stored);
  if (!copy_stored && !out.stored.compressed && !out.runs.empty())
    return check_plain(bytes, archive, as, index, out.runs.back());
  return absl::OkStatus();
}

StoredSide stored_side(const DataFileRead& read, const Archive& archive, std::size_t index,
                       const ChecksumVerdict& checksums) {
  return {read.stored, archive.files[index].stored_offset(), checksums, read.runs};
}

}  // namespace

absl::StatusOr<DataFileRead> read_data_file(std::span<const u8> bytes, const Archive& archive, ForgeVariant as,
                                            std::size_t index, const ChecksumVerdict& checksums, bool copy_stored) {
  DataFileRead out;
  if (auto s = read_stored_into(bytes, archive, as, index, copy_stored, out); !s.ok()) return s;
  auto decoded = decode(stored_side(out, archive, index, checksums));
  if (!decoded.ok()) return with_data_file(decoded.status(), data_file_ref(archive, index));
  out.decoded = std::move(*decoded);
  return out;
}

std::array<absl::StatusOr<DataFileRead>, 2> read_data_files_together(const DataFileIn& a, const DataFileIn& b) {
  const DataFileIn* sides[] = {&a, &b};
  std::array<DataFileRead, 2> reads;
  std::array<absl::Status, 2> failed;
  for (int s = 0; s < 2; ++s)
    failed[s] =
        read_stored_into(sides[s]->bytes, sides[s]->archive, sides[s]->variant(), sides[s]->index, false, reads[s]);
  auto side = [&](int s) { return stored_side(reads[s], sides[s]->archive, sides[s]->index, sides[s]->checksums); };
  std::array<absl::StatusOr<Decoded>, 2> decoded = {absl::UnknownError(""), absl::UnknownError("")};
  if (failed[0].ok() && failed[1].ok()) {
    decoded = decode_together(side(0), side(1));
  } else {
    for (int s = 0; s < 2; ++s)
      if (failed[s].ok()) decoded[s] = decode(side(s));
  }
  std::array<absl::StatusOr<DataFileRead>, 2> out = {absl::UnknownError(""), absl::UnknownError("")};
  for (int s = 0; s < 2; ++s) {
    if (!failed[s].ok()) {
      out[s] = failed[s];
    } else if (!decoded[s].ok()) {
      out[s] = with_data_file(decoded[s].status(), data_file_ref(sides[s]->archive, sides[s]->index));
    } else {
      reads[s].decoded = std::move(*decoded[s]);
      out[s] = std::move(reads[s]);
    }
  }
  return out;
}

}  // namespace anvil::forge
