// The router of an archive patch (patch/archive_patch.hpp): routes each operation of the patch to the
// data files it addresses (archive_route.cpp; bulk operations archive_route_bulk.cpp), looking keys up
// in the key index (archive_keys.hpp), then runs each data file's share through the single-level engine,
// all or nothing (archive_patch.cpp). Internal to those files.
#pragma once

#include <absl/strings/str_format.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "patch/archive_keys.hpp"
#include "patch/archive_patch.hpp"
#include "patch/routed_share.hpp"

namespace anvil::patch::archive {

using rapidjson::Document;
using rapidjson::Value;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// Where a pointer of the archive document lands.
struct Target {
  enum Kind { kMeta, kDataFile } kind = kMeta;
  std::size_t datafile = kNone;       // kDataFile
  std::vector<std::string> segments;  // kDataFile: the pointer inside the data file's document
};

class Router {
 public:
  Router(LevelSet& set, const Value& patch, const PatchOptions& options, const KnownIds* known)
      : set_(set), patch_(patch), options_(options), keys_(set, known) {
    sub_options_.record_changes = options.record_changes;
  }

  ArchivePatchOutcome run();

 private:
  struct Bulk {
    std::size_t datafiles = 0;  // data files it was routed to
    std::size_t matched_nothing = 0;
    std::size_t last = 0;  // the last of those data files
    PatchError error;      // what a data file said when it matched nothing there
  };

  // Routing (archive_route.cpp, archive_route_bulk.cpp): each operation to the data files it addresses.
  void route(std::size_t index, const Value& op);
  void route_bulk(std::size_t index, const Value& op);
  Target locate(const std::string& pointer);
  std::size_t datafile_named(const std::string& name);
  void add(std::size_t datafile, std::size_t index, Value&& op, bool named);
  void add_unchanged(std::size_t index, const Value& op);
  void note_new_key(std::size_t datafile, const std::string& op, const Target& target, const Value& op_value);
  // Running (archive_patch.cpp): each data file's share through the single-level engine.
  void fail(std::size_t index, PatchError error) { failure_.fail(index, std::move(error)); }
  void run_datafile(std::size_t datafile, RoutedShare& sub, ArchivePatchOutcome& outcome);
  std::string with_datafile(const std::string& reason, std::size_t datafile) const {
    return absl::StrFormat("%s (data file %s)", reason, set_.name(datafile));
  }

  LevelSet& set_;
  const Value& patch_;
  PatchOptions options_;
  PatchOptions sub_options_;
  std::map<std::size_t, RoutedShare> subs_;  // each data file's share, in the data file's document
  std::map<std::size_t, Bulk> bulk_;
  std::vector<std::string> pointers_;  // each operation's pointer for errors (its path, or a bulk op's name)
  std::vector<Change> document_changes_;
  EarliestFailure failure_;
  KeyIndex keys_;  // keys of objects -> the data files holding them
};

}  // namespace anvil::patch::archive
