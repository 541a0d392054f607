#include "dump/bz2_reader.h"

#include <bzlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "dump/bz2_decode.h"

namespace aligndb {
namespace {

constexpr size_t kInputBufferSize = 1 << 20;
// The largest range DecompressBz2Range reads into memory to decode at once.
constexpr uint64_t kFastRangeBytes = 16 << 20;

class File {
 public:
  ~File() {
    if (f_) std::fclose(f_);
  }
  Status Open(const std::string& path) {
    path_ = path;
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) return Status::IOError(path + ": cannot open: " + std::strerror(errno));
    return Status::OK();
  }
  Status Seek(uint64_t offset) {
    if (fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0)
      return Status::IOError(path_ + ": cannot seek to byte " + std::to_string(offset) + ": " +
                             std::strerror(errno));
    return Status::OK();
  }
  Status Read(char* buf, size_t n, size_t* got) {
    *got = std::fread(buf, 1, n, f_);
    if (*got < n && std::ferror(f_))
      return Status::IOError(path_ + ": read failed: " + std::strerror(errno));
    return Status::OK();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  FILE* f_ = nullptr;
};

class PlainSource : public ByteSource {
 public:
  Status Open(const std::string& path) { return file_.Open(path); }
  Status Read(char* buf, size_t n, size_t* got) override {
    RETURN_IF_ERROR(file_.Read(buf, n, got));
    offset_ += *got;
    return Status::OK();
  }
  uint64_t file_offset() const override { return offset_; }
  uint64_t data_offset() const override { return offset_; }

 private:
  File file_;
  uint64_t offset_ = 0;
};

class Bz2Source : public ByteSource {
 public:
  ~Bz2Source() override {
    if (in_stream_) BZ2_bzDecompressEnd(&strm_);
  }

  Status Open(const std::string& path, uint64_t begin, uint64_t end) {
    RETURN_IF_ERROR(file_.Open(path));
    if (begin) RETURN_IF_ERROR(file_.Seek(begin));
    start_ = begin;
    remaining_ = end == UINT64_MAX ? UINT64_MAX : end - begin;
    in_.resize(kInputBufferSize);
    return Status::OK();
  }

  // Starts at `begin` (to the end of the file) but reads the same input buffers as a source
  // opened at byte 0, so that its messages name the same offsets.
  Status OpenAligned(const std::string& path, uint64_t begin) {
    uint64_t skip = begin % kInputBufferSize;
    RETURN_IF_ERROR(Open(path, begin - skip, UINT64_MAX));
    if (skip == 0) return Status::OK();
    RETURN_IF_ERROR(Refill());
    size_t n = std::min<size_t>(skip, strm_.avail_in);
    strm_.next_in += n;
    strm_.avail_in -= static_cast<unsigned>(n);
    return Status::OK();
  }

  Status Read(char* buf, size_t n, size_t* got) override {
    *got = 0;
    while (*got == 0) {
      if (strm_.avail_in == 0 && !file_eof_) RETURN_IF_ERROR(Refill());
      if (!in_stream_) {
        if (strm_.avail_in == 0 && file_eof_) return Status::OK();  // clean end
        if (BZ2_bzDecompressInit(&strm_, 0, 0) != BZ_OK)
          return Status::IOError(file_.path() +
                                 ": out of memory starting a bz2 stream at compressed byte " +
                                 std::to_string(file_offset()));
        in_stream_ = true;
        stream_start_ = file_offset();
        at_stream_start_ = true;
      }
      strm_.next_out = buf;
      strm_.avail_out = static_cast<unsigned>(n);
      int rc = BZ2_bzDecompress(&strm_);
      if (rc == BZ_DATA_ERROR_MAGIC && at_stream_start_) bad_stream_header_ = true;
      at_stream_start_ = false;
      *got = n - strm_.avail_out;
      data_offset_ += *got;
      if (rc == BZ_STREAM_END) {
        BZ2_bzDecompressEnd(&strm_);
        in_stream_ = false;
        // Next stream (multistream files) starts with the remaining input.
        char* next = strm_.next_in;
        unsigned avail = strm_.avail_in;
        std::memset(&strm_, 0, sizeof(strm_));
        strm_.next_in = next;
        strm_.avail_in = avail;
      } else if (rc == BZ_MEM_ERROR) {  // the machine, not the file
        return Status::IOError(file_.path() +
                               ": out of memory decompressing the stream starting at byte " +
                               std::to_string(stream_start_));
      } else if (rc != BZ_OK) {
        const char* what = rc == BZ_DATA_ERROR         ? "corrupt bz2 data"
                           : rc == BZ_DATA_ERROR_MAGIC ? "not bz2 data (bad stream header)"
                                                       : "bz2 error";
        return Status::Corruption(file_.path() + ": " + what + " in the stream starting at byte " +
                                  std::to_string(stream_start_) + ", near compressed byte " +
                                  std::to_string(file_offset()));
      } else if (*got == 0 && strm_.avail_in == 0 && file_eof_) {
        cut_at_range_end_ = remaining_ == 0;
        return Status::Corruption(
            file_.path() + ": truncated bz2 file: the stream starting at byte " +
            std::to_string(stream_start_) + " ends early at compressed byte " +
            std::to_string(file_offset()));
      }
    }
    return Status::OK();
  }

  uint64_t file_offset() const override { return start_ + consumed_ - strm_.avail_in; }
  uint64_t data_offset() const override { return data_offset_; }
  bool compressed() const override { return true; }
  // After an error: a stream did not start with the bz2 signature.
  bool bad_stream_header() const { return bad_stream_header_; }
  // After an error: the data ended inside a stream because the range ended (not the file).
  bool cut_at_range_end() const { return cut_at_range_end_; }

 private:
  Status Refill() {
    size_t want = in_.size();
    if (remaining_ < want) want = static_cast<size_t>(remaining_);
    size_t got = 0;
    if (want) RETURN_IF_ERROR(file_.Read(in_.data(), want, &got));
    if (remaining_ != UINT64_MAX) remaining_ -= got;
    consumed_ += got;
    strm_.next_in = in_.data();
    strm_.avail_in = static_cast<unsigned>(got);
    if (got == 0) file_eof_ = true;
    return Status::OK();
  }

  File file_;
  std::vector<char> in_;
  bz_stream strm_{};
  bool in_stream_ = false;
  bool file_eof_ = false;
  bool at_stream_start_ = false;
  bool bad_stream_header_ = false;
  bool cut_at_range_end_ = false;
  uint64_t start_ = 0;
  uint64_t remaining_ = UINT64_MAX;
  uint64_t consumed_ = 0;
  uint64_t stream_start_ = 0;
  uint64_t data_offset_ = 0;
};

}  // namespace

Status OpenBz2Range(const std::string& path, uint64_t begin, uint64_t end,
                    std::unique_ptr<ByteSource>* out) {
  auto src = std::make_unique<Bz2Source>();
  RETURN_IF_ERROR(src->Open(path, begin, end));
  *out = std::move(src);
  return Status::OK();
}

Status OpenBz2Aligned(const std::string& path, uint64_t begin, std::unique_ptr<ByteSource>* out) {
  auto src = std::make_unique<Bz2Source>();
  RETURN_IF_ERROR(src->OpenAligned(path, begin));
  *out = std::move(src);
  return Status::OK();
}

Status DecompressBz2Range(const std::string& path, uint64_t begin, uint64_t end, std::string* out,
                          bool* not_whole_streams) {
  *not_whole_streams = false;
  // A range of whole streams of reasonable size (a multistream dump's are about 100 pages) is
  // read at once and decoded by the faster decoder; what it does not decode, libbz2 decodes
  // below, and its errors are the ones reported.
  if (end > begin && end - begin <= kFastRangeBytes) {
    static thread_local std::string bytes;  // reused: no fresh pages per stream
    bytes.resize(end - begin);
    File file;
    size_t got = 0;
    if (file.Open(path).ok() && file.Seek(begin).ok() &&
        file.Read(bytes.data(), bytes.size(), &got).ok() && got == bytes.size() &&
        FastDecodeBz2(bytes, out, kMaxBz2BlockOutput))
      return Status::OK();
  }
  Bz2Source src;
  RETURN_IF_ERROR(src.Open(path, begin, end));
  std::vector<char> buf(1 << 16);
  for (;;) {
    size_t got = 0;
    Status s = src.Read(buf.data(), buf.size(), &got);
    if (!s.ok()) {
      // A stream cut by the end of the file is a truncated file, not a misplaced range end.
      std::error_code ec;
      bool cut = src.cut_at_range_end() && std::filesystem::file_size(path, ec) > end && !ec;
      *not_whole_streams = src.bad_stream_header() || cut;
      return s;
    }
    if (got == 0) return Status::OK();
    out->append(buf.data(), got);
  }
}

Status FindBz2Damage(ByteSource* src, uint64_t max_bytes) {
  if (!src->compressed()) return Status::OK();
  std::vector<char> buf(1 << 16);
  for (uint64_t read = 0; read < max_bytes;) {
    size_t got = 0;
    RETURN_IF_ERROR(src->Read(buf.data(), buf.size(), &got));
    if (got == 0) break;
    read += got;
  }
  return Status::OK();
}

Status OpenByteSource(const std::string& path, std::unique_ptr<ByteSource>* out) {
  char magic[3] = {0, 0, 0};
  {
    File probe;
    RETURN_IF_ERROR(probe.Open(path));
    size_t got = 0;
    RETURN_IF_ERROR(probe.Read(magic, 3, &got));
  }
  if (std::memcmp(magic, "BZh", 3) == 0) return OpenBz2Range(path, 0, UINT64_MAX, out);
  auto src = std::make_unique<PlainSource>();
  RETURN_IF_ERROR(src->Open(path));
  *out = std::move(src);
  return Status::OK();
}

}  // namespace aligndb
