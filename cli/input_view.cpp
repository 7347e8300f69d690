#include "cli/input_view.hpp"

namespace anvil::cli {

InputView input_view(const OpenedInput& o) {
  InputView in;
  in.path = o.path;
  in.sure = o.sure;
  in.read = o.input.has_value();
  in.tables_failed = o.tables_failed;
  if (o.input) in.bytes = o.input->bytes();
  in.source = o.source;
  if (o.archive) {
    in.archive = &o.archive->archive;
    in.archive_game = o.archive->game;
  }
  return in;
}

}  // namespace anvil::cli
