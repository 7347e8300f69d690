#include "fuzz/replay.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace anvil::fuzz {

int replay(int count, char** paths) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 0; i < count; ++i) {
    std::error_code error;
    if (fs::is_directory(paths[i], error)) {
      std::vector<fs::path> inside;
      for (const auto& entry : fs::directory_iterator(paths[i], error))
        if (entry.is_regular_file()) inside.push_back(entry.path());
      std::sort(inside.begin(), inside.end());
      files.insert(files.end(), inside.begin(), inside.end());
    } else {
      files.emplace_back(paths[i]);
    }
  }
  int status = 0;
  std::vector<std::uint8_t> bytes;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
      status = 1;
      continue;
    }
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  return status;
}

}  // namespace anvil::fuzz
