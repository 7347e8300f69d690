#include "tests/game_folder_support.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdlib>
#include <filesystem>

#include "platform/environment.hpp"

namespace anvil::test {

namespace fs = std::filesystem;

FolderSnapshot snapshot_folder(const std::string& dir) {
  FolderSnapshot snapshot;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".forge")
      snapshot[entry.path().filename().string()] = read_file(entry.path().string());
  return snapshot;
}

void restore_folder(const std::string& dir, const FolderSnapshot& snapshot) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, bytes] : snapshot) write_file((fs::path(dir) / name).string(), bytes);
}

void generate_game_folder(const std::string& dir, const std::string& game, const std::vector<std::string>& names,
                          const std::vector<int>& seeds, int datafiles, int visuals) {
  fs::create_directories(dir);
  for (std::size_t i = 0; i < names.size(); ++i) {
    CliResult r = run_cli({"gen", "--forge", "--game", game, "--datafiles", std::to_string(datafiles), "--visuals",
                           std::to_string(visuals), "--seed", std::to_string(seeds.at(i)), "-o",
                           (fs::path(dir) / names[i]).string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
}

std::vector<std::pair<std::string, std::vector<std::string>>> archive_keys(const std::string& archive) {
  std::vector<std::pair<std::string, std::vector<std::string>>> keys;
  CliResult r = run_cli({"dump", archive});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("datafiles")) return keys;
  for (auto& datafile : doc["datafiles"].GetObject()) {
    std::vector<std::string> list;
    for (auto& object : datafile.value["objects"].GetObject()) list.emplace_back(object.name.GetString());
    keys.emplace_back(datafile.name.GetString(), std::move(list));
  }
  return keys;
}

std::string object_field(const std::string& archive, const std::string& key, const std::string& field) {
  CliResult r = run_cli({"dump", archive});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("datafiles")) return {};
  for (auto& datafile : doc["datafiles"].GetObject()) {
    auto& objects = datafile.value["objects"];
    if (!objects.HasMember(key.c_str())) continue;
    auto& object = objects[key.c_str()];
    if (!object.HasMember(field.c_str())) return {};
    rapidjson::StringBuffer text;
    rapidjson::Writer<rapidjson::StringBuffer> writer(text);
    object[field.c_str()].Accept(writer);
    return text.GetString();
  }
  return {};
}

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  platform::set_environment(name, value);
}
ScopedEnv::~ScopedEnv() { platform::unset_environment(name_); }

namespace {

// Journal or temporaries left in DIR (what recovery must have removed).
std::vector<std::string> leftovers(const std::string& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == "journal" || name == "journal.new" || name.ends_with(".anvilrt-txn"))
      found.push_back(entry.path().string());
  }
  return found;
}

}  // namespace

CrashSweepResult run_crash_sweep(const CrashSweep& sweep) {
  CrashSweepResult result;
  const std::vector<std::string> recover =
      sweep.recover.empty() ? std::vector<std::string>{"verify", sweep.dir} : sweep.recover;
  for (int step = 1; step <= 500; ++step) {
    restore_folder(sweep.dir, sweep.before);
    if (sweep.prepare) sweep.prepare();
    CliResult run;
    {
      ScopedEnv crash("ANVILRT_CRASH_AT_STEP", std::to_string(step));
      run = run_cli(sweep.command);
    }
    if (run.exit_code == 0) {
      EXPECT_EQ(snapshot_folder(sweep.dir), sweep.after) << "the run that completed (step " << step << ")";
      EXPECT_GT(result.killed, 0) << "no step of the command was killed: the crash hook is not reached";
      return result;
    }
    EXPECT_EQ(run.exit_code, 137) << "step " << step << ": " << run.err;
    if (run.exit_code != 137) return result;
    ++result.killed;
    CliResult recovered = run_cli(recover);
    EXPECT_EQ(recovered.exit_code, 0) << "recovery after step " << step << ": " << recovered.err;
    FolderSnapshot now = snapshot_folder(sweep.dir);
    if (now == sweep.before) {
      ++result.ended_before;
    } else if (now == sweep.after) {
      ++result.ended_after;
    } else {
      ADD_FAILURE() << "killed at step " << step << ": the folder is neither entirely before nor entirely after";
      return result;
    }
    EXPECT_EQ(leftovers(sweep.dir), std::vector<std::string>{}) << "after step " << step;
    CliResult verified = run_cli({"verify", sweep.dir});
    EXPECT_EQ(verified.exit_code, 0) << "after step " << step << ": " << verified.err;
  }
  ADD_FAILURE() << "the command never completed in 500 runs";
  return result;
}

}  // namespace anvil::test
