// The router of a folder patch (pipeline/folder_patch.hpp): routes each operation to the archives it
// addresses (folder_route.cpp), then runs each archive's share through the archive engine, all or nothing
// (folder_patch.cpp). Internal to those files.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "patch/archive_keys.hpp"
#include "patch/routed_share.hpp"
#include "pipeline/folder_patch.hpp"

namespace anvil::folder::route {

using patch::archive::refuse;
using rapidjson::Document;
using rapidjson::Value;

inline constexpr std::string_view kArchives = "archives";

// Where a pointer of the folder document lands: an archive and the pointer inside its document.
struct Target {
  std::size_t archive = 0;
  std::string pointer;
  std::vector<std::string> segments;  // of `pointer`
};

class Router {
 public:
  Router(FolderLevels& folder, const Value& patch, const patch::PatchOptions& options)
      : folder_(folder), patch_(patch), options_(options), keys_(folder.size()) {}
  FolderPatchOutcome run();

 private:
  struct Bulk {
    std::size_t archives = 0;
    std::size_t matched_nothing = 0;
    std::size_t last = 0;
    patch::PatchError error;
  };

  // folder_route.cpp
  void route(std::size_t index, const Value& op);
  void route_bulk(std::size_t index, const Value& op);
  Target locate(const std::string& pointer);
  std::size_t archive_named(const std::string& name);
  std::size_t key_holder(const std::string& key, const std::vector<bool>* among);
  std::size_t datafile_holder(const std::string& name, const std::vector<bool>* among);
  forge::ArchiveLevels& open(std::size_t archive);
  void add(std::size_t archive, std::size_t index, Value&& op, bool named);
  void add_unchanged(std::size_t index, const Value& op);
  void note_new_key(std::size_t archive, const std::string& op, const Target& target, const Value& op_value);
  // folder_patch.cpp
  void fail(std::size_t index, patch::PatchError error) { failure_.fail(index, std::move(error)); }
  void run_archive(std::size_t archive, patch::RoutedShare& sub, FolderPatchOutcome& outcome);
  std::string with_archive(const std::string& reason, std::size_t archive) const {
    return reason + " (archive " + folder_.name(archive) + ")";
  }

  FolderLevels& folder_;
  const Value& patch_;
  patch::PatchOptions options_;
  std::map<std::size_t, patch::RoutedShare> subs_;  // each archive's share, in the archive's document
  std::map<std::size_t, Bulk> bulk_;
  std::vector<std::string> pointers_;
  patch::EarliestFailure failure_;
  std::vector<std::unique_ptr<patch::archive::KeyIndex>> keys_;  // per archive, made on first look-up
  std::map<std::string, std::size_t> renamed_;                   // keys given by an operation -> archive
};

}  // namespace anvil::folder::route
