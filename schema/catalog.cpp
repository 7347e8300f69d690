#include "schema/catalog.hpp"

#include <cctype>
#include <set>

#include "model/dialect.hpp"
#include "model/forge/archive_header.hpp"
#include "model/forge/data_file.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/data_header.hpp"
#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "model/forge/stored_data_file.hpp"
#include "model/forge/table_section.hpp"

namespace anvil::schema {

namespace {

void collect(const describe::Node& n, std::set<std::string>& seen, std::vector<const describe::Node*>& out) {
  if (n.kind == describe::Kind::kStruct) {
    if (!seen.insert(n.type).second) return;
    out.push_back(&n);
  }
  for (const describe::Node& c : n.children) collect(c, seen, out);
  for (const describe::Alternative& a : n.alternatives) collect(*a.body, seen, out);
}

}  // namespace

std::string constant_name(const describe::Node& constant, int& unnamed) {
  if (constant.shown) return constant.name;
  std::string out;  // "selector link tag" -> "selector_link_tag"
  for (char c : constant.what) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "check_" + std::to_string(unnamed++) : out;
}

std::vector<TopLevel> top_levels() {
  std::vector<TopLevel> out;
  for (const dialect::Kind& k : dialect::kKinds)
    out.push_back(
        {std::string(game_name(k.game)), std::string(k.class_name), k.class_id, dialect::class_offset(k),
         dialect::with_type(k, [](auto t) { return describe::describe_struct<typename decltype(t)::type>(); })});
  return out;
}

std::vector<const describe::Node*> structures(const std::vector<TopLevel>& tops) {
  std::set<std::string> seen;
  std::vector<const describe::Node*> out;
  for (const TopLevel& t : tops) collect(t.layout, seen, out);
  return out;
}

std::vector<describe::Node> containers() {
  using namespace forge;
  using describe::describe_struct;
  return {describe_struct<ArchiveHeader>(),  describe_struct<DataHeader>(), describe_struct<TableSection>(),
          describe_struct<IndexEntry>(),     describe_struct<NameEntry>(),  describe_struct<DataFileHeader>(),
          describe_struct<StoredDataFile>(), describe_struct<DataFile>()};
}

std::vector<const describe::Node*> structures(const std::vector<describe::Node>& roots) {
  std::set<std::string> seen;
  std::vector<const describe::Node*> out;
  for (const describe::Node& r : roots) collect(r, seen, out);
  return out;
}

}  // namespace anvil::schema
