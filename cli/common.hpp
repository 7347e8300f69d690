// What every command shares: the one-line messages, the options every command takes (-q, -v, --help),
// parsing a command line into errors that name the user's words, counts, `--game`, opening inputs and
// walking folders (README: conventions).
#pragma once

#include <absl/status/status.h>

#include <boost/program_options.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/object.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"

namespace anvil::cli {

namespace po = boost::program_options;

// Exit codes of FORMAT.md section 6.
inline constexpr int kOk = 0;
inline constexpr int kDiffers = 1;
inline constexpr int kBadInput = 2;

// Prints "anvilrt: <what>" on stderr.
void error(const std::string& what);
// Prints "anvilrt: <path>: warning: <what>" on stderr.
void warning(const std::string& path, const std::string& what);

// -q/--quiet: no progress bar, no notes (warnings and errors stay); -v/--verbose: notes on how each file
// was read (the dialect `auto` picked and why, files a folder walk skipped).
struct Common {
  bool quiet = false;
  bool verbose = false;
  std::optional<u8> layout;  // --layout: the data-file layout the user names (FORGE.md 7), when given
};

// `-j/--jobs N`: the threads every parallel step of the command may use (files at once, a file's parts,
// block compression, the search of an archive's data files for a key); parse() checks it and hands it to
// set_thread_budget() (model/parallel.hpp), which every such step asks. Default: one per core.
void add_jobs_option(po::options_description& options, const char* what);

// An argument as the usage names it: a positional (`positions` 1, or -1 for all the rest) or a
// required option (`positions` 0), e.g. {"patch", "PATCH", 1}, {"output", "-o OUT", 0}.
struct Arg {
  const char* name;  // the option's name in `options`
  const char* word;  // what the usage calls it
  int positions = 1;
};

// Parses the command line of one command (argv[0] is the command's name). `usage` is the --help text,
// whose first line is "usage: anvilrt CMD ...", with GAMES for the dialects' names ("ac2|sws"). Adds -q, -v and -h to
// `options`. On an error prints one line that names what the user typed ("missing PATCH (usage: …)", "unknown option
// '--frob' (usage: …)", "unexpected argument 'x' (usage: …)") and returns false with exit_code 2; on --help prints the
// help and returns false with exit_code 0.
bool parse(int argc, char** argv, const char* usage, po::options_description& options, const std::vector<Arg>& args,
           Common& common, po::variables_map& vm, int& exit_code);

// `--all` and the positional PATH... of the commands that walk folders (verify, stats): level files, data
// files, .forge archives or folders.
void add_walked_paths(po::options_description& options, std::vector<std::string>& paths);

// Whether the command was told where its output goes: exactly one of -o OUT and --in-place, or --dry-run.
// Prints the one-line error (with `usage`, " (usage: anvilrt CMD ...)") when not.
bool check_output_choice(const std::string& out, bool in_place, bool dry_run, const char* usage);

// A count given as `option` (as the user spelled it): a whole number of at least `min`. Prints
// "--jobs 0: must be 1 or more" or "--visuals -3: must be a whole number" when not.
bool parse_count(const std::string& option, const std::string& text, u64 min, u64& out);

// The `--game` option, and its meaning for one file: `auto` picks the dialect (reader/level.hpp
// detect()), and says which on stderr with --verbose only: quiet when all is well.
void add_game_option(po::options_description& options, std::string& game);
// `--layout 0|1|2|3`: the data-file layout of an archive's data files (FORGE.md 7), when the one found by
// content is not what the user wants: parse() checks it and sets Common::layout, which the commands pass to
// the readers. add_game_option() adds it too.
void add_layout_option(po::options_description& options);
// Whether `--game` names ac2, sws or auto; prints the one-line error when not.
bool check_game_option(const std::string& option);
Game resolve_game(const std::string& option, std::span<const u8> bytes, const std::string& path, const Common& common);
// The same, with the note (a line for stderr, or empty) returned for a caller that prints in order.
struct GameChoice {
  Game game = Game::ac2;
  std::string note;
};
GameChoice choose_game(const std::string& option, std::span<const u8> bytes, const std::string& path,
                       const Common& common);
// The --verbose note of the dialect `auto` picked in a level file as `d` says: a line for stderr, or empty.
std::string detection_note(const std::string& path, const Detection& d, const Common& common);
// The --verbose note of the dialect `auto` picked inside a data file's bodies: a line for stderr, or empty.
std::string data_file_game_note(const std::string& path, Game game, const Common& common);

// Warns that a file read as level data looks like a damaged .forge archive (its first 8 bytes differ from
// the magic in one or two bits, named), when it does.
void warn_damaged_magic(const std::string& path, std::span<const u8> bytes);

// Warns that a file read as level data carves no object (random bytes are never a silent success).
void warn_no_objects(const std::string& path, const std::string& game_option);

// Missing and unreadable paths, reported one line each and counted, the same way by every command.
class PathErrors {
 public:
  void missing(const std::string& path);
  // A failure to open `path` (InputFile::open): missing when it does not exist, else unreadable.
  void failed(const std::string& path, const absl::Status& status);
  // A path that cannot be used as given (standard input named twice), counted as unreadable.
  void unusable(const std::string& what);
  std::size_t missing_count() const { return missing_; }
  std::size_t unreadable_count() const { return unreadable_; }
  bool any() const { return missing_ + unreadable_ > 0; }

 private:
  std::size_t missing_ = 0, unreadable_ = 0;
};

// Opens an input file, reporting a failure through `errors`.
std::optional<InputFile> open_input(const std::string& path, PathErrors& errors);
// The operations of the patch file `path`, which may also be a mod document (docs/mods.md), as patch text
// (patch::operations_text), or a mod package (a folder, .zip or .7z: the operations it amounts to against
// the game folder `target`, pipeline/mods/package_patch.hpp; refused where `target` is no game folder); a
// failure is reported (through `errors`, or one line naming the file).
std::optional<std::string> read_patch(const std::string& path, PathErrors& errors, const std::string& target);

// What `path` holds (a level file, a decompressed data file or a `.forge` archive, by content), said on
// stderr with --verbose unless a level file, which reads as it always has; a level file whose first bytes are
// the archive magic but for a bit or two is warned about (warn_damaged_magic).
Source find_source(std::span<const u8> bytes, const std::string& path, const Common& common);
// `--game` for a level file or a data file (`auto` carves inside a data file's bodies).
Game resolve_game(const std::string& option, std::span<const u8> bytes, const Source& source, const std::string& path,
                  const Common& common);

// The extensions of level files that a folder walk takes without looking inside (README).
std::span<const char* const> level_extensions();

// A file a walk found: `sure` when it was named on the command line, has a level-file extension or
// --all was given; otherwise it is taken only if it carves at least one object.
struct WalkedFile {
  std::string path;
  bool sure = true;
};
// The paths, each folder among them opened through the one door (folder::open_game_folder), which
// finishes or rolls back an interrupted transaction there (its line said on stderr) before collect_files
// lists it; a folder that does not open is reported through `errors` and left out.
std::vector<std::string> open_folders(const std::vector<std::string>& paths, PathErrors& errors);
// Every regular file under the given paths (folders recursively, in sorted order); missing paths are
// reported through `errors`.
std::vector<WalkedFile> collect_files(const std::vector<std::string>& paths, bool all, PathErrors& errors);
// Tells how many files a walk skipped because they carve no object (and, with --verbose, which).
void report_skipped(const std::vector<std::string>& skipped, const Common& common);

}  // namespace anvil::cli
