// The editor's API, without HTTP (serve/server.cpp routes requests here): each call takes the request's
// parsed parts and returns the status and JSON body to answer. Every patch a call takes is the page's
// whole pending patch, checked by the patch engine over the input (serve/session.hpp); the server keeps
// no edit state of its own, so undo and redo are the page's.
//
//   GET  /api/info                                  the file, its data files, the index's progress
//   GET  /api/search?field=any|key|class|material|mesh&q=TEXT&page=N&size=N
//   POST /api/object {"datafile": N, "key": "0x…", "patch": [...]}   its typed fields, as the patch leaves them
//   POST /api/check  {"patch": [...]}               the engine's dry run: {"ok", "error", "changes"}
//   POST /api/save   {"patch": [...]}               writes the patch to --patch-out (after the check)
//   POST /api/write  {"patch": [...], "name": "FILE", "replace": false}   the patched copy (serve/output_name.hpp)
//   POST /api/map    {"patch": [...], "marks": true}   every instance, packed (with "marks"), and what the
//                                                   patch changes (serve/map_view.hpp)
#pragma once

#include <absl/status/status.h>

#include <map>
#include <string>
#include <string_view>

#include "serve/map_view.hpp"
#include "serve/object_index.hpp"
#include "serve/session.hpp"

namespace anvil::serve {

struct ServeOptions {
  int port = 0;           // 0: a free port
  std::string patch_out;  // where "Save patch" writes; empty: the page downloads it
  std::string out_dir;    // where "Write a copy" writes; empty: the input's folder
  bool open_browser = false;
  unsigned threads = 4;  // the server's request threads
};

struct Reply {
  int status = 200;
  std::string body;  // JSON
  const char* type = "application/json; charset=utf-8";
};

class Api {
 public:
  Api(Session& session, const ObjectIndex& index, const ServeOptions& options);

  Reply info() const;
  Reply search(const std::map<std::string, std::string, std::less<>>& params) const;
  // `body`: the request's body, parsed here (serve/request_json.hpp).
  Reply object(std::string_view body);
  Reply check(std::string_view body);
  Reply save(std::string_view body);
  Reply write(std::string_view body);
  Reply map(std::string_view body);
  // Reads the map's instances ahead of its first request (MapView::prepare).
  void prepare_map() { map_.prepare(); }

 private:
  Session& session_;
  const ObjectIndex& index_;
  ServeOptions options_;
  std::string out_dir_;
  MapView map_;
};

// {"error": "<message>"} with `status`.
Reply error_reply(int status, std::string_view message);
Reply error_reply(int status, const absl::Status& why);

}  // namespace anvil::serve
