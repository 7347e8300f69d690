#include "pipeline/mods/package_mod.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <set>
#include <span>
#include <utility>

#include "model/counted.hpp"
#include "patch/mod_document.hpp"
#include "pipeline/mods/sha256.hpp"
#include "pipeline/mods/shipped_addition.hpp"
#include "pipeline/mods/shipped_data_file.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"

namespace anvil::mods {
namespace {

rapidjson::Value json_value(const std::string& text, rapidjson::Document::AllocatorType& alloc) {
  rapidjson::Document parsed;
  parsed.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  rapidjson::Value out;
  out.CopyFrom(parsed, alloc);
  return out;
}

std::string member_label(const ModPackage& package, const PackageFile& file) {
  return absl::StrFormat("%s: member '%s'", package.path, file.relative);
}

// The operations of the anvilrt documents the package holds, in order.
absl::Status append_documents(const ModPackage& package, rapidjson::Document& patch) {
  for (const PackageFile& file : package.documents) {
    auto bytes = package_file_bytes(file);
    if (!bytes.ok()) return bytes.status();
    const std::string text(bytes->begin(), bytes->end());
    auto doc = patch::parse_mod(member_label(package, file), text);
    if (!doc.ok()) return doc.status();
    for (const rapidjson::Value& op : doc->patch.GetArray()) {
      rapidjson::Value copy;
      copy.CopyFrom(op, patch.GetAllocator());
      patch.PushBack(copy, patch.GetAllocator());
    }
  }
  return absl::OkStatus();
}

// A shipped data file's effect, added to the mod: its operations, and the data file it replaces, if any.
absl::Status add_effect(const std::string& archive, ShippedEffect effect, const std::string& label, LoadedMod& mod) {
  append_effect_ops(effect.ops, mod.doc.patch);
  if (!effect.replacement) return absl::OkStatus();
  const std::string key = patch::replaced_data_file_key(archive, effect.datafile);
  if (mod.replacements.count(key))
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: the package ships %s's data file %s twice", label, archive, effect.datafile));
  mod.doc.replaces[key] = sha256_hex(std::vector<std::span<const u8>>{*effect.replacement});
  mod.replacements[key] = std::move(*effect.replacement);
  return absl::OkStatus();
}

// A shipped data file its archive lacks, added to the mod (with --allow-new).
absl::Status add_addition(folder::FolderLevels& originals, const ShippedDataFile& shipped, LoadedMod& mod) {
  auto added = shipped_data_file_addition(originals, shipped);
  if (!added.ok()) return added.status();
  const std::string key = patch::replaced_data_file_key(shipped.archive, added->datafile);
  if (mod.additions.count(key))
    return absl::InvalidArgumentError(absl::StrFormat("%s: the package adds %s's data file %s twice", shipped.label,
                                                      shipped.archive, added->datafile));
  mod.doc.adds[key] = {sha256_hex(std::vector<std::span<const u8>>{added->bytes}), added->file_id, added->file_type};
  mod.additions[key] = std::move(added->bytes);
  return absl::OkStatus();
}

// The effect of a shipped data file, or (where its archive lacks it and `allow_new`) its addition.
absl::Status add_shipped(folder::FolderLevels& originals, const ShippedDataFile& shipped, bool allow_new,
                         LoadedMod& mod) {
  auto effect = shipped_data_file_effect(originals, shipped);
  if (absl::IsNotFound(effect.status()) && allow_new) return add_addition(originals, shipped, mod);
  if (!effect.ok()) return absl::InvalidArgumentError(effect.status().message());
  return add_effect(shipped.archive, std::move(*effect), shipped.label, mod);
}

absl::Status add_data_files(const ModPackage& package, folder::FolderLevels& originals, bool allow_new,
                            LoadedMod& mod) {
  for (const PackagedDataFile& d : package.datafiles) {
    auto bytes = package_file_view(d.file);
    if (!bytes.ok()) return bytes.status();
    // AnvilToolkit's "<id>_-_<name>.data" names the data file by its name, and by its id where the name repeats.
    const std::string& name = d.id ? d.name_after_id : d.name;
    const std::string label = member_label(package, d.file);
    if (auto s = add_shipped(originals, {d.archive, name, d.id, bytes->bytes(), label}, allow_new, mod); !s.ok())
      return s;
  }
  return absl::OkStatus();
}

// Data file j of a shipped whole archive `mine`, which the folder's archive `archive` lacks, added to the mod:
// with the name, id and type its own tables give it.
absl::Status add_new_data_file(const std::string& archive, forge::ArchiveLevels& mine, std::size_t j,
                               const std::string& label, folder::FolderLevels& originals, LoadedMod& mod) {
  const forge::DataFileAt& file = mine.archive().files[mine.archive_index(j)];
  auto decompressed = mine.decompressed(j);
  if (!decompressed.ok())
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s", label, decompressed.status().message()));
  ShippedDataFile shipped{archive,
                          std::string(forge::data_file_name(file)),
                          file.index.file_id.value,
                          (*decompressed)->bytes,
                          absl::StrFormat("%s: data file '%s'", label, mine.name(j)),
                          true,
                          file.name.file_type.value};
  auto s = add_addition(originals, shipped, mod);
  mine.release(j);
  return s;
}

// A whole archive: each of its data files whose stored bytes differ from the original's, as a shipped data
// file. One the original has not is refused, or added with `allow_new`; one it lacks is refused: a mod removes
// no data file.
absl::Status add_archive(const ModPackage& package, const PackagedArchive& shipped, folder::FolderLevels& originals,
                         bool allow_new, LoadedMod& mod) {
  const std::string label = member_label(package, shipped.file);
  const std::optional<std::size_t> a = originals.folder().find(shipped.name);
  if (!a)
    return absl::InvalidArgumentError(absl::StrFormat("%s: the game folder has no archive %s", label, shipped.name));
  auto set = originals.levels(*a);
  if (!set.ok()) return set.status();
  forge::ArchiveLevels& original = **set;
  auto file = package_file_view(shipped.file);
  if (!file.ok()) return file.status();
  const std::span<const u8> bytes = file->bytes();
  auto archive = forge::read_archive(bytes);
  if (!archive.ok()) return absl::InvalidArgumentError(absl::StrFormat("%s: %s", label, archive.status().message()));
  forge::ArchiveLevels mine(bytes, *archive, original.game());
  std::set<std::string> seen;
  const std::span<const u8> original_bytes = originals.input(*a).bytes();
  for (std::size_t j = 0; j < mine.size(); ++j) {
    const std::string& name = mine.name(j);
    const std::optional<std::size_t> i = original.find(name);
    if (!i && !allow_new)
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: data file '%s' is not in the folder's %s (--allow-new adds it)", label, name, shipped.name));
    if (!i) {
      if (auto s = add_new_data_file(shipped.name, mine, j, label, originals, mod); !s.ok()) return s;
      continue;
    }
    seen.insert(name);
    const Extent x = original.stored_extent(*i), y = mine.stored_extent(j);
    const auto stored_x = original_bytes.subspan(x.offset, x.length);
    const auto stored_y = bytes.subspan(y.offset, y.length);
    if (std::ranges::equal(stored_x, stored_y)) continue;
    auto decompressed = mine.decompressed(j);
    if (!decompressed.ok())
      return absl::InvalidArgumentError(absl::StrFormat("%s: %s", label, decompressed.status().message()));
    const std::string member = absl::StrFormat("%s: data file '%s'", label, name);
    auto effect =
        shipped_data_file_effect(originals, {shipped.name, name, std::nullopt, (*decompressed)->bytes, member, true});
    mine.release(j);
    if (!effect.ok()) return effect.status();
    if (auto s = add_effect(shipped.name, std::move(*effect), member, mod); !s.ok()) return s;
  }
  for (std::size_t i = 0; i < original.size(); ++i)
    if (!seen.count(original.name(i)))
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: lacks the folder's data file '%s' of %s (a mod removes no data file)", label,
                          original.name(i), shipped.name));
  return absl::OkStatus();
}

}  // namespace

void append_effect_ops(const std::vector<patch::DiffOp>& ops, rapidjson::Document& patch) {
  auto& alloc = patch.GetAllocator();
  for (const patch::DiffOp& d : ops) {
    rapidjson::Value op(rapidjson::kObjectType);
    const char* name = d.kind == patch::DiffOp::kReplace ? "replace" : d.kind == patch::DiffOp::kAdd ? "add" : "remove";
    op.AddMember("op", rapidjson::Value(name, alloc), alloc);
    op.AddMember("path", rapidjson::Value(d.path.c_str(), static_cast<rapidjson::SizeType>(d.path.size()), alloc),
                 alloc);
    if (d.kind != patch::DiffOp::kRemove) op.AddMember("value", json_value(d.new_value, alloc), alloc);
    patch.PushBack(op, alloc);
  }
}

absl::StatusOr<LoadedMod> package_mod(const ModPackage& package, folder::FolderLevels& originals, bool allow_new) {
  LoadedMod mod;
  mod.path = package.path;
  patch::ModDocument& doc = mod.doc;
  doc.name = package.info.name;
  doc.version = package.info.version;
  doc.author = package.info.author;
  doc.description = package.info.description;
  doc.game = package.info.game;
  doc.made_for = package.info.made_for;
  if (auto s = append_documents(package, doc.patch); !s.ok()) return s;
  if (auto s = add_data_files(package, originals, allow_new, mod); !s.ok()) return s;
  for (const PackagedArchive& a : package.archives)
    if (auto s = add_archive(package, a, originals, allow_new, mod); !s.ok()) return s;
  mod.text = patch::mod_text(doc);
  mod.digest = package.digest;
  return mod;
}

}  // namespace anvil::mods
