// The opened input and the patch engine's answers about it (serve/session.hpp).
#include "serve/session.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>

#include <filesystem>

#include "patch/archive_patch.hpp"
#include "patch/json_util.hpp"
#include "patch/object_keys.hpp"
#include "pipeline/archive_patch_output.hpp"
#include "pipeline/data_file_patch.hpp"
#include "pipeline/folder_patch.hpp"
#include "pipeline/folder_patch_run.hpp"
#include "pipeline/patch_output.hpp"
#include "platform/replace_file.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/level.hpp"
#include "view/folder_level_set.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/object_json.hpp"

namespace anvil::serve {

// A level file or a lone data file as a set of one level, carved once at start.
class Session::SingleLevel final : public LevelSet {
 public:
  SingleLevel(const ServeInput& input)
      : name_(std::filesystem::path(input.path).filename().string()),
        level_(carve_source(input.input->bytes(), input.source, input.game)) {}

  Game game() const override { return level_.game; }
  std::size_t size() const override { return 1; }
  const std::string& name(std::size_t) const override { return name_; }
  absl::StatusOr<const Level*> level(std::size_t) override { return &level_; }
  void release(std::size_t) override {}
  absl::StatusOr<std::span<const u8>> bytes_of(std::size_t) override { return level_.bytes; }
  const Level& carved() const { return level_; }

 private:
  std::string name_;
  Level level_;
};

namespace {

std::string object_value_json(const Object& object, const Extent& extent) {
  rapidjson::StringBuffer buffer;
  {
    JsonTextHandler<rapidjson::StringBuffer> handler(buffer);
    JsonWriter<JsonTextHandler<rapidjson::StringBuffer>> w(handler);
    write_object_value(w, extent, object);
  }
  return {buffer.GetString(), buffer.GetSize()};
}

PatchCheck from_error(const patch::PatchError& e, const std::string& file) {
  PatchCheck check;
  check.exit_code = e.exit_code;
  // As `anvilrt patch` words it: a data file that does not read is the file's fault, not the patch's.
  check.error = e.line("", file);
  return check;
}

// The edited object `piece` of a patch result, if the patch edited it.
const Object* edited(const patch::PatchResult& result, std::size_t piece, std::size_t& index) {
  for (std::size_t i = 0; i < result.edited.size(); ++i)
    if (result.edited[i] == piece) {
      index = i;
      return &result.edited_objects[i];
    }
  return nullptr;
}

}  // namespace

Session::Session(const ServeInput& input) : input_(input) {
  if (input.folder != nullptr) {
    folder::FolderOptions options = input.folder_options;
    options.save_key_cache = false;  // the editor writes nothing into the folder it opened
    folder_levels_ = std::make_unique<folder::FolderLevels>(*input.folder, options);
    auto set = view::FolderLevelSet::open(*folder_levels_);
    if (set.ok()) {
      folder_ = std::move(*set);
      input_.game = folder_->game();
    } else
      status_ = set.status();
    return;
  }
  if (input.archive != nullptr)
    archive_ = std::make_unique<forge::ArchiveLevels>(input.input->bytes(), *input.archive, input.game);
  else
    single_ = std::make_unique<SingleLevel>(input);
}

Session::~Session() = default;

LevelSet& Session::set() {
  if (folder_) return *folder_;
  if (archive_) return *archive_;
  return *single_;
}

std::size_t Session::datafiles() const {
  if (folder_) return folder_->size();
  return archive_ ? archive_->size() : 1;
}

std::string Session::datafile_name(std::size_t i) const {
  if (folder_) return folder_->name(i);
  return archive_ ? archive_->name(i) : single_->name(i);
}

std::string Session::archive_name(std::size_t i) const {
  return folder_ ? folder_levels_->name(folder_->archive_of(i)) : std::string();
}

std::string Session::name_in_archive(std::size_t i) const {
  return folder_ ? folder_->datafile_name(i) : std::string();
}

std::string Session::object_pointer(std::size_t datafile, std::string_view key) const {
  std::string object = "/objects/" + patch::escape_segment(key);
  if (folder_)
    return folder::archive_pointer(archive_name(datafile)) + patch::datafile_pointer(name_in_archive(datafile)) +
           object;
  if (!archive_) return object;
  return patch::datafile_pointer(archive_->name(datafile)) + object;
}

void Session::with_levels(const std::function<void(LevelSet&)>& work) {
  std::lock_guard hold(lock_);
  work(set());
}

PatchCheck Session::check(std::string_view patch_json) {
  std::lock_guard hold(lock_);
  patch::PatchOptions options;
  options.record_changes = true;
  PatchCheck check;
  if (folder_) {
    folder::FolderPatchOutcome outcome = folder::apply_folder_patch_text(*folder_levels_, patch_json, options);
    if (outcome.error) return from_error(*outcome.error, input_.path);
    check.edited_objects = outcome.edited_objects();
    for (folder::ArchivePatch& a : outcome.archives) {
      for (patch::Change& c : a.outcome.document_changes) check.changes.push_back(std::move(c));
      for (patch::DataFilePatch& d : a.outcome.datafiles)
        for (patch::Change& c : d.result.changes) check.changes.push_back(std::move(c));
    }
    return check;
  }
  if (archive_) {
    patch::ArchivePatchOutcome outcome = patch::apply_archive_patch_text(*archive_, patch_json, options);
    if (outcome.error) return from_error(*outcome.error, input_.path);
    check.edited_objects = outcome.edited_objects();
    check.changes = std::move(outcome.document_changes);
    for (patch::DataFilePatch& d : outcome.datafiles)
      for (patch::Change& c : d.result.changes) check.changes.push_back(std::move(c));
    return check;
  }
  patch::PatchOutcome outcome = patch::apply_patch_text(single_->carved(), patch_json, options);
  if (outcome.error) return from_error(*outcome.error, input_.path);
  check.edited_objects = outcome.result.edited.size();
  check.changes = std::move(outcome.result.changes);
  return check;
}

absl::StatusOr<std::string> Session::object_json(std::size_t datafile, std::string_view key,
                                                 std::string_view patch_json) {
  std::lock_guard hold(lock_);
  if (datafile >= datafiles()) return absl::NotFoundError("no such data file");
  absl::StatusOr<const Level*> level = set().level(datafile);
  if (!level.ok()) return level.status();
  patch::ObjectKeys keys(**level);
  std::optional<std::size_t> piece = keys.find(key);
  if (!piece) return absl::NotFoundError("no object " + std::string(key));
  const Piece p = (*level)->pieces[*piece];  // a copy: the patch below may release the level
  // The patch's result for this level, if it edited the object.
  patch::PatchResult result;
  if (folder_) {
    folder::FolderPatchOutcome outcome = folder::apply_folder_patch_text(*folder_levels_, patch_json);
    if (outcome.error) return absl::InvalidArgumentError(outcome.error->message());
    for (folder::ArchivePatch& a : outcome.archives)
      if (a.archive == folder_->archive_of(datafile))
        for (patch::DataFilePatch& d : a.outcome.datafiles)
          if (d.datafile == folder_->index_in_archive(datafile)) result = std::move(d.result);
    level = folder_->level(datafile);  // the patch may have released it
    if (!level.ok()) return level.status();
  } else if (archive_) {
    patch::ArchivePatchOutcome outcome = patch::apply_archive_patch_text(*archive_, patch_json);
    if (outcome.error) return absl::InvalidArgumentError(outcome.error->message());
    for (patch::DataFilePatch& d : outcome.datafiles)
      if (d.datafile == datafile) result = std::move(d.result);
    level = archive_->level(datafile);  // the patch may have released it
    if (!level.ok()) return level.status();
  } else {
    patch::PatchOutcome outcome = patch::apply_patch_text(single_->carved(), patch_json);
    if (outcome.error) return absl::InvalidArgumentError(outcome.error->message());
    result = std::move(outcome.result);
  }
  std::size_t index = 0;
  if (const Object* object = edited(result, *piece, index))
    return object_value_json(*object, Extent{p.offset, result.overlays[index].size()});
  return object_value_json(parse_piece(**level, (*level)->pieces[*piece]), Extent{p.offset, p.length});
}

absl::Status Session::write_copy(std::string_view patch_json, const std::string& target) {
  std::lock_guard hold(lock_);
  if (folder_) {
    folder::FolderPatchRequest request;
    request.dir = input_.folder->dir;
    request.out_dir = target;
    request.options = input_.folder_options;
    request.intent = "serve: write a copy";
    folder::FolderPatchRun run = folder::patch_folder(request, patch_json);
    if (!run.status.ok()) return run.status;
    if (run.outcome.error) return absl::InvalidArgumentError(run.outcome.error->message());
    return absl::OkStatus();
  }
  // The name itself is replaced: a link put there after output_target's check is never written through
  // (platform/replace_file.hpp, OutputOptions::at_name).
  const platform::OutputOptions at_name{.at_name = true};
  if (archive_) {
    patch::ArchivePatchOutcome outcome = patch::apply_archive_patch_text(*archive_, patch_json);
    if (outcome.error) return absl::InvalidArgumentError(outcome.error->message());
    auto written = forge::write_patched_archive(input_.input->bytes(), *archive_, outcome, target, at_name);
    return written.ok() ? absl::OkStatus() : written.status();
  }
  const Level& level = single_->carved();
  patch::PatchOutcome outcome = patch::apply_patch_text(level, patch_json);
  if (outcome.error) return absl::InvalidArgumentError(outcome.error->message());
  // A data file whose objects changed size is written whole, its entries' sizes following (as `patch`).
  if (input_.source.kind == SourceKind::data_file && patch::resizes(level, outcome.result))
    return patch::write_patched_data_file(level, outcome.result, target, at_name, input_.source.variant);
  return patch::write_patched(level, outcome.result, target, nullptr, at_name);
}

}  // namespace anvil::serve
