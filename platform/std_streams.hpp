// The standard streams as anvilrt uses them: bytes in and out ("-" for stdin or stdout carries a level
// file or an archive), text in UTF-8.
#pragma once

namespace anvil::platform {

// Called once at the start of main(). POSIX: nothing to do. Windows: stdin, stdout and stderr in binary mode
// (_setmode(_O_BINARY): no CR inserted before LF nor a Ctrl+Z taken as the end), and the console's
// output code page set to UTF-8 so that the paths and names printed show as they are.
void prepare_standard_streams();

}  // namespace anvil::platform
