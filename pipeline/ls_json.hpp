// `ls --json` (docs/commands.md): one document per archive, an array of them for several. A member that is
// a field of a declared structure (the archive header's version; an index entry's offset, file_id and
// size; a name entry's file_type) is written by the saving JSON archive from that declaration
// (writer/json_member.hpp), under its NVP name; the others are the listing's own: the data file's place and
// unique name, where its stored bytes start, the layout, what reading it found and the checksum vote.
#pragma once

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "pipeline/ls_run.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

class LsJson {
 public:
  // `several`: an array of documents; `objects`: each data file's entries and object counts too.
  LsJson(std::ostream& out, bool several, bool objects);

  // An archive that cannot be listed: an entry of the array (nothing for a single archive).
  void unlisted(const std::string& path, const std::string& reason);
  // The archive's document up to its data files.
  void head(const std::string& path, const Archive& archive);
  // Data file `i` (named names[i]) as `summary` read it, or its error.
  void data_file(const Archive& archive, const std::vector<std::string>& names, std::size_t i,
                 const ListedSummary& summary);
  // The rest of the archive's document: the vote's verdict.
  void tail(const ArchiveChecksums& checksums);
  // The document's end (the array's, for several), then a newline.
  void end();

 private:
  using Writer = rapidjson::PrettyWriter<rapidjson::OStreamWrapper>;
  void table_members(const Archive& archive, const std::vector<std::string>& names, std::size_t i);
  void string(const char* key, const std::string& value);
  void number(const char* key, u64 value);

  std::ostream& out_;
  bool several_, objects_;
  rapidjson::OStreamWrapper stream_;
  Writer json_;
};

// A path as a JSON string: as given when it is UTF-8, else in the spelling of data-file names (bytes that
// are not text cannot go into JSON as they are).
std::string ls_json_path(const std::string& path);

}  // namespace anvil::forge
