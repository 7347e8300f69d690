#include "fuzz/forge_invariants.hpp"

#include <absl/strings/str_cat.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

#include "codec/forge_compression.hpp"
#include "patch/archive_patch.hpp"
#include "pipeline/archive_patch_output.hpp"
#include "pipeline/archive_verify.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "pipeline/read_back.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/summary.hpp"

namespace anvil::fuzz {
namespace {

// The checksum rule's promise (FORGE.md 2), checked against a count of its own: with a rule, a block its
// checksum does not match (a block whose bytes changed and whose checksum did not follow) is never read,
// verified identical or listed; a data file whose blocks all match it is never called damaged.
std::string check_checksums(std::span<const u8> bytes, const forge::Archive& archive,
                            const forge::ArchiveChecksums& checksums) {
  const forge::ChecksumVerdict& verdict = checksums.verdict;
  std::size_t blocks = 0, matched = 0;
  for (std::size_t i = 0; i < archive.files.size(); ++i) {
    auto stored = forge::read_stored(bytes, archive, i);
    if (!stored.ok() || !stored->compressed) continue;
    const forge::BlockSet* sets[] = {stored->first ? &*stored->first : nullptr,
                                     stored->second ? &*stored->second : nullptr};
    // Decompressed unchecked, block by block: the count must not lean on decode()'s own check.
    std::size_t off_rule = 0;
    for (const forge::BlockAt& b : forge::block_layout(*stored, 0)) {
      const forge::BlockSet& set = *sets[b.set];
      std::span<const u8> src;
      std::optional<u32> checksum;
      bool plain = false;
      if (set.max_size != 0) {
        src = set.blocks[b.block].stored.bytes;
        checksum = set.blocks[b.block].checksum;
        plain = set.blocks[b.block].is_plain();
      } else {
        src = set.chunks[b.block].stored.bytes;
        plain = set.chunks[b.block].kind == forge::Chunk::kPlain;
        if (!plain) checksum = set.chunks[b.block].checksum;
      }
      if (!checksum) continue;
      ++blocks;
      // Sized only within LZO's bound: a claimed size of hundreds of megabytes is refused, not zero-filled.
      const bool fits = !plain && b.decoded_size <= codec::max_decompressed_size(src.size());
      std::vector<u8> decoded(fits ? b.decoded_size : 0);
      bool ok =
          plain ||
          (fits && codec::decompress_into(
                       codec::algorithm_of(forge::compression_of(set.compression).value_or(forge::Compression::lzo1x)),
                       src, decoded)
                       .ok());
      forge::ChecksumRules rules = forge::rules_matching(*checksum, src, plain ? src : std::span<const u8>(decoded));
      if (!ok) rules &= forge::kStoredRules;
      if (verdict.rule && (rules & static_cast<u8>(*verdict.rule))) ++matched;
      off_rule += verdict.damaged(rules);
    }
    if ((off_rule > 0) != checksums.damaged(i))
      return absl::StrCat("forge: data file ", i, " has ", off_rule, " blocks off the rule ", verdict.describe(),
                          " but the vote says ", checksums.damaged(i) ? "damaged" : "undamaged");
    if (off_rule == 0) continue;
    auto read = forge::read_data_file(bytes, archive, i, verdict);
    if (read.ok()) return absl::StrCat("forge: data file ", i, " reads with a block off the rule ", verdict.describe());
    forge::VerifyOptions options;
    options.json = false;
    if (forge::verify_data_file(bytes, archive, i, options, verdict).identical())
      return absl::StrCat("forge: data file ", i, " verifies identical with a block off the rule ", verdict.describe());
    if (forge::summarize(bytes, archive, i, false, Game::ac2, checksums).ok())
      return absl::StrCat("forge: ls lists data file ", i, " with a block off the rule ", verdict.describe());
  }
  if (blocks != verdict.blocks || (verdict.rule && matched != verdict.matched))
    return absl::StrCat("forge: the vote counts ", verdict.describe(), ", a recount ", matched, " of ", blocks);
  return "";
}

// An edit that grows objects of data file `i` (FORGE.md 5): an instance placed again in every Visual of it,
// and a material info added to each of its meshes. When the patch applies, the data file grows by what
// its objects grew, and the written archive reads back as the edit.
std::string check_resize(std::span<const u8> bytes, forge::ArchiveLevels& set, std::size_t i,
                         const forge::ArchiveChecksums& checksums) {
  for (const char* op : {R"({"op":"duplicate_instance","objects":"*","index":0,"translate":[1,2,3]})",
                         R"({"op":"add_material","objects":"*","source":"0x0000000000000001",)"
                         R"("replacement":"0x0000000000000002","mode":1})"}) {
    // Written by a JSON writer: data file names hold `"` and `\xNN` escapes.
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> json(buffer);
    json.StartArray();
    rapidjson::Document parsed;
    parsed.Parse(op);
    rapidjson::Value names(rapidjson::kArrayType);
    names.PushBack(rapidjson::Value(set.name(i).c_str(), parsed.GetAllocator()), parsed.GetAllocator());
    parsed.AddMember("datafiles", names, parsed.GetAllocator());
    parsed.Accept(json);
    json.EndArray();
    std::string text(buffer.GetString(), buffer.GetSize());
    auto outcome = patch::apply_archive_patch_text(set, text);
    if (outcome.error) {
      if (outcome.error->reason.empty()) return "forge: the edit " + text + " was refused without a reason";
      continue;  // nothing it matches, or a data file that does not read
    }
    auto level = set.level(i);
    if (!level.ok()) return "forge: a data file the edit read does not read again";
    std::int64_t growth = 0;
    for (const auto& d : outcome.datafiles)
      for (std::size_t k = 0; k < d.result.edited.size(); ++k)
        growth += static_cast<std::int64_t>(d.result.overlays[k].size()) -
                  static_cast<std::int64_t>((*level)->pieces[d.result.edited[k]].length);
    const std::size_t before = (*level)->bytes.size();
    auto changes = forge::patched_data_files(set, outcome);
    // A refusal that says why (an entry's size beyond its u32) is an answer; a failed read-back is not.
    if (!changes.ok() && !absl::IsInternal(changes.status()) && !changes.status().message().empty()) continue;
    if (!changes.ok())
      return "forge: the resized data file does not read back: " + std::string(changes.status().message());
    if (changes->size() != 1) return "forge: the edit " + text + " did not change exactly one data file";
    if (static_cast<std::int64_t>((*changes)[0].decoded.size()) != static_cast<std::int64_t>(before) + growth)
      return absl::StrCat("forge: the edit ", text, " grew the data file by ",
                          static_cast<std::int64_t>((*changes)[0].decoded.size()) - static_cast<std::int64_t>(before),
                          " bytes, its objects by ", growth);
    forge::VectorSink out;
    auto written = forge::rewrite(bytes, *changes, out);
    if (!written.ok()) {
      if (written.status().message().empty()) return "forge: a rewrite refused without a reason";
      continue;
    }
    if (auto s = forge::check_rewrite(bytes, out.bytes(), *changes, false, nullptr, nullptr, checksums.verdict);
        !s.ok())
      return "forge: the resized archive does not read back as the edit: " + std::string(s.message());
  }
  return "";
}

// `put` (FORGE.md 5 and 6) through the library: the first data file that reads is given mutated bytes
// (a byte flipped, bytes inserted or bytes cut, where and how many chosen from the input), a copy of it is
// added and the next data file removed; the written archive must read back with every untouched data file
// byte-identical, the mutated one and the added one decompressing to their bytes (check_rewrite), or the
// rewrite must refuse with a reason.
std::string check_put(std::span<const u8> bytes, const forge::Archive& archive, const forge::ChecksumVerdict& verdict) {
  for (std::size_t i = 0; i < archive.files.size(); ++i) {
    auto read = forge::read_data_file(bytes, archive, i, verdict);
    if (!read.ok()) continue;
    std::vector<u8> now(read->decoded.bytes.begin(), read->decoded.bytes.end());
    const std::size_t at = now.empty() ? 0 : bytes.size() * 2654435761u % (now.size() + 1);
    const std::size_t n = 1 + bytes.size() % 301;
    switch (bytes.size() % 3) {
      case 0:
        if (at < now.size())
          now[at] ^= 0x5A;
        else
          now.push_back(0x5A);
        break;
      case 1:
        now.insert(now.begin() + static_cast<std::ptrdiff_t>(at), bytes.begin(),
                   bytes.begin() + static_cast<std::ptrdiff_t>(std::min(n, bytes.size())));
        break;
      default:
        now.erase(now.begin() + static_cast<std::ptrdiff_t>(at),
                  now.begin() + static_cast<std::ptrdiff_t>(std::min(now.size(), at + n)));
    }
    forge::ArchiveEdit edit;
    edit.changes.push_back({i, now});
    edit.added.push_back({"fuzz_added", 0xF022, 1, std::move(now), false});
    if (i + 1 < archive.files.size()) edit.removed.push_back(i + 1);
    forge::VectorSink out;
    auto written = forge::rewrite(bytes, edit, out, nullptr, &verdict);
    if (!written.ok()) return written.status().message().empty() ? "forge: a put refused without a reason" : "";
    if (auto s = forge::check_rewrite(bytes, out.bytes(), edit, false, nullptr, nullptr, verdict); !s.ok())
      return "forge: the put archive does not read back as put: " + std::string(s.message());
    return "";
  }
  return "";
}

}  // namespace

std::string check_forge(std::span<const u8> bytes) {
  auto archive = forge::read_archive(bytes);
  if (!archive.ok()) return archive.status().message().empty() ? "forge: a refusal without a reason" : "";
  auto back = forge::round_trip(bytes);
  if (!back.ok()) return back.status().message().empty() ? "forge: a data file refused without a reason" : "";
  if (auto at = first_difference(*back, bytes)) return absl::StrCat("forge: write(read(x)) differs at offset ", *at);

  const forge::ArchiveChecksums checksums = forge::archive_checksums(bytes, *archive);
  if (auto broken = check_checksums(bytes, *archive, checksums); !broken.empty()) return broken;
  if (auto broken = check_put(bytes, *archive, checksums.verdict); !broken.empty()) return broken;

  // ls's skim (tables only) agrees with the full read of every data file that reads.
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    auto read = forge::read_data_file(bytes, *archive, i, checksums.verdict);
    if (!read.ok()) continue;
    auto summary = forge::summarize(bytes, *archive, i, false, Game::ac2, checksums);
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
    if (auto s = forge::check_rewrite(bytes, out.bytes(), *changes, false, nullptr, nullptr, checksums.verdict);
        !s.ok())
      return "forge: the edited archive does not read back as the edit: " + std::string(s.message());
    return check_resize(bytes, set, i, checksums);
  }
  return "";
}

}  // namespace anvil::fuzz
