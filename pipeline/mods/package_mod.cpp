#include "pipeline/mods/package_mod.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <set>
#include <span>
#include <utility>

#include "model/counted.hpp"
#include "patch/mod_document.hpp"
#include "pipeline/mods/sha256.hpp"
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

absl::Status add_data_files(const ModPackage& package, folder::FolderLevels& originals, LoadedMod& mod) {
  for (const PackagedDataFile& d : package.datafiles) {
    auto bytes = package_file_view(d.file);
    if (!bytes.ok()) return bytes.status();
    // AnvilToolkit's "<id>_-_<name>.data" names the data file by its name, and by its id where the name repeats.
    const std::string& name = d.id ? d.name_after_id : d.name;
    const std::string label = member_label(package, d.file);
    auto effect = shipped_data_file_effect(originals, {d.archive, name, d.id, bytes->bytes(), label});
    if (!effect.ok()) return effect.status();
    if (auto s = add_effect(d.archive, std::move(*effect), label, mod); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A whole archive: each of its data files whose stored bytes differ from the original's, as a shipped data
// file. One the original has not, or that it lacks, is refused: a mod adds or removes no data file.
absl::Status add_archive(const ModPackage& package, const PackagedArchive& shipped, folder::FolderLevels& originals,
                         LoadedMod& mod) {
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
    if (!i)
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: data file '%s' is not in the folder's %s (a mod adds no data file)", label, name, shipped.name));
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

absl::StatusOr<LoadedMod> package_mod(const ModPackage& package, folder::FolderLevels& originals) {
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
  if (auto s = add_data_files(package, originals, mod); !s.ok()) return s;
  for (const PackagedArchive& a : package.archives)
    if (auto s = add_archive(package, a, originals, mod); !s.ok()) return s;
  mod.text = patch::mod_text(doc);
  mod.digest = package.digest;
  return mod;
}

}  // namespace anvil::mods
