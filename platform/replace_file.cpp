// platform/replace_file.hpp, the part that is no system call (both systems): an AtomicFile dropped or
// discarded closes its stream and removes its temporary (nothing once renamed).
#include "platform/replace_file.hpp"

#include <cstdio>

namespace anvil::platform {

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  temp_.remove();  // nothing once renamed
}

}  // namespace anvil::platform
