// Runs a harness's LLVMFuzzerTestOneInput on files: what the AFL++ driver does when given paths (triage,
// seed replay) and all the replay driver does (coverage, profiling).
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Optional one-time setup of a harness (libFuzzer's convention, also called by AFL++'s libAFLDriver).
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace anvil::fuzz {

// Each path (a folder stands for the regular files in it, in name order) read and run once through the
// harness. Returns 0, or 1 when a path could not be read (a failed invariant aborts, as under the fuzzer).
int replay(int count, char** paths);

}  // namespace anvil::fuzz
