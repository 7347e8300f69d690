// The invariant of the fifth harness, over `.forge` archives (FORGE.md), shared with
// tests/regress_test.cpp like the others (fuzz/invariants.hpp).
#pragma once

#include <span>
#include <string>

#include "model/primitives.hpp"

namespace anvil::fuzz {

// 5. forge: any bytes either fail to read as an archive with a message, or write back byte for byte
// (write(read(x)) == x, every table and stored data file re-encoded from its fields; a data file that does
// not read is a refusal with a message). The checksum rule (FORGE.md 2) holds its promise: whenever the
// archive has one, a block whose checksum does not match it (its bytes changed, its checksum did not
// follow) is never read, verified identical or listed, and the vote's counts agree with a recount of
// every block decompressed on its own. Then an edit: the first object of the first data file that reads
// gets its `managed` byte flipped, through the archive patch layer (patch/archive_patch.hpp) and the
// edit path (FORGE.md 4); the patched data file must carve into the patched object, the written archive
// must read back with every other data file byte-identical and that one decompressing to the patched
// bytes (a refusal to re-compress, e.g. without a checksum rule, must say why). Before that, a put
// (FORGE.md 5, 6): the first data file that reads, mutated (a byte flipped, bytes inserted or cut), put back
// with a copy added and the next data file removed, must read back as put, or be refused with a reason.
std::string check_forge(std::span<const u8> bytes);

}  // namespace anvil::fuzz
