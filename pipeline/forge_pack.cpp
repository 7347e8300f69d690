#include "pipeline/forge_pack.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "model/forge/forge_error.hpp"
#include "model/forge/kept_bytes.hpp"
#include "pipeline/forge_list.hpp"
#include "platform/paths.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/referenced.hpp"
#include "writer/byte_writer.hpp"
#include "writer/encode.hpp"
#include "writer/forge/archive_writer.hpp"
#include "writer/forge/new_archive.hpp"
#include "writer/forge/repack.hpp"
#include "writer/forge/stored_form.hpp"

namespace anvil::forge {
namespace {

// A path in a message: its control characters spelled \xNN, so that a name from forge.json cannot break
// the message's one line; the rest as it is (printable_name would also spell Windows' separator '\' and
// every non-ASCII byte of a UTF-8 name).
std::string shown_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

absl::Status prefixed(const std::string& prefix, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(prefix, ": ", s.message()));
}

// Makes the archive with `produce` into a temporary beside `target`, has `check` read it back, then renames
// it over `target`. A target that is not a regular file (a device, standard output) is made and checked
// in memory first. `check` errors and write errors name the target.
absl::Status write_checked(const std::string& target, const platform::OutputOptions& options,
                           const std::function<absl::Status(ByteSink&)>& produce,
                           const std::function<absl::Status(std::span<const u8>, const InputFile*)>& check) {
  platform::AtomicFile file;
  if (auto s = file.open(target, options); !s.ok()) return s;
  auto cannot_write = [&] {
    return absl::InternalError(absl::StrCat(target, ": cannot write: ", std::strerror(errno)));
  };
  if (!file.to_temporary()) {
    VectorSink memory;
    if (auto s = produce(memory); !s.ok()) return s;
    if (auto s = check(memory.bytes(), nullptr); !s.ok()) return with_archive(s, target);
    if (!memory.bytes().empty() &&
        std::fwrite(memory.bytes().data(), 1, memory.bytes().size(), file.stream()) != memory.bytes().size())
      return cannot_write();
    return file.commit();
  }
  FileSink sink(file.stream());
  auto produced = produce(sink);
  if (!sink.failure().ok()) return prefixed(target, sink.failure());
  if (!produced.ok()) return produced;
  if (std::fflush(file.stream()) != 0) return cannot_write();
  {
    // Closed before the commit: Windows replaces no file while a mapping of it is open.
    auto written = InputFile::open(file.temp_path());
    if (!written.ok()) return written.status();
    if (auto s = check(written->bytes(), &*written); !s.ok()) return with_archive(s, target);
  }
  return file.commit();
}

absl::Status not_read_back(const std::string& what) {
  return absl::InternalError("the written archive does not read back as it should: " + what);
}

std::optional<ChecksumRule> rule_named(std::string_view name) {
  for (ChecksumRule r : kChecksumRules)
    if (checksum_rule_name(r) == name) return r;
  return std::nullopt;
}

template <std::size_t N>
FixedString<N> fixed_name(const std::string& bytes) {
  FixedString<N> out;
  std::copy_n(bytes.begin(), std::min(bytes.size(), N), out.bytes.begin());
  return out;
}

// forge.json of an extracted folder, read, and whole (pack builds a whole archive).
absl::StatusOr<ForgeList> read_complete_list(const std::string& dir, const std::string& list_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(platform::path_of(dir), ec))
    return absl::InvalidArgumentError(absl::StrCat(dir, ": not a folder (pack takes a folder that extract wrote)"));
  if (!fs::is_regular_file(platform::path_of(list_path), ec))
    return absl::InvalidArgumentError(
        absl::StrCat(list_path, ": missing (anvilrt extract writes it beside the data files; pack needs it)"));
  auto list_file = InputFile::open(list_path);
  if (!list_file.ok()) return list_file.status();
  const std::span<const u8> text = list_file->bytes();
  auto parsed = parse_list(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
  if (!parsed.ok()) return prefixed(list_path, parsed.status());
  if (!parsed->complete)
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: complete: false: it lists %d of the archive's %d data files (extract was given selectors, or a data "
        "file did not read); pack builds a whole archive: extract all of it into a folder of its own",
        list_path, parsed->datafiles.size(), parsed->archive_datafiles));
  return parsed;
}

// The folder holds exactly the listed files (and forge.json).
absl::Status holds_the_listed_files(const std::string& dir, const ForgeList& list, const std::string& list_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  absl::flat_hash_set<std::string> listed;
  for (std::size_t k = 0; k < list.datafiles.size(); ++k)
    if (!listed.insert(list.datafiles[k].file).second)
      return absl::InvalidArgumentError(absl::StrFormat("%s: datafiles[%d].file: '%s' is listed twice", list_path, k,
                                                        printable_name(list.datafiles[k].file)));
  for (std::size_t k = 0; k < list.datafiles.size(); ++k) {
    const fs::path path = platform::path_of(dir) / platform::path_of(list.datafiles[k].file);
    if (!fs::is_regular_file(path, ec))
      return absl::InvalidArgumentError(absl::StrFormat("%s: missing (%s lists it as datafiles[%d], '%s')",
                                                        shown_path(platform::utf8_of(path)), kListFile, k,
                                                        printable_name(list.datafiles[k].name)));
  }
  std::vector<std::string> extra;
  for (const auto& entry : fs::directory_iterator(platform::path_of(dir), ec)) {
    const std::string name = platform::utf8_of(entry.path().filename());
    if (name != kListFile && !listed.contains(name)) extra.push_back(name);
  }
  if (ec) return absl::InvalidArgumentError(absl::StrCat(dir, ": cannot list: ", ec.message()));
  if (extra.empty()) return absl::OkStatus();
  std::sort(extra.begin(), extra.end());
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s: not listed in %s%s (pack takes the listed data files and nothing else: list it or move it away)",
      shown_path(platform::utf8_of(platform::path_of(dir) / platform::path_of(extra[0]))), kListFile,
      extra.size() > 1 ? absl::StrFormat(", nor %d other file(s)", extra.size() - 1) : ""));
}

// What a pack reads: the folder, its list and the checksum rule the new blocks get.
struct PackInputs {
  const std::string& dir;
  const std::string& list_path;
  const ForgeList& list;
  ChecksumRule rule;

  std::string data_path(std::size_t k) const {
    return platform::utf8_of(platform::path_of(dir) / platform::path_of(list.datafiles[k].file));
  }
};

// Listed data file k as the new archive holds it: its tables' entries and its stored bytes.
absl::StatusOr<std::pair<NewDataFile, std::vector<u8>>> packed_data_file(const PackInputs& in, std::size_t k) {
  const ListedDataFile& d = in.list.datafiles[k];
  const ForgeVariant variant{in.list.head.header.version, in.list.layout};
  auto data = InputFile::open(in.data_path(k));
  if (!data.ok()) return data.status();
  auto stored = compress_stored(data->bytes(), d.stored, in.rule);
  if (!stored.ok())
    return absl::InvalidArgumentError(absl::StrFormat("%s: datafiles[%d] (form '%s'): %s", shown_path(in.data_path(k)),
                                                      k, stored_form_name(d.stored.form), stored.status().message()));
  NewDataFile file;
  file.file_id = d.file_id;
  copy_kept(d.name_kept, file.name, variant);
  file.name.file_type.value = d.file_type;
  file.name.name = fixed_name<kDataFileNameSize>(d.name_entry);
  if (d.raw_size.kind == RawSize::decompressed) {
    if (data->bytes().size() > std::numeric_limits<u32>::max())
      return absl::InvalidArgumentError(absl::StrFormat("%s: datafiles[%d].raw_size: %d bytes do not fit a u32",
                                                        shown_path(in.data_path(k)), k, data->bytes().size()));
    file.raw_size = static_cast<u32>(data->bytes().size());
  } else if (d.raw_size.kind == RawSize::kept) {
    file.raw_size = d.raw_size.value;
  }
  file.header =
      default_data_file_header(std::span(reinterpret_cast<const u8*>(d.header_name.data()), d.header_name.size()));
  copy_kept(d.header_kept, file.header, variant);  // zeros unless forge.json keeps them
  return std::make_pair(std::move(file), encode_stored(*stored));
}

absl::Status write_packed(const PackInputs& in, ByteSink& out, PackReport& report) {
  auto writer = NewArchiveWriter::open(in.list.head, in.list.datafiles.size(), out);
  if (!writer.ok()) return prefixed(in.list_path + ": archive.sections", writer.status());
  for (std::size_t k = 0; k < in.list.datafiles.size(); ++k) {
    auto file = packed_data_file(in, k);
    if (!file.ok()) return file.status();
    if (auto s = writer->add(file->first, file->second); !s.ok()) return prefixed(in.data_path(k), s);
  }
  auto layout = writer->finish();
  if (!layout.ok()) return layout.status();
  report.size = layout->size;
  return absl::OkStatus();
}

absl::Status check_packed(const PackInputs& in, std::span<const u8> written, const InputFile* file) {
  const ForgeList& list = in.list;
  auto archive = read_archive(written, file);
  if (!archive.ok()) return not_read_back(std::string(archive.status().message()));
  if (archive->files.size() != list.datafiles.size())
    return not_read_back(absl::StrFormat("%d data files, not %d", archive->files.size(), list.datafiles.size()));
  // Every checksummed block is checked against the rule it was written by (a block that does not match it
  // reads as damaged). Not the archive's vote: where most blocks are stored plain, a rule over the
  // decompressed bytes and its twin over the stored bytes match the same blocks, and the vote may name
  // the twin.
  ChecksumVerdict verdict;
  verdict.rule = verdict.best = in.rule;
  verdict.blocks = verdict.matched = 1;
  for (std::size_t k = 0; k < list.datafiles.size(); ++k) {
    const ListedDataFile& d = list.datafiles[k];
    const DataFileAt& f = archive->files[k];
    if (f.index.file_id.value != d.file_id ||
        data_file_name(f) != std::string_view(d.name_entry).substr(0, kDataFileNameSize) ||
        f.name.file_type.value != d.file_type)
      return not_read_back(absl::StrCat(data_file_label(*archive, k), ": its id, name or type is not the list's"));
    auto read = read_data_file(written, *archive, k, verdict);
    if (!read.ok()) return not_read_back(std::string(read.status().message()));
    auto data = InputFile::open(in.data_path(k));
    if (!data.ok()) return data.status();
    if (!std::ranges::equal(read->decoded.bytes, data->bytes()))
      return not_read_back(absl::StrCat(data_file_label(*archive, k), ": does not decompress to ", in.data_path(k)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PackReport> pack_folder(const std::string& dir, const std::string& target,
                                       const platform::OutputOptions& options) {
  const std::string list_path = platform::utf8_of(platform::path_of(dir) / kListFile);
  auto list = read_complete_list(dir, list_path);
  if (!list.ok()) return list.status();
  if (auto s = holds_the_listed_files(dir, *list, list_path); !s.ok()) return s;
  PackReport report;
  report.datafiles = list->datafiles.size();
  std::optional<ChecksumRule> rule = rule_named(list->checksum_rule);
  if (!rule) {
    if (list->checksum_rule != "none" && list->checksum_rule != "n/a")
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: archive.checksum_rule: '%s' is not adler32-0/stored, adler32-1/stored, adler32-0/decompressed, "
          "adler32-1/decompressed, none or n/a",
          list_path, printable_name(list->checksum_rule)));
    rule = ChecksumRule::adler32_0_stored;  // FORGE.md 2: the rule Wildlands uses; the original had none to keep
    report.rule_chosen = true;
  }
  report.checksum_rule = checksum_rule_name(*rule);
  const PackInputs in{dir, list_path, *list, *rule};
  auto produce = [&](ByteSink& out) { return write_packed(in, out, report); };
  auto check = [&](std::span<const u8> written, const InputFile* file) { return check_packed(in, written, file); };
  if (auto s = write_checked(target, options, produce, check); !s.ok()) return s;
  return report;
}

absl::StatusOr<CompactReport> compact_file(const InputFile& input, const std::string& target,
                                           const platform::OutputOptions& options, std::optional<u64> alignment) {
  const std::span<const u8> bytes = input.bytes();
  auto read = read_archive(bytes, &input);
  if (!read.ok()) return with_archive(read.status(), input.path());
  const Archive& archive = *read;
  CompactReport report;
  report.datafiles = archive.files.size();
  report.before = bytes.size();
  report.alignment = alignment.value_or(data_file_alignment(archive));

  NewArchiveHead head = head_of(archive, report.alignment);

  auto produce = [&](ByteSink& out) -> absl::Status {
    auto writer = NewArchiveWriter::open(head, archive.files.size(), out);
    if (!writer.ok()) return writer.status();
    for (const DataFileAt& f : archive.files) {
      NewDataFile file;
      file.file_id = f.index.file_id.value;
      file.name = f.name;
      file.raw_size = f.name.raw_size;  // as stored: the stored bytes, and so their size, do not change
      file.header = f.header;
      if (auto s = writer->add(file, bytes.subspan(f.stored_offset(), f.index.size)); !s.ok()) return s;
    }
    auto layout = writer->finish();
    if (!layout.ok()) return layout.status();
    report.after = layout->size;
    return absl::OkStatus();
  };

  auto check = [&](std::span<const u8> written, const InputFile* file) -> absl::Status {
    auto after = read_archive(written, file);
    if (!after.ok()) return not_read_back(std::string(after.status().message()));
    const ForgeVariant variant = archive.variant();
    if (encoded(after->header) != encoded(archive.header) ||
        kept_bytes(after->data_header, variant) != kept_bytes(archive.data_header, variant))
      return not_read_back("its header or file-data header differs");
    if (after->sections.size() != archive.sections.size()) return not_read_back("another number of table sections");
    for (std::size_t k = 0; k < archive.sections.size(); ++k) {
      const TableSection &a = archive.sections[k].table, &b = after->sections[k].table;
      if (a.count != b.count || kept_bytes(a, variant) != kept_bytes(b, variant))
        return not_read_back(absl::StrFormat("table section %d differs", k));
    }
    if (after->files.size() != archive.files.size()) return not_read_back("another number of data files");
    const unsigned version = archive.variant().code();
    for (std::size_t k = 0; k < archive.files.size(); ++k) {
      const DataFileAt &a = archive.files[k], &b = after->files[k];
      if (a.index.file_id.value != b.index.file_id.value || a.index.size != b.index.size ||
          encoded(a.name, version) != encoded(b.name, version) || encoded(a.header) != encoded(b.header) ||
          !std::ranges::equal(bytes.subspan(a.stored_offset(), a.index.size),
                              written.subspan(b.stored_offset(), b.index.size)))
        return not_read_back(absl::StrCat(data_file_label(*after, k), ": its entries, header or stored bytes differ"));
    }
    if (auto s = check_no_unreferenced(*after, report.alignment); !s.ok())
      return not_read_back(std::string(s.message()));
    return absl::OkStatus();
  };
  if (auto s = write_checked(target, options, produce, check); !s.ok()) return s;
  return report;
}

}  // namespace anvil::forge
