// `anvilrt mod sync DIR MOD...` (docs/mods.md): the deploy step a mod manager calls. It makes the
// installed mods exactly the given ones, in the given order, as one folder transaction: the new installed,
// the absent uninstalled, a mod whose files changed (another version) or whose place in the order moved
// installed again in its place (load_order.hpp). With nothing to do (the same names and digests in the same
// order, every archive mods changed still as anvilrt left it by its size and time) it reads no archive and
// writes nothing.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <string>
#include <vector>

#include "model/progress.hpp"
#include "pipeline/mods/mod_check.hpp"
#include "pipeline/mods/mod_effects.hpp"

namespace anvil::mods {

struct SyncFailure {
  std::string mod;
  std::string message;  // "op 3 (/path): reason"
};

// What sync did, or why it refused: one value, written as text or as one JSON document (`--json`).
struct SyncReport {
  std::string dir;                                               // the game folder, as the user named it
  std::vector<std::string> recovered;                            // what finishing an interrupted transaction did first
  std::vector<std::string> installed, uninstalled, reinstalled;  // mod names, each in load order
  std::vector<std::string> order;                                // the load order after (as given)
  bool nothing_to_do = false;
  std::vector<Conflict> conflicts;  // refused: conflicts not settled before (without --allow-overrides)
  std::vector<Conflict> overrides;  // with --allow-overrides: the conflicts the later mod won
  std::vector<SyncFailure> failures;
  std::vector<std::string> notes;  // warnings (made_for), the archives written
  bool refused = false;
  std::string refusal;
  std::string check_text;            // refused: the analysis, as `mod check` prints it
  std::optional<std::string> error;  // bad input: the one-line error (exit 2)

  std::string json() const;
  std::string text() const;  // what `mod sync` prints on stdout (without the refusal, said on stderr)
};

// Sync; an error (bad input, exit 2) is the StatusOr's, a refusal (exit 1) the report's.
absl::StatusOr<SyncReport> sync_mods(const std::string& dir, const std::vector<std::string>& mod_paths,
                                     const ModOptions& options, const ProgressFn& progress = {});

}  // namespace anvil::mods
