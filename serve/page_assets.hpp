// The editor's page (serve/page/: HTML, scripts, styles), embedded in the binary at build time by
// serve/embed_page.cmake: the server answers only these names, from memory.
#pragma once

#include <span>
#include <string_view>

namespace anvil::serve {

struct PageAsset {
  std::string_view path;          // "/index.html", "/editor.js", ...
  std::string_view content_type;  // with its charset for text
  std::span<const unsigned char> bytes;
};

std::span<const PageAsset> page_assets();

}  // namespace anvil::serve
