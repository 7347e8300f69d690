// The man page the build makes (cmake/man_page.cmake) holds every command, as `anvilrt help COMMAND`
// prints it; the help texts, the man page and the shipped documents cite only files of the repository.
#include <absl/strings/ascii.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/commands.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

std::string man_page() { return test::read_text(ANVILRT_MAN_PAGE); }

// The text of a no-fill block as it reads (cli/man_page.hpp roff_text, undone).
std::string unroff(std::string_view roff) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < roff.size(); ++i) {
    char c = roff[i];
    if (c == '\\' && i + 1 < roff.size()) {
      char next = roff[++i];
      if (next == '-')
        out += '-';
      else if (next == 'e')
        out += '\\';
      else if (next != '&' || !line_start)
        out += std::string("\\") + next;
      line_start = false;
      continue;
    }
    out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string without_final_newlines(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The first no-fill block after `heading` in the man page, as it reads; empty when there is none.
std::string block_after(const std::string& page, const std::string& heading) {
  std::size_t at = page.find(heading);
  if (at == std::string::npos) return "";
  at = page.find("\n.nf\n", at);
  if (at == std::string::npos) return "";
  at += 5;
  std::size_t end = page.find("\n.fi\n", at);
  if (end == std::string::npos) return "";
  return unroff(std::string_view(page).substr(at, end - at));
}

TEST(ManPage, ShowsEveryCommandAsItsHelpDoes) {
  std::string page = man_page();
  for (const cli::Command& c : cli::commands()) {
    SCOPED_TRACE(c.name);
    auto help = test::run_cli({"help", c.name});
    ASSERT_EQ(help.exit_code, 0) << help.err;
    std::string shown = block_after(page, std::string("\n.SS anvilrt ") + c.name + "\n");
    EXPECT_FALSE(shown.empty()) << "the man page has no section for " << c.name;
    EXPECT_EQ(shown, without_final_newlines(help.out));
  }
  EXPECT_EQ(block_after(page, "\n.SH COMMANDS\n"), without_final_newlines(test::run_cli({"--help"}).out));
}

TEST(ManPage, OverviewListsEveryCommand) {
  auto overview = test::run_cli({"--help"});
  for (const cli::Command& c : cli::commands())
    EXPECT_NE(overview.out.find(std::string("\n  ") + c.name + " "), std::string::npos)
        << c.name << " is not in anvilrt --help";
}

// Every "docs/NAME.md" that `text` names (NAME of letters, digits and "_.-").
std::vector<std::string> cited_docs(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t at = text.find("docs/"); at != std::string_view::npos; at = text.find("docs/", at + 1)) {
    std::size_t end = at + 5;
    while (end < text.size() && (absl::ascii_isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
                                 text[end] == '.' || text[end] == '-'))
      ++end;
    std::string_view run = text.substr(at, end - at);
    std::size_t md = run.rfind(".md");
    if (md != std::string_view::npos && md > 5) out.emplace_back(run.substr(0, md + 3));
  }
  return out;
}

// Every document that a help text, the man page or a shipped document (README, docs/, corpus/) names exists
// in the repository, and none is outside it (the developers' contract is not shipped).
TEST(ShippedDocs, CiteOnlyFilesOfTheRepository) {
  std::filesystem::path root = std::filesystem::path(test::corpus("..")).lexically_normal();
  std::vector<std::pair<std::string, std::string>> texts = {{"anvilrt --help", test::run_cli({"--help"}).out},
                                                            {"the man page", man_page()}};
  for (const cli::Command& c : cli::commands())
    texts.emplace_back(std::string("anvilrt help ") + c.name, test::run_cli({"help", c.name}).out);
  std::vector<std::filesystem::path> docs = {root / "README.md"};
  for (const char* folder : {"docs", "corpus"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder))
      if (entry.path().extension() == ".md") docs.push_back(entry.path());
  for (const auto& doc : docs) texts.emplace_back(doc.lexically_relative(root).string(), test::read_text(doc.string()));
  EXPECT_GT(texts.size(), 30u);
  std::size_t count = 0;
  for (const auto& [what, text] : texts) {
    for (const char* outside : {"FORMAT.md", "FORGE.md", "../shared", "/work/"})
      EXPECT_EQ(text.find(outside), std::string::npos) << what << " cites " << outside;
    for (const std::string& doc : cited_docs(text)) {
      ++count;
      EXPECT_TRUE(std::filesystem::exists(root / doc)) << what << " cites " << doc;
    }
  }
  EXPECT_GT(count, 0u);
}

}  // namespace
}  // namespace anvil
