// The commands of the command line (FORMAT.md section 6). Each parses its arguments and calls the
// library; none holds format logic.
#pragma once

#include <span>

#include "cli/common.hpp"
#include "cli/version.hpp"

namespace anvil::cli {

struct Command {
  const char* name;
  int (*run)(int argc, char** argv);
};

int run_verify(int argc, char** argv);
int run_dump(int argc, char** argv);
int run_build(int argc, char** argv);
int run_patch(int argc, char** argv);
int run_diff(int argc, char** argv);
int run_gen(int argc, char** argv);
int run_stats(int argc, char** argv);
int run_ls(int argc, char** argv);
int run_extract(int argc, char** argv);
int run_put(int argc, char** argv);
int run_pack(int argc, char** argv);
int run_compact(int argc, char** argv);
int run_schema(int argc, char** argv);
int run_mod(int argc, char** argv);
int run_map(int argc, char** argv);
int run_serve(int argc, char** argv);
int run_export(int argc, char** argv);
int run_import(int argc, char** argv);

inline std::span<const Command> commands() {
  static const Command list[] = {
      {"verify", run_verify},   {"dump", run_dump},     {"build", run_build},     {"patch", run_patch},
      {"diff", run_diff},       {"gen", run_gen},       {"stats", run_stats},     {"ls", run_ls},
      {"extract", run_extract}, {"put", run_put},       {"pack", run_pack},       {"compact", run_compact},
      {"schema", run_schema},   {"mod", run_mod},       {"map", run_map},         {"serve", run_serve},
      {"export", run_export},   {"import", run_import}, {"version", run_version},
  };
  return list;
}

}  // namespace anvil::cli
