// Byte sources for dump files: plain files and bzip2 files, including multistream files
// (concatenated bz2 streams, as Wikimedia publishes them). Reading is streaming: memory is
// one input and one output buffer whatever the size of the file.
#ifndef ALIGNDB_DUMP_BZ2_READER_H_
#define ALIGNDB_DUMP_BZ2_READER_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "aligndb/status.h"

namespace aligndb {

// The most a single bzip2 block can decompress to (900 kB of symbols, run-length expanded up to
// 255/4 times, rounded up): reading this far past bad output always reaches the block's CRC.
constexpr uint64_t kMaxBz2BlockOutput = 64ull << 20;

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `n` bytes into `buf`; sets `*got` (0 at the end of the data).
  virtual Status Read(char* buf, size_t n, size_t* got) = 0;
  // Bytes of the underlying file consumed so far (compressed bytes for bz2).
  virtual uint64_t file_offset() const = 0;
  // Bytes produced so far (decompressed bytes for bz2).
  virtual uint64_t data_offset() const = 0;
  // True for a decompressing source.
  virtual bool compressed() const { return false; }
};

// Opens `path`, choosing bz2 decompression when the file starts with the bz2 magic "BZh".
Status OpenByteSource(const std::string& path, std::unique_ptr<ByteSource>* out);

// A bz2 source over an already open byte range of a file: decompresses the concatenated
// streams found in [begin, end) (end = UINT64_MAX: to the end of the file).
Status OpenBz2Range(const std::string& path, uint64_t begin, uint64_t end,
                    std::unique_ptr<ByteSource>* out);

// As OpenBz2Range(path, begin, end of file), reading the file in the same buffers as a source
// opened at byte 0 would: its error messages name exactly the offsets that source's would.
Status OpenBz2Aligned(const std::string& path, uint64_t begin, std::unique_ptr<ByteSource>* out);

// Decompresses the whole streams of [begin, end) into `out`. When `begin` is not the start of a
// bz2 stream, or a stream runs on past `end` (before the end of the file), sets
// `*not_whole_streams` and returns the bz2 error: the range is not made of whole streams.
Status DecompressBz2Range(const std::string& path, uint64_t begin, uint64_t end, std::string* out,
                          bool* not_whole_streams);

// After `src` produced data that does not parse: reads on (at most `max_bytes` more decompressed
// bytes) and returns the bz2 error that explains the bad data, if there is one. bzip2 checks a
// block's CRC only at the block's end, so damage shows first as garbage output, then as an error.
// OK when the source is not compressed or no bz2 error follows.
Status FindBz2Damage(ByteSource* src, uint64_t max_bytes = kMaxBz2BlockOutput);

}  // namespace aligndb

#endif  // ALIGNDB_DUMP_BZ2_READER_H_
