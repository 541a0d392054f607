// Parallel decompression of bzip2 files block by block (as lbzip2 does), for files with one
// stream or a few: a bzip2 block starts with the 48-bit magic 0x314159265359 at any bit offset and
// a stream ends with 0x177245385090, so the blocks can be found by scanning the compressed bits,
// each re-aligned into a standalone one-block stream, and decompressed on worker threads. The
// output comes in file order and is byte-identical to sequential decompression.
//
// Each block is decoded by FastDecodeBz2 (bz2_decode.h), or by libbz2 when that declines; both
// check the block's CRC; the scan checks each stream's combined CRC. Whatever does not
// fit this picture (a magic that was only a chance bit pattern inside a block, a damaged or
// truncated file, trailing garbage) makes the source go on sequentially from the start of the
// stream concerned (skipping what it already produced), so errors and their messages are those of
// the sequential source.
#ifndef ALIGNDB_DUMP_BZ2_PARALLEL_H_
#define ALIGNDB_DUMP_BZ2_PARALLEL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "dump/bz2_decode.h"
#include "dump/bz2_reader.h"

namespace aligndb {

// Opens `path` as OpenByteSource does; a bz2 file is decompressed on `threads` worker threads
// (0: all cores; 1 still overlaps decompression with the caller's work) with at most threads + 2
// blocks in flight, so memory stays bounded (a block is at most about 2.3 MB compressed and
// decompresses to at most 46 MB). When no thread can be started it is the sequential source.
Status OpenParallelByteSource(const std::string& path, int threads,
                              std::unique_ptr<ByteSource>* out);

namespace bz2_internal {
// How many times, in this process, a parallel source went on sequentially (damage, a false
// boundary, anything irregular). Clean files should never add to it: a fallback decompresses the
// stream again on one thread.
uint64_t SequentialFallbacks();

// The first magic (block or end of stream) starting at a bit offset in [from_bit, 8 × size)
// of `data`: its bit offset, or UINT64_MAX. `*is_end` tells which magic was found.
uint64_t FindMagic(std::string_view data, uint64_t from_bit, bool* is_end);
// The same, one bit offset at a time: the reference FindMagic is tested against.
uint64_t FindMagicSlowly(std::string_view data, uint64_t from_bit, bool* is_end);

// A standalone bz2 stream ("BZh" + `level`, the bits [begin_bit, end_bit) of `data` holding one
// block, an end-of-stream marker and `block_crc` as the stream's CRC).
std::string StandaloneBlockStream(std::string_view data, uint64_t begin_bit, uint64_t end_bit,
                                  char level, uint32_t block_crc);

}  // namespace bz2_internal
}  // namespace aligndb

#endif  // ALIGNDB_DUMP_BZ2_PARALLEL_H_
