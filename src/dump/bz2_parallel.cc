#include "dump/bz2_parallel.h"

#include <bzlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "dump/bz2_decode.h"

namespace aligndb {
namespace bz2_internal {

std::atomic<uint64_t> fallbacks{0};
uint64_t SequentialFallbacks() { return fallbacks.load(std::memory_order_relaxed); }

namespace {

constexpr uint64_t kMask48 = (1ull << 48) - 1;

// For each byte value, the bit shifts s (0..7) at which a magic starting at bit s of byte j has
// this value as byte j + 1: a one-lookup filter that rejects almost every position.
struct MagicFilter {
  std::array<uint8_t, 256> shifts{};
  MagicFilter() {
    for (uint64_t magic : {kBlockMagic, kEndMagic})
      for (int s = 0; s < 8; ++s)
        shifts[(magic >> (32 + s)) & 0xFF] |= static_cast<uint8_t>(1 << s);
  }
};

// The 8 bytes at `j`, big-endian, zeros past the end.
uint64_t Load64(std::string_view data, size_t j) {
  uint64_t w = 0;
  for (size_t k = 0; k < 8; ++k)
    w = (w << 8) | (j + k < data.size() ? static_cast<uint8_t>(data[j + k]) : 0);
  return w;
}

bool BitAt(std::string_view data, uint64_t bit) {
  return (static_cast<uint8_t>(data[bit / 8]) >> (7 - bit % 8)) & 1;
}

}  // namespace

uint64_t FindMagic(std::string_view data, uint64_t from_bit, bool* is_end) {
  static const MagicFilter filter;
  const uint64_t end_bits = 8 * static_cast<uint64_t>(data.size());
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  for (size_t j = from_bit / 8; j + 1 < data.size(); ++j) {
    unsigned shifts = filter.shifts[bytes[j + 1]];
    if (!shifts) continue;
    uint64_t w = Load64(data, j);
    for (int s = 0; s < 8; ++s) {
      uint64_t pos = 8 * j + s;
      if (!(shifts >> s & 1) || pos < from_bit || pos + 48 > end_bits) continue;
      uint64_t v = (w >> (16 - s)) & kMask48;
      if (v == kBlockMagic || v == kEndMagic) {
        *is_end = v == kEndMagic;
        return pos;
      }
    }
  }
  return UINT64_MAX;
}

uint64_t FindMagicSlowly(std::string_view data, uint64_t from_bit, bool* is_end) {
  const uint64_t end_bits = 8 * static_cast<uint64_t>(data.size());
  for (uint64_t pos = from_bit; pos + 48 <= end_bits; ++pos) {
    uint64_t v = 0;
    for (uint64_t b = 0; b < 48; ++b) v = (v << 1) | (BitAt(data, pos + b) ? 1 : 0);
    if (v == kBlockMagic || v == kEndMagic) {
      *is_end = v == kEndMagic;
      return pos;
    }
  }
  return UINT64_MAX;
}

std::string StandaloneBlockStream(std::string_view data, uint64_t begin_bit, uint64_t end_bit,
                                  char level, uint32_t block_crc) {
  std::string out = {'B', 'Z', 'h', level};
  const uint64_t nbits = end_bit - begin_bit;
  out.reserve(out.size() + nbits / 8 + 16);
  const auto* d = reinterpret_cast<const uint8_t*>(data.data());
  const size_t b0 = begin_bit / 8;
  const unsigned s = begin_bit % 8;
  for (uint64_t k = 0; k < nbits / 8; ++k)  // whole bytes, shifted into alignment
    out.push_back(
        static_cast<char>(s == 0 ? d[b0 + k] : (d[b0 + k] << s) | (d[b0 + k + 1] >> (8 - s))));
  // The last bits of the block, then the end-of-stream marker and the stream's CRC.
  uint64_t acc = 0;
  int n = 0;
  auto put = [&](uint64_t v, int bits) {
    for (int b = bits - 1; b >= 0; --b) {
      acc = (acc << 1) | ((v >> b) & 1);
      if (++n == 8) {
        out.push_back(static_cast<char>(acc));
        acc = 0;
        n = 0;
      }
    }
  };
  for (uint64_t bit = begin_bit + nbits / 8 * 8; bit < end_bit; ++bit) put(BitAt(data, bit), 1);
  put(kEndMagic, 48);
  put(block_crc, 32);
  if (n) put(0, 8 - n);
  return out;
}

}  // namespace bz2_internal

namespace {

using bz2_internal::kBlockMagic;
using bz2_internal::kEndMagic;

constexpr size_t kReadChunk = 1 << 20;
// A valid bzip2 block is at most about 2.3 MB compressed (900k symbols of at most 20 bits);
// a candidate longer than this is not a block.
constexpr uint64_t kMaxBlockBytes = 3 << 20;

// One item of the file in order: a block to decompress, the clean end, or the place from which
// only sequential decoding can go on.
struct ScanItem {
  enum Kind { kBlock, kEnd, kFallback } kind = kEnd;
  std::string stream;         // kBlock: the block as a standalone stream
  uint64_t stream_start = 0;  // byte offset of the bz2 stream the item belongs to
  uint64_t file_end = 0;      // kBlock, kEnd: compressed bytes up to the end of the item
};

// Finds the blocks of a bz2 file by reading it in order; memory is the current block and a read
// buffer.
class BlockScanner {
 public:
  Status Open(const std::string& path) {
    path_ = path;
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) return Status::IOError(path + ": cannot open: " + std::strerror(errno));
    return Status::OK();
  }
  ~BlockScanner() {
    if (f_) std::fclose(f_);
  }

  Status Next(ScanItem* item) {
    for (;;) {
      if (state_ == State::kDone) {
        item->kind = ScanItem::kEnd;
        item->file_end = pos_;
        return Status::OK();
      }
      if (state_ == State::kHeader) {
        RETURN_IF_ERROR(Ensure(pos_ + 10));
        if (Available(pos_) == 0 && pos_ > 0) {  // the file ends after a whole stream
          state_ = State::kDone;
          continue;
        }
        if (Available(pos_) < 10 || !IsStreamHeader(pos_)) return Fallback(pos_, item);
        stream_start_ = pos_;
        level_ = buf_[pos_ - buf_off_ + 3];
        bit_ = (pos_ + 4) * 8;
        combined_crc_ = 0;
        state_ = State::kInStream;
      }
      RETURN_IF_ERROR(Ensure(bit_ / 8 + 11));
      // A magic and its CRC are 80 bits from bit_: a byte-aligned end of stream at the end of the
      // file leaves exactly 10 bytes, which must not send the whole file to the sequential path.
      if (Available(bit_ / 8) * 8 < bit_ % 8 + 80) return Fallback(stream_start_, item);
      uint64_t magic = Bits(bit_, 48);
      uint32_t crc = static_cast<uint32_t>(Bits(bit_ + 48, 32));
      if (magic == kEndMagic) {
        if (crc != combined_crc_) return Fallback(stream_start_, item);  // sequential reports it
        pos_ = (bit_ + 80 + 7) / 8;
        state_ = State::kHeader;
        continue;
      }
      if (magic != kBlockMagic) return Fallback(stream_start_, item);
      uint64_t next = 0;
      RETURN_IF_ERROR(FindNext(bit_ + 80, &next));
      if (next == UINT64_MAX) return Fallback(stream_start_, item);
      item->kind = ScanItem::kBlock;
      item->stream_start = stream_start_;
      item->file_end = (next + 7) / 8;
      item->stream = bz2_internal::StandaloneBlockStream(View(), bit_ - 8 * buf_off_,
                                                         next - 8 * buf_off_, level_, crc);
      combined_crc_ = ((combined_crc_ << 1) | (combined_crc_ >> 31)) ^ crc;
      bit_ = next;
      Discard(bit_ / 8);
      return Status::OK();
    }
  }

 private:
  enum class State { kHeader, kInStream, kDone };

  Status Fallback(uint64_t stream_start, ScanItem* item) {
    bz2_internal::fallbacks.fetch_add(1, std::memory_order_relaxed);
    item->kind = ScanItem::kFallback;
    item->stream_start = stream_start;
    state_ = State::kDone;
    return Status::OK();
  }

  bool IsStreamHeader(uint64_t at) const {
    const char* p = buf_.data() + (at - buf_off_);
    return p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9';
  }

  // The next magic at or after bit `from` within kMaxBlockBytes; UINT64_MAX when none.
  Status FindNext(uint64_t from, uint64_t* at) {
    uint64_t search = from;
    for (;;) {
      bool is_end = false;
      uint64_t rel = bz2_internal::FindMagic(View(), search - 8 * buf_off_, &is_end);
      if (rel != UINT64_MAX) {
        *at = rel + 8 * buf_off_;
        return Status::OK();
      }
      uint64_t have = buf_off_ + buf_.size();
      if (eof_ || have * 8 > from + 8 * kMaxBlockBytes) {
        *at = UINT64_MAX;
        return Status::OK();
      }
      // A magic may straddle the old end of the buffer: search again from 47 bits before it.
      search = std::max(from, have * 8 >= 47 ? have * 8 - 47 : 0);
      RETURN_IF_ERROR(Ensure(have + kReadChunk));
    }
  }

  // Reads until the buffer holds the file up to byte `end` (or the file ends).
  Status Ensure(uint64_t end) {
    while (!eof_ && buf_off_ + buf_.size() < end) {
      size_t old = buf_.size();
      buf_.resize(old + kReadChunk);
      size_t got = std::fread(buf_.data() + old, 1, kReadChunk, f_);
      buf_.resize(old + got);
      if (got < kReadChunk) {
        if (std::ferror(f_))
          return Status::IOError(path_ + ": read failed: " + std::strerror(errno));
        eof_ = true;
      }
    }
    return Status::OK();
  }

  uint64_t Available(uint64_t at) const {
    uint64_t have = buf_off_ + buf_.size();
    return at < have ? have - at : 0;
  }
  std::string_view View() const { return buf_; }

  uint64_t Bits(uint64_t bit, int n) const {
    uint64_t v = 0;
    for (int b = 0; b < n; ++b) {
      uint64_t at = bit + b - 8 * buf_off_;
      v = (v << 1) | ((static_cast<uint8_t>(buf_[at / 8]) >> (7 - at % 8)) & 1);
    }
    return v;
  }

  // Drops the buffered bytes before `byte` (in large steps, so the copying stays linear).
  void Discard(uint64_t byte) {
    if (byte - buf_off_ < 4 * kReadChunk) return;
    buf_.erase(0, byte - buf_off_);
    buf_off_ = byte;
  }

  std::string path_;
  std::FILE* f_ = nullptr;
  std::string buf_;
  uint64_t buf_off_ = 0;
  bool eof_ = false;
  State state_ = State::kHeader;
  uint64_t pos_ = 0;  // kHeader: where the next stream starts
  uint64_t bit_ = 0;  // kInStream: the next magic
  uint64_t stream_start_ = 0;
  char level_ = '9';
  uint32_t combined_crc_ = 0;
};

// Decompresses one standalone block stream; false when it is not one (the CRC was checked).
// The faster decoder first; libbz2 for what it does not decode (randomized blocks, damage).
bool DecodeBlock(const std::string& stream, std::string* out) {
  if (FastDecodeBz2(stream, out, kMaxBz2BlockOutput)) return true;
  out->clear();
  bz_stream s{};
  if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK) return false;
  s.next_in = const_cast<char*>(stream.data());
  s.avail_in = static_cast<unsigned>(stream.size());
  size_t produced = 0;
  bool ok = false;
  for (;;) {
    if (out->size() - produced < (1 << 16)) {
      if (out->size() > kMaxBz2BlockOutput) break;
      out->resize(std::max<size_t>(2 * out->size(), 1 << 20));
    }
    s.next_out = out->data() + produced;
    s.avail_out = static_cast<unsigned>(out->size() - produced);
    int rc = BZ2_bzDecompress(&s);
    produced = out->size() - s.avail_out;
    if (rc == BZ_STREAM_END) {
      ok = s.avail_in == 0;
      break;
    }
    if (rc != BZ_OK || (s.avail_in == 0 && s.avail_out > 0)) break;  // damaged or cut short
  }
  BZ2_bzDecompressEnd(&s);
  out->resize(ok ? produced : 0);
  return ok;
}

class ParallelBz2Source : public ByteSource {
 public:
  ~ParallelBz2Source() override { StopWorkers(); }

  Status Open(const std::string& path, int threads) {
    path_ = path;
    RETURN_IF_ERROR(scanner_.Open(path));
    window_ = static_cast<size_t>(threads + 2);
    try {
      for (int t = 0; t < threads; ++t) pool_.emplace_back([this] { Work(); });
    } catch (const std::exception&) {  // address-space or process limits: fewer threads
    }
    if (pool_.empty()) return StartFallback(0);
    return Status::OK();
  }

  Status Read(char* buf, size_t n, size_t* got) override {
    *got = 0;
    while (!fallback_ && !done_ && pos_ == cur_.size()) RETURN_IF_ERROR(Advance());
    if (fallback_) {
      Status s = fallback_->Read(buf, n, got);
      data_offset_ += *got;
      return s;
    }
    if (done_) return Status::OK();
    *got = std::min(n, cur_.size() - pos_);
    std::memcpy(buf, cur_.data() + pos_, *got);
    pos_ += *got;
    data_offset_ += *got;
    return Status::OK();
  }

  uint64_t file_offset() const override {
    return fallback_ ? fallback_->file_offset() : file_offset_;
  }
  uint64_t data_offset() const override { return data_offset_; }
  bool compressed() const override { return true; }

 private:
  struct Job {
    ScanItem item;
    std::string out;
    bool ok = false;
    bool done = false;
  };

  // Scans ahead until the window is full or the scan has ended.
  Status Fill() {
    while (!scan_ended_ && blocks_in_flight_ < window_) {
      auto job = std::make_shared<Job>();
      RETURN_IF_ERROR(scanner_.Next(&job->item));
      std::lock_guard<std::mutex> lock(mu_);
      order_.push_back(job);
      if (job->item.kind != ScanItem::kBlock) {
        scan_ended_ = true;
      } else {
        ++blocks_in_flight_;
        todo_.push_back(job.get());
        cv_.notify_all();
      }
    }
    return Status::OK();
  }

  // Makes the next block current, or ends, or switches to sequential decoding.
  Status Advance() {
    RETURN_IF_ERROR(Fill());
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      job = order_.front();
      order_.pop_front();
      if (job->item.kind == ScanItem::kBlock) {
        cv_.wait(lock, [&] { return job->done; });
        --blocks_in_flight_;
      }
    }
    const ScanItem& item = job->item;
    if (item.kind == ScanItem::kEnd) {
      done_ = true;
      file_offset_ = item.file_end;
      return Status::OK();
    }
    if (item.kind == ScanItem::kFallback || !job->ok) return StartFallback(item.stream_start);
    if (item.stream_start != stream_start_) {
      stream_start_ = item.stream_start;
      stream_out_ = 0;
    }
    stream_out_ += job->out.size();
    cur_ = std::move(job->out);
    pos_ = 0;
    file_offset_ = item.file_end;
    return Status::OK();
  }

  // Goes on sequentially from the stream at `stream_start`, past what was produced of it.
  Status StartFallback(uint64_t stream_start) {
    StopWorkers();
    cur_.clear();
    pos_ = 0;
    RETURN_IF_ERROR(OpenBz2Aligned(path_, stream_start, &fallback_));
    uint64_t skip = stream_start == stream_start_ ? stream_out_ : 0;
    std::vector<char> scratch(1 << 16);
    while (skip > 0) {
      size_t got = 0;
      RETURN_IF_ERROR(
          fallback_->Read(scratch.data(), std::min<uint64_t>(skip, scratch.size()), &got));
      if (got == 0) break;
      skip -= got;
    }
    return Status::OK();
  }

  void Work() {
    for (;;) {
      Job* job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !todo_.empty(); });
        if (stop_) return;
        job = todo_.front();
        todo_.pop_front();
      }
      bool ok = false;
      std::string out;
      try {
        ok = DecodeBlock(job->item.stream, &out);
      } catch (const std::exception&) {  // out of memory: the sequential source reports it
        ok = false;
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        job->out = std::move(out);
        job->ok = ok;
        job->done = true;
        std::string().swap(job->item.stream);
      }
      cv_.notify_all();
    }
  }

  void StopWorkers() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : pool_) t.join();
    pool_.clear();
    order_.clear();
    todo_.clear();
  }

  std::string path_;
  BlockScanner scanner_;
  size_t window_ = 4;
  bool scan_ended_ = false;
  size_t blocks_in_flight_ = 0;
  std::deque<std::shared_ptr<Job>> order_;  // every scanned item, in file order
  std::deque<Job*> todo_;                   // blocks no worker has taken yet
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::vector<std::thread> pool_;

  std::string cur_;  // the current block's output
  size_t pos_ = 0;
  bool done_ = false;
  uint64_t stream_start_ = UINT64_MAX;  // the stream of the current block
  uint64_t stream_out_ = 0;             // bytes produced from that stream
  uint64_t file_offset_ = 0;
  uint64_t data_offset_ = 0;
  std::unique_ptr<ByteSource> fallback_;
};

}  // namespace

Status OpenParallelByteSource(const std::string& path, int threads,
                              std::unique_ptr<ByteSource>* out) {
  std::unique_ptr<ByteSource> probe;
  RETURN_IF_ERROR(OpenByteSource(path, &probe));
  if (!probe->compressed()) {
    *out = std::move(probe);
    return Status::OK();
  }
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  auto src = std::make_unique<ParallelBz2Source>();
  RETURN_IF_ERROR(src->Open(path, threads));
  *out = std::move(src);
  return Status::OK();
}

}  // namespace aligndb
