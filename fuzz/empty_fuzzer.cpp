// The empty harness: returns at once. Its execution rate, measured in the same run as a real harness's,
// is what the engine, the fork server and the machine cost per input (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
