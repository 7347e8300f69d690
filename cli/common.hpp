// What every command shares: the one-line error format, `--game`, and walking the paths it is given.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/object.hpp"
#include "reader/level_source.hpp"

namespace anvil::cli {

namespace po = boost::program_options;

// Exit codes of FORMAT.md section 6.
inline constexpr int kOk = 0;
inline constexpr int kDiffers = 1;
inline constexpr int kBadInput = 2;

// Prints "anvilrt: <what>" on stderr.
void error(const std::string& what);

// The `--game` option, and its meaning for one file: `auto` carves with both dialects and picks the
// one that carves more bytes, saying so on stderr.
void add_game_option(po::options_description& options, std::string& game);
// Whether `--game` names ac2, sws or auto; prints the one-line error when not.
bool check_game_option(const std::string& option);
std::optional<Game> resolve_game(const std::string& option, std::span<const u8> bytes, const std::string& path,
                                 bool quiet = false);

// What `path` holds (a level file, a decompressed data file or a `.forge` archive, by content), said on
// stderr unless `quiet` or a level file, which reads as it always has.
Source find_source(std::span<const u8> bytes, const std::string& path, bool quiet);
// `--game` for a level file or a data file (`auto` carves inside a data file's bodies).
std::optional<Game> resolve_game(const std::string& option, std::span<const u8> bytes, const Source& source,
                                 const std::string& path, bool quiet);

// The paths that are not folders as given ("-" for standard input once), and every regular file under
// the folders (recursively, in sorted order); errors for paths that do not exist.
std::vector<std::string> collect_files(const std::vector<std::string>& paths, bool& ok);

// Parses the command line of one command; prints usage and returns false on error or --help.
bool parse(int argc, char** argv, const char* usage, const po::options_description& options,
           const po::positional_options_description& positional, po::variables_map& vm, int& exit_code);

}  // namespace anvil::cli
