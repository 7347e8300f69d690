#include "pipeline/mods/folder_apply.hpp"

#include <absl/strings/match.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <filesystem>

#include "patch/archive_keys.hpp"
#include "patch/json_util.hpp"
#include "patch/ops.hpp"
#include "reader/forge/archive_game.hpp"
#include "reader/forge/archive_reader.hpp"

namespace anvil::mods {
namespace {

using patch::PatchError;
using rapidjson::Value;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

std::string string_member(const Value& op, const char* name) {
  auto it = op.FindMember(name);
  if (it == op.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

// Where one operation goes: the archive, and its pointers in that archive's document.
struct Route {
  std::size_t archive = kNone;
  std::string path, from;
};

class FolderRouter {
 public:
  explicit FolderRouter(std::vector<FolderArchive>& archives) : archives_(archives), keys_(archives.size()) {}

  // The route of `op`; the reason it has none in `error`.
  Route route(const Value& op, std::string& error) {
    Route r;
    if (!op.IsObject()) {
      error = "an operation is a JSON object";
      return r;
    }
    const std::string name = string_member(op, "op");
    const patch::OpInfo* info = patch::find_op(name);
    if (info && info->kind == patch::OpKind::bulk) {
      error = absl::StrFormat(
          "%s: a bulk operation is not routed across the archives of a game folder; patch one archive with it "
          "(anvilrt patch FILE.forge)",
          name);
      return r;
    }
    r.path = locate(string_member(op, "path"), r.archive, error);
    if (!error.empty() || !op.HasMember("from")) return r;
    std::size_t from_archive = kNone;
    r.from = locate(string_member(op, "from"), from_archive, error);
    if (!error.empty())
      error = "from: " + error;
    else if (from_archive != r.archive)
      error = "`from` and `path` lie in two archives: move and copy work within one";
    return r;
  }

 private:
  // The archive a folder pointer lands in (`archive`), and the pointer in its document; or the reason.
  std::string locate(const std::string& pointer, std::size_t& archive, std::string& error) {
    auto seg = patch::parse_pointer(pointer);
    if (!seg) {
      error = "not a JSON pointer (RFC 6901)";
    } else if (seg->size() >= 2 && (*seg)[0] == "archives") {
      for (std::size_t a = 0; a < archives_.size(); ++a)
        if (archives_[a].name == (*seg)[1]) archive = a;
      if (archive != kNone) return patch::make_pointer({seg->begin() + 2, seg->end()}, seg->size() - 2);
      error = absl::StrFormat("the game folder has no archive \"%s\"", (*seg)[1]);
    } else if (seg->size() >= 2 && (*seg)[0] == "objects") {
      std::vector<std::size_t> holders;
      for (std::size_t a = 0; a < archives_.size() && error.empty(); ++a) {
        if (!keys_[a]) keys_[a] = std::make_unique<patch::archive::KeyIndex>(*archives_[a].levels);
        try {
          if (!keys_[a]->holders((*seg)[1], nullptr).empty()) holders.push_back(a);
        } catch (const patch::archive::Refusal& refusal) {
          error = absl::StrFormat("%s: %s", archives_[a].name, refusal.reason);
        }
      }
      if (!error.empty()) return {};
      if (holders.size() == 1) {
        archive = holders.front();
        return pointer;
      }
      error = holders.empty()
                  ? absl::StrFormat("no archive of the game folder holds an object \"%s\"", (*seg)[1])
                  : absl::StrFormat(
                        "the key \"%s\" is held by %s and %s: address one as /archives/FILE.forge/objects/%s/...",
                        (*seg)[1], archives_[holders[0]].name, archives_[holders[1]].name,
                        patch::escape_segment((*seg)[1]));
    } else {
      error = "a game folder's document has \"archives\" (/archives/FILE.forge/...) and \"objects\" (/objects/KEY/...)";
    }
    return {};
  }

  std::vector<FolderArchive>& archives_;
  std::vector<std::unique_ptr<patch::archive::KeyIndex>> keys_;
};

struct Share {
  rapidjson::Document ops{rapidjson::kArrayType};
  std::vector<std::size_t> index;  // each operation's index in the whole patch
};

}  // namespace

absl::StatusOr<std::vector<std::string>> archive_names(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && absl::EndsWithIgnoreCase(it->path().filename().string(), ".forge"))
      names.push_back(it->path().filename().string());
  if (ec) return absl::InvalidArgumentError(absl::StrFormat("%s: cannot read the folder: %s", dir, ec.message()));
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<std::vector<FolderArchive>> open_archives(const std::string& dir,
                                                         const std::map<std::string, std::string>& path_of) {
  auto names = archive_names(dir);
  if (!names.ok()) return names.status();
  if (names->empty()) return absl::InvalidArgumentError(absl::StrFormat("%s: no .forge archive in the folder", dir));
  std::vector<FolderArchive> out;
  for (const std::string& name : *names) {
    FolderArchive a;
    a.name = name;
    auto stand_in = path_of.find(name);
    a.path = stand_in != path_of.end() ? stand_in->second : (std::filesystem::path(dir) / name).string();
    auto input = InputFile::open(a.path);
    if (!input.ok()) return input.status();
    a.input = std::make_unique<InputFile>(std::move(*input));
    auto archive = forge::read_archive(a.input->bytes(), a.input.get());
    if (!archive.ok())
      return absl::Status(archive.status().code(), absl::StrCat(a.path, ": ", archive.status().message()));
    a.archive = std::make_unique<forge::Archive>(std::move(*archive));
    const Game game = forge::detect_archive_game(a.input->bytes(), *a.archive);
    a.levels = std::make_unique<forge::ArchiveLevels>(a.input->bytes(), *a.archive, game);
    out.push_back(std::move(a));
  }
  return out;
}

FolderOutcome apply_to_folder(std::vector<FolderArchive>& archives, const Value& patch,
                              const patch::PatchOptions& options) {
  FolderOutcome out;
  if (auto error = patch::check_patch_shape(patch)) {
    out.error = error;
    return out;
  }
  FolderRouter router(archives);
  std::map<std::size_t, Share> shares;
  std::optional<PatchError> routing;
  for (rapidjson::SizeType i = 0; i < patch.Size() && !routing; ++i) {
    std::string reason;
    const Route r = router.route(patch[i], reason);
    if (!reason.empty()) {
      routing = PatchError{i, patch[i].IsObject() ? string_member(patch[i], "path") : "", reason};
      break;
    }
    Share& share = shares[r.archive];
    Value op;
    op.CopyFrom(patch[i], share.ops.GetAllocator());
    op["path"].SetString(r.path.c_str(), static_cast<rapidjson::SizeType>(r.path.size()), share.ops.GetAllocator());
    if (op.HasMember("from"))
      op["from"].SetString(r.from.c_str(), static_cast<rapidjson::SizeType>(r.from.size()), share.ops.GetAllocator());
    share.ops.PushBack(op, share.ops.GetAllocator());
    share.index.push_back(i);
  }
  out.error = routing;
  for (auto& [a, share] : shares) {
    patch::ArchivePatchOutcome outcome = patch::apply_archive_patch(*archives[a].levels, share.ops, options);
    const std::string prefix = "/archives/" + patch::escape_segment(archives[a].name);
    if (outcome.error) {
      PatchError e = *outcome.error;
      if (e.op_index != PatchError::kWholePatch) {
        e.op_index = share.index.at(e.op_index);
        e.pointer = string_member(patch[static_cast<rapidjson::SizeType>(e.op_index)], "path");
      }
      if (!out.error || e.op_index < out.error->op_index) {
        out.error = e;
        out.error_archive = archives[a].name;
      }
      continue;
    }
    for (const auto* list : {&outcome.document_changes})
      for (patch::Change c : *list) {
        c.op_index = share.index.at(c.op_index);
        c.pointer = prefix + c.pointer;
        out.changes.push_back(std::move(c));
      }
    for (const patch::DataFilePatch& d : outcome.datafiles)
      for (patch::Change c : d.result.changes) {
        c.op_index = share.index.at(c.op_index);
        c.pointer = prefix + c.pointer;
        out.changes.push_back(std::move(c));
      }
    out.archives.emplace(a, std::move(outcome));
  }
  std::stable_sort(out.changes.begin(), out.changes.end(),
                   [](const patch::Change& x, const patch::Change& y) { return x.op_index < y.op_index; });
  if (out.error) out.archives.clear();
  return out;
}

}  // namespace anvil::mods
