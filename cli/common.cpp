#include "cli/common.hpp"

#include <absl/strings/ascii.h>
#include <absl/strings/match.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_replace.h>
#include <absl/strings/str_split.h>
#include <absl/strings/strip.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>

#include "cli/progress_bar.hpp"
#include "model/counted.hpp"
#include "model/dialect.hpp"
#include "model/parallel.hpp"
#include "patch/mod_document.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/game_folder.hpp"
#include "pipeline/mods/mod_package.hpp"
#include "pipeline/mods/package_patch.hpp"
#include "platform/paths.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level.hpp"

namespace anvil::cli {
namespace {

bool is_negative_number(const std::string& token) {
  return token.size() > 1 && token[0] == '-' && (std::isdigit(static_cast<unsigned char>(token[1])) || token[1] == '.');
}

// "--visuals -3" would read as an option "-3"; joined into "--visuals=-3" ("-j -3" into "-j-3") the value
// reaches the command, which says what is wrong with it.
std::vector<std::string> join_negative_values(int argc, char** argv, const po::options_description& all) {
  std::vector<std::string> tokens(argv + 1, argv + argc);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    bool takes_value = false;
    bool is_long = t.starts_with("--") && t.find('=') == std::string::npos && t.size() > 2;
    bool is_short = !is_long && t.size() == 2 && t[0] == '-' && t[1] != '-';
    if (is_long || is_short) {
      const po::option_description* d = all.find_nothrow(is_long ? t.substr(2) : t.substr(1), false, false, is_short);
      takes_value = d != nullptr && d->semantic()->max_tokens() > 0;
    }
    if (takes_value && i + 1 < tokens.size() && is_negative_number(tokens[i + 1])) {
      out.push_back(t + (is_long ? "=" : "") + tokens[i + 1]);
      ++i;
    } else {
      out.push_back(t);
    }
  }
  return out;
}

std::string strip_dashes(std::string name) {
  name.erase(0, name.find_first_not_of('-'));
  return name;
}

// GAMES in a usage text or an argument's word: the dialects' names, from the dialect table.
std::string with_games(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"GAMES", dialect::game_choices()}});
}

// The synopsis for one-line errors: the usage's first form, with its indented continuation lines joined (a
// line that starts "anvilrt " again is a second form and is left to --help).
std::string synopsis(const std::string& usage) {
  std::vector<absl::string_view> lines = absl::StrSplit(absl::string_view(usage), '\n');
  std::string usage_line(absl::StripPrefix(lines.front(), "usage: "));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    absl::string_view line = absl::StripLeadingAsciiWhitespace(lines[i]);
    if (line.empty() || line == lines[i] || absl::StartsWith(line, "anvilrt ")) break;
    absl::StripTrailingAsciiWhitespace(&usage_line);
    absl::StrAppend(&usage_line, " ", line);
  }
  return usage_line;
}

// The command line stored into `vm` (and checked, unless --help is given: `help` then says so); what is
// wrong with it, in one line without the synopsis, or nothing.
std::optional<std::string> store(int argc, char** argv, const po::options_description& all,
                                 const po::positional_options_description& positional, const std::vector<Arg>& args,
                                 po::variables_map& vm, bool& help) {
  try {
    po::store(po::command_line_parser(join_negative_values(argc, argv, all)).options(all).positional(positional).run(),
              vm);
    help = vm.count("help") != 0;
    if (help) return std::nullopt;
    if (vm.count("unexpected-arguments"))
      return "unexpected argument '" + vm["unexpected-arguments"].as<std::vector<std::string>>()[0] + "'";
    po::notify(vm);
  } catch (const po::required_option& e) {
    std::string name = strip_dashes(e.get_option_name());
    for (const Arg& a : args)
      if (name == a.name) return with_games(absl::StrCat("missing ", a.word));
    return "missing --" + name;
  } catch (const po::unknown_option& e) {
    return "unknown option '" + e.get_option_name() + "'";
  } catch (const po::ambiguous_option& e) {
    return "ambiguous option '" + e.get_option_name() + "'";
  } catch (const po::multiple_occurrences& e) {
    return e.get_option_name() + " given more than once";
  } catch (const po::invalid_command_line_syntax& e) {
    if (e.kind() == po::invalid_syntax::missing_parameter) return e.get_option_name() + " needs a value";
    if (e.kind() == po::invalid_syntax::extra_parameter) return e.get_option_name() + " takes no value";
    return std::string(e.what());
  } catch (const po::error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

}  // namespace

void error(const std::string& what) {
  erase_progress();
  std::cerr << "anvilrt: " << what << "\n";
}

void warning(const std::string& path, const std::string& what) {
  erase_progress();
  std::cerr << "anvilrt: " << path << ": warning: " << what << "\n";
}

bool parse(int argc, char** argv, const char* usage_text, po::options_description& options,
           const std::vector<Arg>& args, Common& common, po::variables_map& vm, int& exit_code) {
  const std::string usage = with_games(usage_text);
  auto fail = [&](const std::string& what) {
    error(what + " (usage: " + synopsis(usage) + ")");
    exit_code = kBadInput;
    return false;
  };

  options.add_options()("quiet,q", po::bool_switch(&common.quiet), "no progress bar and no notes")(
      "verbose,v", po::bool_switch(&common.verbose), "notes on how each file is read")("help,h", "show this help");
  // --help lists the options, not the positionals (the usage line names those).
  po::options_description visible("options");
  for (const auto& option : options.options())
    if (std::none_of(args.begin(), args.end(),
                     [&](const Arg& a) { return a.positions != 0 && option->long_name() == a.name; }))
      visible.add(option);
  po::options_description all = options;
  po::positional_options_description positional;
  bool rest_taken = false;
  for (const Arg& a : args)
    if (a.positions != 0) {
      positional.add(a.name, a.positions);
      rest_taken = rest_taken || a.positions < 0;
    }
  std::vector<std::string> unexpected;
  if (!rest_taken) {
    all.add_options()("unexpected-arguments", po::value(&unexpected));
    positional.add("unexpected-arguments", -1);
  }
  bool help = false;
  if (auto wrong = store(argc, argv, all, positional, args, vm, help)) return fail(*wrong);
  if (help) {
    std::cout << usage << "\n\n" << visible << "\n";
    exit_code = kOk;
    return false;
  }
  // --layout, as add_layout_option() declares it (and gen its own, in the same words).
  if (const auto* given = vm.count("layout") ? boost::any_cast<std::string>(&vm["layout"].value()) : nullptr) {
    const std::string& v = *given;
    if (v.size() != 1 || v[0] < '0' || !forge::ForgeVariant::known_layout(static_cast<unsigned>(v[0] - '0')))
      return fail("the argument ('" + v + "') for option '--layout' is invalid (" + forge::known_layouts() + ")");
    common.layout = static_cast<u8>(v[0] - '0');
  }
  // --jobs, as add_jobs_option() declares it.
  if (const auto* given = vm.count("jobs") ? boost::any_cast<std::string>(&vm["jobs"].value()) : nullptr) {
    u64 jobs = 0;
    if (!parse_count("--jobs", *given, 1, jobs)) {
      exit_code = kBadInput;
      return false;
    }
    set_thread_budget(static_cast<unsigned>(std::min<u64>(jobs, 1024)));
  }
  return true;
}

bool parse_count(const std::string& option, const std::string& text, u64 min, u64& out) {
  u64 value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size()) {
    error(absl::StrFormat("%s %s: must be a whole number, %d or more", option, text, min));
    return false;
  }
  if (ec == std::errc::result_out_of_range) {
    error(absl::StrFormat("%s %s: too large (at most %d)", option, text, UINT64_MAX));
    return false;
  }
  if (value < min) {
    error(absl::StrFormat("%s %s: must be %d or more", option, text, min));
    return false;
  }
  out = value;
  return true;
}

void add_jobs_option(po::options_description& options, const char* what) {
  const std::string help = std::string("threads (default: one per core): ") + what;  // copied by add_options
  options.add_options()("jobs,j", po::value<std::string>(), help.c_str());
}

void add_layout_option(po::options_description& options) {
  options.add_options()("layout", po::value<std::string>(),
                        (std::string("an archive's data-file layout (") + forge::known_layouts() +
                         "), when it is not the one found by content (the layout in which the smallest data "
                         "file's entries' table parses exactly)")
                            .c_str());
}

void add_walked_paths(po::options_description& options, std::vector<std::string>& paths) {
  options.add_options()("all",
                        "in folders, take every file (default: level-file extensions and files that carve an object)")(
      "paths", po::value(&paths)->required()->multitoken(),
      "level files, data files, .forge archives or folders (walked recursively)");
}

bool check_output_choice(const std::string& out, bool in_place, bool dry_run, const char* usage) {
  if (in_place && !out.empty()) {
    error(std::string("give either -o OUT or --in-place, not both") + usage);
    return false;
  }
  if (!dry_run && !in_place && out.empty()) {
    error(std::string("missing -o OUT, --in-place or --dry-run") + usage);
    return false;
  }
  return true;
}

void add_game_option(po::options_description& options, std::string& game) {
  static const std::string help = [] {
    std::string text = "dialect: ";
    for (const dialect::GameFacts& g : dialect::kGames) text.append(g.name).append(" (").append(g.title).append("), ");
    return text + "or auto (the one that carves more bytes, judged on a sample of a large file)";
  }();
  options.add_options()("game", po::value(&game)->default_value("auto"), help.c_str());
  add_layout_option(options);
}

bool check_game_option(const std::string& option) {
  if (option == "auto" || parse_game(option)) return true;
  error("--game must be " + dialect::game_list("auto") + ", not '" + option + "'");
  return false;
}

GameChoice choose_game(const std::string& option, std::span<const u8> bytes, const std::string& path,
                       const Common& common) {
  if (option != "auto") return {*parse_game(option), ""};
  Detection d = detect(bytes);
  return {d.game, detection_note(path, d, common)};
}

std::string detection_note(const std::string& path, const Detection& d, const Common& common) {
  if (!common.verbose) return "";
  return absl::StrFormat(
      "anvilrt: %s: game auto: picked %s (%s: ac2 carves %s, sws %d)\n", path, game_name(d.game),
      d.whole_file ? "the whole file" : absl::StrFormat("%d windows of %d KiB", kDetectWindows, kDetectWindow >> 10),
      counted(d.ac2_bytes, "byte"), d.sws_bytes);
}

Game resolve_game(const std::string& option, std::span<const u8> bytes, const std::string& path, const Common& common) {
  GameChoice choice = choose_game(option, bytes, path, common);
  std::cerr << choice.note;
  return choice.game;
}

void warn_damaged_magic(const std::string& path, std::span<const u8> bytes) {
  if (auto bits = archive_magic_damage(bytes))
    warning(path, "it looks like a damaged .forge archive (its first 8 bytes are the magic \"scimitar\" but for " +
                      *bits + "), read as level data");
}

void warn_no_objects(const std::string& path, const std::string& game_option) {
  warning(path, "no object carved (as " + (game_option == "auto" ? dialect::game_list() : game_option) +
                    "): not level data?");
}

void PathErrors::missing(const std::string& path) {
  error(path + ": no such file or folder");
  ++missing_;
}

void PathErrors::unusable(const std::string& what) {
  error(what);
  ++unreadable_;
}

void PathErrors::failed(const std::string& path, const absl::Status& status) {
  std::error_code ec;
  if (absl::IsNotFound(status) && !std::filesystem::exists(platform::path_of(path), ec) && !ec) {
    missing(path);
    return;
  }
  error(std::string(status.message()));
  ++unreadable_;
}

std::optional<InputFile> open_input(const std::string& path, PathErrors& errors) {
  auto input = InputFile::open(path);
  if (!input.ok()) {
    errors.failed(path, input.status());
    return std::nullopt;
  }
  return std::move(*input);
}

std::optional<std::string> read_patch(const std::string& path, PathErrors& errors, const std::string& target) {
  if (path != "-" && mods::is_mod_package(path)) {
    if (!folder::is_folder(target)) {
      error(absl::StrFormat("%s: a mod package is turned into changes against a game folder: give one (not %s)", path,
                            target));
      return std::nullopt;
    }
    auto text = mods::package_patch_text(path, target);
    if (!text.ok()) {
      error(std::string(text.status().message()));
      return std::nullopt;
    }
    return std::move(*text);
  }
  auto file = open_input(path, errors);
  if (!file) return std::nullopt;
  const std::string_view bytes(reinterpret_cast<const char*>(file->bytes().data()), file->bytes().size());
  auto text = patch::operations_text(path, bytes);
  if (!text.ok()) {
    error(std::string(text.status().message()));
    return std::nullopt;
  }
  return std::move(*text);
}

Source find_source(std::span<const u8> bytes, const std::string& path, const Common& common) {
  Source source = detect_source(bytes, common.layout);
  if (common.verbose && source.kind == SourceKind::data_file)
    std::cerr << "anvilrt: " << path << ": a decompressed data file (" << counted(source.entries, "entry") << ")\n";
  else if (common.verbose && source.kind == SourceKind::archive)
    std::cerr << "anvilrt: " << path << ": a forge archive\n";
  else if (source.kind == SourceKind::level_file)
    warn_damaged_magic(path, bytes);
  return source;
}

Game resolve_game(const std::string& option, std::span<const u8> bytes, const Source& source, const std::string& path,
                  const Common& common) {
  if (option != "auto" || source.kind != SourceKind::data_file) return resolve_game(option, bytes, path, common);
  Game game = detect_game(bytes, source);
  std::cerr << data_file_game_note(path, game, common);
  return game;
}

std::string data_file_game_note(const std::string& path, Game game, const Common& common) {
  if (!common.verbose) return "";
  return absl::StrFormat("anvilrt: %s: game auto: picked %s (carved in the data file's bodies)\n", path,
                         game_name(game));
}

std::span<const char* const> level_extensions() {
  static constexpr const char* kExtensions[] = {".bin", ".data", ".forge"};
  return kExtensions;
}

std::vector<std::string> open_folders(const std::vector<std::string>& paths, PathErrors& errors) {
  std::vector<std::string> opened;
  for (const std::string& path : paths) {
    if (path != "-" && folder::is_folder(path)) {
      auto door = folder::open_game_folder(path, {.archives_required = false});
      if (!door.ok()) {
        errors.failed(path, door.status());
        continue;
      }
      if (!door->recovered.empty()) std::cerr << "anvilrt: " << door->recovered << "\n";
    }
    opened.push_back(path);
  }
  return opened;
}

std::vector<WalkedFile> collect_files(const std::vector<std::string>& paths, bool all, PathErrors& errors) {
  namespace fs = std::filesystem;
  std::vector<WalkedFile> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(platform::path_of(path), ec)) {
      // anvilrt's own files in a game folder are not level data.
      std::vector<WalkedFile> found;
      for (auto it = fs::recursive_directory_iterator(platform::path_of(path), ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->path().filename() == folder::kStateFolder) {
          it.disable_recursion_pending();
          continue;
        }
        if (!it->is_regular_file(ec)) continue;
        std::string ext = platform::utf8_of(it->path().extension());
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
        auto known = level_extensions();
        found.push_back(
            {platform::utf8_of(it->path()), all || std::find(known.begin(), known.end(), ext) != known.end()});
      }
      if (ec) errors.failed(path, absl::UnknownError(path + ": " + ec.message()));
      std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
      files.insert(files.end(), found.begin(), found.end());
    } else if (path == "-" || fs::exists(platform::path_of(path), ec)) {
      // Named on the command line, any readable file counts, not only a regular one: "-" (standard
      // input), /dev/stdin, a FIFO, a process substitution <(…) are read whole (reader/input_file.hpp).
      if (path == "-" && std::any_of(files.begin(), files.end(), [](const WalkedFile& f) { return f.path == "-"; })) {
        errors.unusable("standard input (-) is given twice");
        continue;
      }
      files.push_back({path, true});  // named: read (and reported as unreadable) whatever it is
    } else {
      errors.missing(path);
    }
  }
  return files;
}

void report_skipped(const std::vector<std::string>& skipped, const Common& common) {
  if (skipped.empty() || common.quiet) return;
  if (common.verbose)
    for (const std::string& path : skipped) std::cerr << "anvilrt: " << path << ": skipped: no object carved\n";
  std::cerr << absl::StrFormat(
      "anvilrt: skipped %s of the folders that carve no object and have no level-file extension (--all takes "
      "%s)\n",
      counted(skipped.size(), "file"), skipped.size() == 1 ? "it" : "them");
}

}  // namespace anvil::cli
