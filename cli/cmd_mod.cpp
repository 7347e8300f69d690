// anvilrt mod (check|install|sync|list|uninstall|merge|forget|recover) ...: mods in a game folder (docs/mods.md).
#include <absl/strings/str_format.h>

#include <iostream>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/did_you_mean.hpp"
#include "cli/progress_bar.hpp"
#include "pipeline/mods/mod_commands.hpp"
#include "pipeline/mods/mod_sync.hpp"

namespace anvil::cli {
namespace {

constexpr const char* kModUsage =
    "usage: anvilrt mod SUBCOMMAND DIR ... (anvilrt mod SUBCOMMAND --help for each)\n\n"
    "Mods in a game folder DIR (its *.forge archives). A MOD is a patch file or mod document, or a mod\n"
    "package: a folder, .zip or .7z holding Extracted/ARCHIVE.forge/NAME.data data files, whole ARCHIVE.forge\n"
    "archives, mod documents and an optional anvilrt-mod.json (docs/mods.md), installed as what it changes.\n"
    "A package's data file that its archive lacks is refused unless --allow-new (check, install, sync).\n"
    "  check DIR MOD... [--allow-new]   what the mods do, after those installed: nothing written\n"
    "  install DIR MOD... [--allow-overrides] [--allow-new]  install in that order, after those installed\n"
    "  sync DIR [MOD...] [--json] [--allow-overrides] [--allow-new]  make the installed mods exactly these, in this "
    "order\n"
    "  list DIR [--json]                the installed mods in load order, with what each changed\n"
    "  uninstall DIR NAME...            remove mods; the others stay in effect in their order\n"
    "  merge MOD... -o MERGED.json [--onto DIR [--allow-overrides] [--allow-new]]\n"
    "                                   one mod that installs as the mods in that order\n"
    "  forget DIR ARCHIVE               take an archive changed behind anvilrt's back as it is now\n"
    "  recover DIR                      finish or roll back an interrupted install or uninstall\n";

struct Sub {
  const char* name;
  const char* usage;  // the --help text
  bool dir = true;    // takes DIR first
  bool mods = false;  // then MOD... / NAME... (one or more)
  bool json = false;  // --json
};

constexpr Sub kSubs[] = {
    {"check",
     "usage: anvilrt mod check DIR MOD... [--json] [--allow-new]\n\n"
     "What the mods do to the game folder DIR, in the order given, after the mods installed there; nothing\n"
     "is written. For each mod: the fields, archives, data files and objects it changes, its operations that\n"
     "fail, its made_for hashes that differ; then each conflict: two mods that leave the same field (or one\n"
     "inside a field the other replaces or removes) different values, with both mods, the path and both\n"
     "values. Archives changed behind anvilrt's back since it last wrote them are named.\n"
     "--allow-new: a package's data file that matches none of its archive's is added to that archive\n"
     "(refused otherwise, naming it).\n"
     "Exit 0 clean; 1 conflicts or failing operations; 2 on bad input.",
     true, true, true},
    {"install",
     "usage: anvilrt mod install DIR MOD... [--allow-overrides] [--allow-new]\n\n"
     "Installs the mods into DIR in the order given, after those installed, as one transaction: every\n"
     "archive changes, with DIR/.anvilrt/, or none. Refuses (exit 1, with check's report) when an operation\n"
     "fails or mods conflict; with --allow-overrides the later mod wins and each override is reported.\n"
     "--allow-new: a package's data file that matches none of its archive's is added to that archive (it is\n"
     "removed again when the mod is uninstalled); refused otherwise, naming it.\n"
     "A mod made_for another archive is warned about. Exit 0; 1 refused; 2 on bad input.",
     true, true, false},
    {"sync",
     "usage: anvilrt mod sync DIR [MOD...] [--json] [--allow-overrides] [--allow-new]\n\n"
     "Makes the mods installed in DIR exactly the mods given, in the order given, as one transaction (the\n"
     "deploy step of a mod manager): installs the new, uninstalls those not given, installs again a mod whose\n"
     "files changed (another version: in its place) or whose place in the order moved. No MOD: every mod\n"
     "uninstalled. With nothing to do (the same mods, files and order) it reads no archive and writes nothing.\n"
     "Refuses (exit 1, with check's report) when an operation fails or mods conflict that were not installed\n"
     "so before; with --allow-overrides the later mod wins and each override is reported. --allow-new: as\n"
     "install takes it. --json: one JSON\n"
     "document on stdout (also for an error, in \"error\"). Exit 0; 1 refused; 2 on bad input.",
     true, true, true},
    {"list", "usage: anvilrt mod list DIR [--json]\n\nThe installed mods in load order, with what each changed.", true,
     false, true},
    {"uninstall",
     "usage: anvilrt mod uninstall DIR NAME...\n\n"
     "Removes the mods; the others stay in effect in their order (the folder is what installing them alone\n"
     "gives). Uninstalling every mod gives the original archives back, byte for byte. One transaction.",
     true, true, false},
    {"merge",
     "usage: anvilrt mod merge MOD... -o MERGED.json [--onto DIR [--allow-overrides] [--allow-new]]\n\n"
     "One mod (named after MERGED's file name) whose install equals installing the mods in that order:\n"
     "their patches one after the other. With --onto, the mods are first checked on the game folder DIR (a\n"
     "mod package needs one: what it changes is found against DIR's original archives): a failing operation\n"
     "refuses the merge, and so does a conflict between the mods unless --allow-overrides, where the later\n"
     "mod wins and each override is named. A package that replaces bytes outside objects or adds a data\n"
     "file (--allow-new) is refused: a document carries no bytes; install it itself.\n"
     "Exit 0; 1 refused; 2 on bad input.",
     false, true, false},
    {"forget",
     "usage: anvilrt mod forget DIR ARCHIVE\n\n"
     "Takes ARCHIVE (changed behind anvilrt's back, a game update) as it is now: its undo data is dropped,\n"
     "and install and uninstall touch it again.",
     true, false, false},
    {"recover",
     "usage: anvilrt mod recover DIR\n\n"
     "Finishes or rolls back an install or uninstall that was interrupted, saying what it did (every\n"
     "command on DIR does it first).",
     true, false, false},
};

int write_report(const absl::StatusOr<mods::WriteReport>& report, const Common& common) {
  if (!report.ok()) {
    error(std::string(report.status().message()));
    return kBadInput;
  }
  for (const std::string& line : report->recovered) std::cerr << "anvilrt: " << line << "\n";
  if (report->refused) {
    std::cout << report->check.text();
    error(report->refusal);
    return kDiffers;
  }
  for (const std::string& note : report->notes)
    if (!common.quiet || note.rfind("override", 0) == 0 || note.rfind("warning", 0) == 0) std::cout << note << "\n";
  return kOk;
}

// `mod install`, with a progress bar on a terminal.
int install_report(const std::string& dir, const std::vector<std::string>& items, const mods::ModOptions& options,
                   const Common& common) {
  ProgressBar bar("install", common.quiet);
  ProgressFn progress;
  if (bar.enabled()) progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
  auto report = mods::install_mods(dir, items, options, progress);
  bar.erase();
  return write_report(report, common);
}

// `mod sync`: its report as text, or as one JSON document (an error too, with exit 2).
int sync_report(const std::string& dir, const std::vector<std::string>& items, const mods::ModOptions& options,
                bool json, const Common& common) {
  ProgressBar bar("sync", common.quiet);
  ProgressFn progress;
  if (bar.enabled()) progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
  auto report = mods::sync_mods(dir, items, options, progress);
  bar.erase();
  if (!report.ok()) {
    error(std::string(report.status().message()));
    if (json) {
      mods::SyncReport failed;
      failed.dir = dir;
      failed.error = std::string(report.status().message());
      std::cout << failed.json();
    }
    return kBadInput;
  }
  for (const std::string& line : report->recovered) std::cerr << "anvilrt: recovered: " << line << "\n";
  if (json)
    std::cout << report->json();
  else if (!common.quiet || report->refused)
    std::cout << report->text();
  else
    for (const std::string& note : report->notes)
      if (note.rfind("override", 0) == 0 || note.rfind("warning", 0) == 0) std::cout << note << "\n";
  if (report->refused) error(report->refusal);
  return report->refused ? kDiffers : kOk;
}

}  // namespace

int run_mod(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "";
  if (name == "-h" || name == "--help") {
    std::cout << kModUsage;
    return kOk;
  }
  const Sub* sub = nullptr;
  for (const Sub& s : kSubs)
    if (name == s.name) sub = &s;
  if (!sub) {
    std::vector<std::string_view> names;
    for (const Sub& s : kSubs) names.push_back(s.name);
    error(name.empty()
              ? "missing SUBCOMMAND (usage: anvilrt mod check|install|sync|list|uninstall|merge|forget|recover)"
              : absl::StrFormat("unknown subcommand '%s'%s (usage: anvilrt mod "
                                "check|install|sync|list|uninstall|merge|forget|recover)",
                                name, did_you_mean(name, names)));
    return kBadInput;
  }
  std::string dir, archive, out;
  std::vector<std::string> items;
  po::options_description options("options");
  std::vector<Arg> args;
  if (sub->dir) {
    options.add_options()("dir", po::value(&dir)->required(), "the game folder");
    args.push_back({"dir", "DIR"});
  }
  if (sub->mods) {
    // sync takes no MOD too: every mod uninstalled.
    auto* value = po::value(&items);
    if (name != "sync") value->required();
    options.add_options()("items", value, "the mods");
    args.push_back({"items", name == "uninstall" ? "NAME" : "MOD", -1});
  }
  if (name == "forget") {
    options.add_options()("archive", po::value(&archive)->required(), "the archive");
    args.push_back({"archive", "ARCHIVE"});
  }
  std::string onto;
  if (name == "merge") {
    options.add_options()("output,o", po::value(&out)->required(), "the merged mod to write (atomically)");
    args.push_back({"output", "-o MERGED.json", 0});
    options.add_options()("onto", po::value(&onto), "the game folder the mods are checked on");
  }
  if (sub->json) options.add_options()("json", "print JSON, for tools");
  if (name == "install" || name == "merge" || name == "sync")
    options.add_options()("allow-overrides", "let the later mod win a conflict, reporting it");
  if (name == "check" || name == "install" || name == "merge" || name == "sync")
    options.add_options()("allow-new", "add a package's data file that its archive lacks, instead of refusing it");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc - 1, argv + 1, sub->usage, options, args, common, vm, code)) return code;
  const bool json = vm.count("json") > 0;
  const mods::ModOptions mod_options{.allow_overrides = vm.count("allow-overrides") > 0,
                                     .allow_new = vm.count("allow-new") > 0};
  if (name == "check" || name == "list") {
    auto report = name == "check" ? mods::check_mods(dir, items, mod_options) : mods::list_mods(dir);
    if (!report.ok()) {
      error(std::string(report.status().message()));
      return kBadInput;
    }
    if (!report->recovered.empty()) std::cerr << "anvilrt: " << report->recovered << "\n";
    std::cout << (json ? report->json() : report->text());
    return name == "check" && report->failing() ? kDiffers : kOk;
  }
  if (name == "sync") return sync_report(dir, items, mod_options, json, common);
  if (name == "install") return install_report(dir, items, mod_options, common);
  if (name == "uninstall") return write_report(mods::uninstall_mods(dir, items), common);
  if (name == "forget") return write_report(mods::forget_archive(dir, archive), common);
  if (name == "merge") {
    if (vm.count("allow-overrides") && onto.empty()) {
      error("--allow-overrides needs --onto DIR: conflicts are found on a game folder");
      return kBadInput;
    }
    mods::MergeOptions merge{
        .onto = {}, .allow_overrides = mod_options.allow_overrides, .allow_new = mod_options.allow_new};
    if (!onto.empty()) merge.onto = onto;
    return write_report(mods::merge_mods(items, out, merge), common);
  }
  auto done = mods::recover(dir);
  if (!done.ok()) {
    error(std::string(done.status().message()));
    return kBadInput;
  }
  std::cout << (done->empty() ? dir + ": nothing to recover" : *done) << "\n";
  return kOk;
}

}  // namespace anvil::cli
