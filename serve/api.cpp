// The editor's API (serve/api.hpp).
#include "serve/api.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <optional>

#include "model/object.hpp"
#include "model/parallel.hpp"
#include "platform/replace_file.hpp"
#include "reader/level_source.hpp"
#include "serve/fields.hpp"
#include "serve/output_name.hpp"
#include "serve/request_json.hpp"

namespace anvil::serve {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

std::string text_of(const rapidjson::Value& v) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  v.Accept(w);
  return {buffer.GetString(), buffer.GetSize()};
}

// The request's "patch": its text, or the error reply.
absl::StatusOr<std::string> patch_of(const rapidjson::Document& request) {
  auto p = request.FindMember("patch");
  if (p == request.MemberEnd() || !p->value.IsArray())
    return absl::InvalidArgumentError("the request has no \"patch\" array");
  return text_of(p->value);
}

Reply json_reply(const rapidjson::StringBuffer& buffer, int status = 200) {
  return {status, std::string(buffer.GetString(), buffer.GetSize())};
}

// Every POST route's first step: the body parsed into `request` (serve/request_json.hpp) and its "patch"
// array's text into `patch`; the 400 reply when either fails.
std::optional<Reply> read_patch_request(std::string_view body, rapidjson::Document& request, std::string& patch) {
  if (auto s = parse_request(body, request); !s.ok()) return error_reply(400, s);
  auto text = patch_of(request);
  if (!text.ok()) return error_reply(400, text.status());
  patch = std::move(*text);
  return std::nullopt;
}

std::size_t number_param(const std::map<std::string, std::string, std::less<>>& params, std::string_view name,
                         std::size_t fallback, std::size_t most) {
  auto it = params.find(name);
  std::size_t n = fallback;
  if (it != params.end() && !absl::SimpleAtoi(it->second, &n)) n = fallback;
  return std::min(n, most);
}

}  // namespace

Reply error_reply(int status, const absl::Status& why) { return error_reply(status, std::string(why.message())); }

Reply error_reply(int status, std::string_view message) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("error");
  w.String(message.data(), static_cast<rapidjson::SizeType>(message.size()));
  w.EndObject();
  return json_reply(buffer, status);
}

Api::Api(Session& session, const ObjectIndex& index, const ServeOptions& options)
    : session_(session), index_(index), options_(options), map_(session, thread_budget()) {
  out_dir_ = options.out_dir;
  if (out_dir_.empty()) {
    // The input's folder (a game folder's parent: "game/" names the folder game, not a file in it).
    std::filesystem::path input = std::filesystem::path(session.input().path).lexically_normal();
    if (!input.has_filename()) input = input.parent_path();
    std::filesystem::path folder = input.parent_path();
    out_dir_ = folder.empty() ? "." : folder.string();
  }
}

Reply Api::info() const {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  const ServeInput& input = session_.input();
  w.StartObject();
  w.Key("file");
  w.String(std::filesystem::path(input.path).filename().string());
  w.Key("kind");
  w.String(session_.is_folder() ? std::string("game folder") : std::string(source_kind_name(input.source.kind)));
  w.Key("game");
  w.String(std::string(game_name(input.game)));
  w.Key("archive");  // several data files, each named in the map's titles
  w.Bool(session_.is_archive() || session_.is_folder());
  w.Key("folder");
  w.Bool(session_.is_folder());
  // The page's bulk operations the game has, so that it offers no other: a SwitchDistance is an `sws`
  // LODSelector's field (FORMAT.md 3.1; patch/bulk.cpp refuses set_switch_distance on another game).
  w.Key("bulk_ops");
  w.StartArray();
  for (const char* op : {"swap_material", "transform", "duplicate_instance", "remove_instance"}) w.String(op);
  if (input.game == Game::sws) w.String("set_switch_distance");
  w.EndArray();
  w.Key("datafiles");
  w.StartArray();
  for (std::size_t i = 0; i < session_.datafiles(); ++i) w.String(session_.datafile_name(i));
  w.EndArray();
  if (session_.is_folder()) {  // each data file's archive and its name there (a bulk operation's members)
    w.Key("datafile_archives");
    w.StartArray();
    for (std::size_t i = 0; i < session_.datafiles(); ++i) w.String(session_.archive_name(i));
    w.EndArray();
    w.Key("datafile_names");
    w.StartArray();
    for (std::size_t i = 0; i < session_.datafiles(); ++i) w.String(session_.name_in_archive(i));
    w.EndArray();
  }
  w.Key("patch_out");
  w.Bool(!options_.patch_out.empty());
  w.Key("patch_out_name");
  w.String(std::filesystem::path(options_.patch_out).filename().string());
  w.Key("index");
  w.StartObject();
  w.Key("ready");
  w.Bool(index_.ready());
  w.Key("done");
  w.Uint64(index_.done());
  w.Key("total");
  w.Uint64(index_.total());
  w.Key("objects");
  w.Uint64(index_.objects());
  w.Key("instances");
  w.Uint64(index_.instances());
  w.Key("errors");
  w.StartArray();
  for (const std::string& e : index_.errors()) w.String(e);
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return json_reply(buffer);
}

Reply Api::search(const std::map<std::string, std::string, std::less<>>& params) const {
  SearchQuery query;
  auto field = params.find("field");
  if (field != params.end() && !parse_search_field(field->second, query.field))
    return error_reply(400, "search field must be any, key, class, material or mesh");
  if (auto q = params.find("q"); q != params.end()) query.text = q->second;
  query.page = number_param(params, "page", 0, 1u << 30);
  query.page_size = std::max<std::size_t>(1, number_param(params, "size", 50, 500));
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("ready");
  w.Bool(index_.ready());
  SearchResult result = index_.search(query);
  w.Key("total");
  w.Uint64(result.total);
  w.Key("page");
  w.Uint64(query.page);
  w.Key("size");
  w.Uint64(query.page_size);
  w.Key("objects");
  w.StartArray();
  for (const IndexedObject* o : result.page) {
    w.StartObject();
    w.Key("datafile");
    w.Uint(o->datafile);
    w.Key("datafile_name");
    w.String(session_.datafile_name(o->datafile));
    w.Key("key");
    w.String(o->key);
    w.Key("pointer");
    w.String(session_.object_pointer(o->datafile, o->key));
    w.Key("classes");
    w.String(o->classes);
    w.Key("materials");
    w.String(o->materials);
    w.Key("meshes");
    w.String(o->meshes);
    w.Key("instances");
    w.Uint(o->instances);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json_reply(buffer);
}

Reply Api::object(std::string_view body) {
  rapidjson::Document request;
  std::string patch;
  if (auto refused = read_patch_request(body, request, patch)) return *refused;
  auto datafile = request.FindMember("datafile");
  auto key = request.FindMember("key");
  if (datafile == request.MemberEnd() || !datafile->value.IsUint() || key == request.MemberEnd() ||
      !key->value.IsString())
    return error_reply(400, "the request needs \"datafile\" (a number) and \"key\" (a string)");
  std::string name = key->value.GetString();
  auto json = session_.object_json(datafile->value.GetUint(), name, patch);
  if (!json.ok()) return error_reply(absl::IsNotFound(json.status()) ? 404 : 422, json.status());
  rapidjson::Document object;
  object.Parse<rapidjson::kParseFullPrecisionFlag>(json->data(), json->size());
  std::string rows = field_rows(object, session_.input().game);
  return {200, absl::StrCat("{\"pointer\":",
                            text_of(rapidjson::Value(session_.object_pointer(datafile->value.GetUint(), name).c_str(),
                                                     object.GetAllocator())),
                            ",\"json\":", *json, ",\"rows\":", rows, "}")};
}

Reply Api::check(std::string_view body) {
  rapidjson::Document request;
  std::string patch;
  if (auto refused = read_patch_request(body, request, patch)) return *refused;
  PatchCheck check = session_.check(patch);
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("ok");
  w.Bool(!check.error);
  if (check.error) {
    w.Key("error");
    w.String(*check.error);
    w.Key("exit_code");
    w.Int(check.exit_code);
  }
  w.Key("edited_objects");
  w.Uint64(check.edited_objects);
  w.Key("changes");
  w.StartArray();
  for (const patch::Change& c : check.changes) {
    w.StartObject();
    w.Key("op_index");
    w.Uint64(c.op_index);
    w.Key("op");
    w.String(c.op);
    w.Key("pointer");
    w.String(c.pointer);
    w.Key("old");
    w.String(c.old_value);
    w.Key("new");
    w.String(c.new_value);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json_reply(buffer);
}

Reply Api::save(std::string_view body) {
  if (options_.patch_out.empty())
    return error_reply(409, "no --patch-out was given: the page downloads the patch instead");
  rapidjson::Document request;
  std::string patch;
  if (auto refused = read_patch_request(body, request, patch)) return *refused;
  PatchCheck check = session_.check(patch);
  if (check.error) return error_reply(422, *check.error);
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.SetIndent(' ', 2);
  request["patch"].Accept(w);
  std::string text(buffer.GetString(), buffer.GetSize());
  text += '\n';
  if (auto s =
          platform::write_file_atomically(options_.patch_out, {reinterpret_cast<const u8*>(text.data()), text.size()});
      !s.ok())
    return error_reply(500, s);
  return {200, absl::StrCat(
                   "{\"saved\":", text_of(rapidjson::Value(options_.patch_out.c_str(), request.GetAllocator())), "}")};
}

Reply Api::write(std::string_view body) {
  rapidjson::Document request;
  std::string patch;
  if (auto refused = read_patch_request(body, request, patch)) return *refused;
  auto name = request.FindMember("name");
  if (name == request.MemberEnd() || !name->value.IsString())
    return error_reply(400, "the request needs \"name\": the copy's file name");
  auto replace = request.FindMember("replace");
  const bool replace_existing = replace != request.MemberEnd() && replace->value.IsBool() && replace->value.GetBool();
  auto target =
      output_target(name->value.GetString(), out_dir_, session_.input().path, replace_existing, session_.is_folder());
  if (!target.ok()) return error_reply(absl::IsAlreadyExists(target.status()) ? 409 : 400, target.status());
  PatchCheck check = session_.check(patch);
  if (check.error) return error_reply(422, *check.error);
  if (auto s = session_.write_copy(patch, *target); !s.ok()) return error_reply(500, s);
  return {200, absl::StrCat("{\"written\":", text_of(rapidjson::Value(target->c_str(), request.GetAllocator())), "}")};
}

}  // namespace anvil::serve

namespace anvil::serve {

Reply Api::map(std::string_view body) {
  rapidjson::Document request;
  std::string patch;
  if (auto refused = read_patch_request(body, request, patch)) return *refused;
  auto marks = request.FindMember("marks");
  if (marks != request.MemberEnd() && !marks->value.IsBool())
    return error_reply(400, "\"marks\" must be true or false");
  auto answer = map_.reply(patch, marks != request.MemberEnd() && marks->value.GetBool());
  if (!answer.ok()) return error_reply(422, answer.status());
  return {200, std::move(*answer)};
}

}  // namespace anvil::serve
