// docs/patches.md, the patch-language reference, cannot rot: every example in it (a ```json block after a
// line "Applies to `corpus/F`", "Fails on `corpus/F` (exit 1)" or "Refused on `corpus/F` (exit 2)") is
// applied to its corpus file through `anvilrt patch` and must exit as that line says; a failing example's
// ```text block after it is the exact error line. Every operation the engine knows has an example that
// applies.
#include <absl/strings/ascii.h>
#include <absl/strings/str_split.h>
#include <absl/strings/strip.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

struct DocExample {
  std::size_t line = 0;  // of the ```json fence, 1-based
  std::string file;      // relative to corpus/
  int exit_code = 0;
  std::string patch;
  std::string message;  // the expected error line of a failing example
};

std::string patches_doc() { return test::corpus("../docs/patches.md"); }

// A line that names the corpus file of the example after it: "VERB `corpus/FILE`", then " (exit N)" when
// it fails, then a space, comma or colon and any text.
struct Marker {
  std::string verb, file;
  std::optional<int> exit;
};
std::optional<Marker> parse_marker(absl::string_view line) {
  Marker m;
  for (const char* verb : {"Applies to", "Fails on", "Refused on"})
    if (absl::ConsumePrefix(&line, std::string(verb) + " `corpus/")) m.verb = verb;
  const std::size_t tick = line.find('`');
  if (m.verb.empty() || tick == 0 || tick == absl::string_view::npos) return std::nullopt;
  m.file = std::string(line.substr(0, tick));
  line.remove_prefix(tick + 1);
  if (line.size() >= 9 && absl::ConsumePrefix(&line, " (exit ") && absl::ascii_isdigit(line[0]) && line[1] == ')') {
    m.exit = line[0] - '0';
    line.remove_prefix(2);
  }
  if (line.empty() || (line[0] != ' ' && line[0] != ',' && line[0] != ':')) return std::nullopt;
  return m;
}

// The examples of docs/patches.md; a malformed one (a block without its line, a failing example without
// its error) is an error in `problems`.
std::vector<DocExample> read_examples(std::vector<std::string>& problems) {
  std::istringstream in(test::read_text(patches_doc()));
  std::vector<DocExample> examples;
  std::optional<DocExample> pending;  // a marker line seen, its example not yet
  bool want_message = false;          // the last example fails: its ```text block comes next
  std::string line;
  std::size_t number = 0;
  auto block = [&](std::size_t start) {
    std::string text, l;
    while (std::getline(in, l)) {
      ++number;
      if (l == "```") return text;
      text += l + "\n";
    }
    problems.push_back("line " + std::to_string(start) + ": a fenced block that does not end");
    return text;
  };
  while (std::getline(in, line)) {
    ++number;
    if (auto m = parse_marker(line)) {
      if (want_message)
        problems.push_back("line " + std::to_string(number) + ": the example before has no ```text error");
      want_message = false;
      DocExample e;
      e.file = m->file;
      e.exit_code = m->verb == "Applies to" ? 0 : m->verb == "Fails on" ? 1 : 2;
      if (m->exit && *m->exit != e.exit_code)
        problems.push_back("line " + std::to_string(number) + ": \"" + m->verb + "\" with exit " +
                           std::to_string(*m->exit));
      if (e.exit_code != 0 && !m->exit)
        problems.push_back("line " + std::to_string(number) + ": a failing example names no exit status");
      pending = e;
    } else if (line == "```json") {
      std::size_t start = number;
      std::string text = block(start);
      if (!pending) {
        problems.push_back("line " + std::to_string(start) + ": a ```json example with no line naming its corpus file");
        continue;
      }
      pending->line = start;
      pending->patch = text;
      examples.push_back(*pending);
      want_message = pending->exit_code != 0;
      pending.reset();
    } else if (line == "```text") {
      std::size_t start = number;
      std::string text = block(start);
      if (!want_message) {
        problems.push_back("line " + std::to_string(start) + ": an error line that follows no failing example");
        continue;
      }
      if (text.empty() || text.find('\n') != text.size() - 1)
        problems.push_back("line " + std::to_string(start) + ": the error must be one line");
      examples.back().message = text.substr(0, text.find('\n'));
      want_message = false;
    } else if (line.starts_with("```") && line != "```") {
      std::size_t start = number;
      block(start);
      problems.push_back("line " + std::to_string(start) + ": a fenced block of another language: " + line);
    } else if (line == "```") {
      block(number);  // a shape or a command, not an example
    }
  }
  if (want_message) problems.push_back("the last example has no ```text error");
  if (pending) problems.push_back("a line naming a corpus file with no example after it");
  return examples;
}

TEST(PatchesDoc, EveryExampleIsMarkedWithItsFile) {
  std::vector<std::string> problems;
  std::vector<DocExample> examples = read_examples(problems);
  for (const std::string& p : problems) ADD_FAILURE() << "docs/patches.md: " << p;
  EXPECT_GE(examples.size(), 30u);
}

TEST(PatchesDoc, EveryExampleDoesWhatItsLineSays) {
  std::vector<std::string> problems;
  std::vector<DocExample> examples = read_examples(problems);
  ASSERT_FALSE(examples.empty());
  test::TempDir dir;
  std::size_t n = 0;
  for (const DocExample& e : examples) {
    SCOPED_TRACE("docs/patches.md line " + std::to_string(e.line) + ", on corpus/" + e.file);
    std::string patch = dir.path("example" + std::to_string(n) + ".json");
    std::string out = dir.path("out" + std::to_string(n++));
    test::write_file(patch, std::vector<u8>(e.patch.begin(), e.patch.end()));
    ASSERT_TRUE(std::filesystem::exists(test::corpus(e.file)));
    auto r = test::run_cli({"patch", "-q", test::corpus(e.file), patch, "-o", out});
    EXPECT_EQ(r.exit_code, e.exit_code) << r.err;
    if (e.exit_code == 0) {
      EXPECT_TRUE(std::filesystem::exists(out));
      EXPECT_EQ(r.err, "");
      continue;
    }
    EXPECT_FALSE(std::filesystem::exists(out));
    std::string err = r.err;
    for (std::size_t at = err.find(patch); at != std::string::npos; at = err.find(patch))
      err.replace(at, patch.size(), "PATCH");
    EXPECT_EQ(err, e.message + "\n");
  }
}

// The operations the engine knows, as its refusal of an unknown one lists them.
std::vector<std::string> known_operations() {
  test::TempDir dir;
  std::string patch = dir.path("unknown.json");
  std::string text = R"([{"op": "no such operation"}])";
  test::write_file(patch, std::vector<u8>(text.begin(), text.end()));
  auto r = test::run_cli({"patch", "-q", test::corpus("ac2/direct_mesh.bin"), patch, "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  std::vector<std::string> ops;
  const std::string lead = "unknown op \"no such operation\" (";
  const std::size_t start = r.err.find(lead);
  const std::size_t end = start == std::string::npos ? start : r.err.find(')', start + lead.size());
  if (end == std::string::npos) {
    ADD_FAILURE() << "no list of operations in: " << r.err;
    return ops;
  }
  for (absl::string_view name : absl::StrSplit(r.err.substr(start + lead.size(), end - start - lead.size()),
                                               absl::ByAnyChar(", "), absl::SkipEmpty()))
    ops.emplace_back(name);
  return ops;
}

TEST(PatchesDoc, EveryOperationHasAnExampleThatApplies) {
  std::vector<std::string> problems;
  std::vector<DocExample> examples = read_examples(problems);
  std::vector<std::string> ops = known_operations();
  EXPECT_GE(ops.size(), 10u);
  for (const std::string& op : ops) {
    bool applied = false;
    for (const DocExample& e : examples)
      applied = applied || (e.exit_code == 0 && e.patch.find("\"op\": \"" + op + "\"") != std::string::npos);
    EXPECT_TRUE(applied) << "docs/patches.md has no example of \"" << op << "\" that applies";
  }
}

}  // namespace
}  // namespace anvil
