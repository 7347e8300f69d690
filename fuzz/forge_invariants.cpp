#include "fuzz/forge_invariants.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

#include "patch/archive_patch.hpp"
#include "pipeline/archive_patch_output.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/summary.hpp"

namespace anvil::fuzz {

std::string check_forge(std::span<const u8> bytes) {
  auto archive = forge::read_archive(bytes);
  if (!archive.ok()) return archive.status().message().empty() ? "forge: a refusal without a reason" : "";
  auto back = forge::round_trip(bytes);
  if (!back.ok()) return back.status().message().empty() ? "forge: a data file refused without a reason" : "";
  if (!std::equal(back->begin(), back->end(), bytes.begin(), bytes.end())) {
    auto at = std::mismatch(back->begin(), back->end(), bytes.begin(), bytes.end()).first - back->begin();
    return absl::StrCat("forge: write(read(x)) differs at offset ", at);
  }

  // ls's skim (tables only) agrees with the full read of every data file that reads.
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    auto read = forge::read_data_file(bytes, *archive, i);
    if (!read.ok()) continue;
    auto summary = forge::summarize(bytes, *archive, i, false, Game::ac2);
    if (!summary.ok()) {
      // the one check the skim leaves out is the plain data file's search for the magic: never a refusal
      return absl::StrCat("forge: ls refuses data file ", i, " which reads: ", summary.status().message());
    }
    if (summary->decompressed_size != read->decoded.bytes.size() ||
        summary->compression != forge::compression_of(read->stored))
      return absl::StrCat("forge: ls and the full read disagree on data file ", i);
  }

  forge::ArchiveLevels set(bytes, *archive, Game::ac2);
  for (std::size_t i = 0; i < set.size(); ++i) {
    auto level = set.level(i);
    if (!level.ok()) {
      if (level.status().message().empty()) return "forge: a data file refused without a reason";
      continue;
    }
    auto piece =
        std::find_if((*level)->pieces.begin(), (*level)->pieces.end(), [](const Piece& p) { return p.is_object(); });
    if (piece == (*level)->pieces.end()) {
      set.release(i);
      continue;
    }
    Object object = parse_piece(**level, *piece);
    const auto& visual = std::get<ac2::Visual>(object);
    std::string path =
        absl::StrCat(patch::datafile_pointer(set.name(i)), "/objects/", object_key(*piece, Game::ac2), "/managed");
    // Written by a JSON writer: document names hold `"` and `\xNN` escapes, which a JSON string must escape.
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> json(buffer);
    json.StartArray();
    json.StartObject();
    json.Key("op");
    json.String("replace");
    json.Key("path");
    json.String(path.data(), static_cast<rapidjson::SizeType>(path.size()));
    json.Key("value");
    json.Uint(static_cast<unsigned>(visual.managed ^ 1));
    json.EndObject();
    json.EndArray();
    std::string text(buffer.GetString(), buffer.GetSize());
    auto outcome = patch::apply_archive_patch_text(set, text);
    if (outcome.error) return "forge: the edit " + text + " was refused: " + outcome.error->message();
    auto changes = forge::patched_data_files(set, outcome);
    if (!changes.ok())
      return "forge: the edited data file does not read back: " + std::string(changes.status().message());
    if (changes->size() != 1) return "forge: the edit did not change exactly one data file";
    forge::VectorSink out;
    auto written = forge::rewrite(bytes, *changes, out);
    if (!written.ok()) return written.status().message().empty() ? "forge: a rewrite refused without a reason" : "";
    if (auto s = forge::check_rewrite(bytes, out.bytes(), *changes); !s.ok())
      return "forge: the edited archive does not read back as the edit: " + std::string(s.message());
    return "";
  }
  return "";
}

}  // namespace anvil::fuzz
