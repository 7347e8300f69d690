#include "pipeline/mods/shipped_addition.hpp"

#include <absl/strings/match.h>
#include <absl/strings/str_format.h>

#include <utility>

#include "model/forge/archive.hpp"
#include "model/forge/name_entry.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::mods {

absl::StatusOr<ShippedAddition> shipped_data_file_addition(folder::FolderLevels& originals,
                                                           const ShippedDataFile& shipped) {
  auto fail = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", shipped.label, what));
  };
  auto found = shipped_archive(originals, shipped);
  if (!found.ok()) return found.status();
  const forge::ArchiveLevels& levels = *found->levels;
  const forge::Archive& archive = levels.archive();
  const std::string name = shipped.name.substr(0, shipped.name.find('\0'));
  if (name.empty() || name.size() > forge::kDataFileNameSize)
    return fail(absl::StrFormat("a data file's name has 1 to %d bytes: '%s' cannot be added to %s",
                                forge::kDataFileNameSize, forge::printable_name(name), shipped.archive));
  // As `put --add` refuses it: a name another data file has, ASCII case ignored, would be listed under
  // another unique name than the one shipped.
  for (const forge::DataFileAt& file : archive.files)
    if (absl::EqualsIgnoreCase(std::string(forge::data_file_name(file)), name))
      return fail(
          absl::StrFormat("%s has a data file '%s' whose name differs only in case; name it as the archive does",
                          shipped.archive, forge::printable_name(forge::data_file_name(file))));
  const forge::ForgeVariant variant = archive.variant();
  absl::StatusOr<std::vector<u8>> bytes = shipped.decompressed
                                              ? std::vector<u8>(shipped.bytes.begin(), shipped.bytes.end())
                                              : decompress_shipped(shipped.bytes, variant, levels.checksums().verdict);
  if (!bytes.ok()) return fail(std::string(bytes.status().message()));
  auto view = forge::view_data_file(*bytes, variant);
  if (!view.ok()) return fail(std::string(view.status().message()));
  const forge::Entry* first = view->file.entries.empty() ? nullptr : &view->file.entries.front();
  if (!first && (!shipped.id || !shipped.file_type))
    return fail("it has no entry to take an id and a type from, so it cannot be added");
  ShippedAddition added;
  added.datafile = name;
  added.file_id = shipped.id ? *shipped.id : first->file_id.value;
  added.file_type = shipped.file_type ? *shipped.file_type : first->resource_type;
  added.bytes = std::move(*bytes);
  return added;
}

}  // namespace anvil::mods
