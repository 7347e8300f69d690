// An input opened as `anvilrt serve` opens it, for the tests of serve's session and map: the mapped file and,
// for an archive, its tables (an archive is read as ac2, the corpus's and the generator's archives' dialect).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "model/forge/archive.hpp"
#include "reader/input_file.hpp"
#include "serve/session.hpp"

namespace anvil::test {

struct OpenedServeInput {
  InputFile file;
  std::optional<forge::Archive> archive;
  serve::ServeInput input;
};

std::unique_ptr<OpenedServeInput> open_serve_input(const std::string& path);

}  // namespace anvil::test
