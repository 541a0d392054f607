// A bzip2 decoder for whole streams held in memory, faster than libbz2's on the same core. Two
// things make the difference (docs/benchmarks.md, "A bzip2 decoder"):
//  - Huffman symbols are read through a lookup table of the next 10 bits, not bit by bit;
//  - the inverse Burrows–Wheeler transform, a walk through a 3.6 MB array in which every step
//    waits for the load before it (a cache miss per output byte), walks several parts of the
//    block at once: the walk is one cycle through the block, so it is cut at K places chosen
//    in advance, the K parts walked side by side (their loads overlap) and joined in cycle order.
// It decodes only what it can check: every block's CRC and every stream's combined CRC must
// match. Anything else — damage, a block in the obsolete randomized form, bytes after the last
// stream — makes it return false, and the caller decodes with libbz2, which says what is wrong.
#ifndef ALIGNDB_DUMP_BZ2_DECODE_H_
#define ALIGNDB_DUMP_BZ2_DECODE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace aligndb {

// Appends to `out` the decompressed bytes of `data`, one or more whole concatenated bz2 streams.
// Returns false, with `out` as it was, when `data` is anything else, or when a block would
// decompress past `max_block_output` bytes.
bool FastDecodeBz2(std::string_view data, std::string* out, uint64_t max_block_output);

namespace bz2_internal {
// The 48-bit magics that start a block and end a stream, at any bit offset.
constexpr uint64_t kBlockMagic = 0x314159265359ull;
constexpr uint64_t kEndMagic = 0x177245385090ull;

// CRC-32 as bzip2 computes it (polynomial 0x04c11db7, most significant bit first), continued
// from `crc` (start with 0xffffffff; the block's CRC is the result's complement).
uint32_t Bz2Crc(uint32_t crc, const uint8_t* p, size_t n);
// The same, a byte at a time: the reference Bz2Crc is tested against.
uint32_t Bz2CrcSlowly(uint32_t crc, const uint8_t* p, size_t n);
// How many parts the inverse transform of a block is walked in (tests set 1 to compare).
void SetBwtParts(int parts);
}  // namespace bz2_internal

}  // namespace aligndb

#endif  // ALIGNDB_DUMP_BZ2_DECODE_H_
