// The `.forge` rows of the performance table, measured through the `anvilrt` binary on
// archives it generates (`gen --forge`), plus the LZO decoder against liblzo2 alone in process.
#pragma once

#include <string>
#include <vector>

#include "model/primitives.hpp"

namespace anvil::bench {

struct CliRun {
  double wall = -1;  // seconds; -1 when the command failed
  double cpu = 0;    // seconds of user and system time of the command
  long peak_rss_kib = 0;
};
// Runs the binary with `args` (stdout to /dev/null), its wall time and peak RSS; the wall time only when it
// exits with `expected` (diff exits 1 when its inputs differ).
CliRun run_cli(const std::vector<std::string>& args, int expected = 0);
// The run of `runs` with the least wall time (its CPU time with it), and the highest peak RSS of them.
CliRun fastest(const std::vector<std::string>& args, int runs, int expected = 0);

struct ForgeRowOptions {
  std::string anvilrt;  // the binary
  std::string dir;      // where the archives go
  u64 visuals = 0;      // the census-size level: Visuals in all, split over `datafiles` data files
  u64 datafiles = 64;
  u64 big_visuals = 0;  // the large archive's Visuals (the 1 GB rows); 0: those rows are skipped
  int runs = 3;
};

// Prints the rows and their targets.
void forge_rows(const ForgeRowOptions& options);

// `diff` of two archives of about 150 MB (from the census-size level's Visuals) that differ in one data file,
// against decompressing that data file twice (the issue-24 target: <= 1.5 x).
void diff_rows(const ForgeRowOptions& options);

// A patch that grows one object of the largest compressed data file of the census-size archive against the
// same object patched in place (the issue-26 target: <= 1.5 x).
void resize_rows(const ForgeRowOptions& options);

// `put` of a data file of about 20 MB into an archive of about 1 GB (gen --forge: 75 data files, the
// first of 2 entry bodies of 14,370 Visuals each), one byte edited and grown by 4 KiB, against compressing
// that data file and copying the archive durably (the issue-24 target: <= 2 x; peak RSS <= 64 MiB + the
// data file).
void put_rows(const ForgeRowOptions& options);

// `anvilrt serve` of an archive of about 150 MB (bench/serve_rows.cpp): the first page answered after start
// (the issue-38 target: <= 2 s), the search index's time, and a search over every instance (<= 200 ms).
void serve_rows(const ForgeRowOptions& options);

// The editor's map on the census-size level file (bench/serve_map_rows.cpp, bench/serve_map.py): the page
// opened to the first map drawn (the issue-51 target: <= 2 s), and a pan or zoom frame (<= 50 ms).
void serve_map_rows(const ForgeRowOptions& options);

// `anvilrt mod` over a game folder of three archives of about 330 MB (bench/mod_rows.cpp): install of three
// mods, each changing one object of one data file of its own archive, against `patch --in-place` of the same
// operation on each archive (the issue-40 target: <= 1.3 x), check of the same (<= 0.5 s), and the undo
// data's size (<= 1.1 x the touched data files' stored bytes + 1 MiB).
void mod_rows(const ForgeRowOptions& options);

// `anvilrt mod sync` with nothing to do on the game folder `folder` of mod_rows (bench/mod_sync_rows.cpp),
// with 1 and with 20 mods installed (the issue-52 target: <= 0.1 s at any number of installed mods).
void mod_sync_rows(const ForgeRowOptions& options, const std::string& folder);

// The machine the rows were measured on: its CPU model (/proc/cpuinfo), its cores, and the rate it copies
// memory at (memcpy of 256 MiB, the fastest of 5), since the ratios to a bare level differ by machine.
std::string machine_line();

// The same objects in four forms, verified with --no-json at --jobs 1 and on all cores (the default:
// --game auto): the bare level files of a data file's bodies, the plain data files (as `extract` writes
// them), the archive they come from (`gen --forge`: LZO1X and LZO2A data files and a plain one), and those
// data files packed again as LZO1X (bench/same_objects_rows.cpp); then
// a patch of one object by /objects/KEY against the same patch by /datafiles/NAME/objects/KEY. The
// issue-25 targets printed with each ratio.
void same_objects_rows(const ForgeRowOptions& options);

}  // namespace anvil::bench
