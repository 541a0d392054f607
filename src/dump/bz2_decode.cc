#include "dump/bz2_decode.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

namespace aligndb {
namespace bz2_internal {
namespace {

constexpr int kMaxGroups = 6;
constexpr int kMaxAlpha = 258;
constexpr int kMaxCodeLen = 20;
constexpr int kMaxSelectors = 18002;  // libbz2 reads more but uses these (as bzip2 1.0.8 does)
constexpr int kGroupSize = 50;

std::atomic<int> bwt_parts{32};

struct CrcTables {
  uint32_t t[8][256];
  CrcTables() {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t c = b << 24;
      for (int k = 0; k < 8; ++k) c = (c & 0x80000000u) ? (c << 1) ^ 0x04c11db7u : c << 1;
      t[0][b] = c;
    }
    // t[k][b]: byte b followed by k zero bytes, so that 8 bytes are folded in at once.
    for (int k = 1; k < 8; ++k)
      for (uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] << 8) ^ t[0][t[k - 1][b] >> 24];
  }
};

const CrcTables& Crc() {
  static const CrcTables tables;
  return tables;
}

uint32_t LoadBe32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

uint64_t LoadBe64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

// Bits most significant first. The buffer holds `count_` bits at its top; below them may be bits
// already read ahead, which the next refill ORs in again unchanged.
class BitReader {
 public:
  BitReader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}

  void Refill() {
    if (end_ - p_ >= 8) {
      buf_ |= LoadBe64(p_) >> count_;
      p_ += (63 - count_) >> 3;
      count_ |= 56;
    } else {
      while (count_ <= 56 && p_ < end_) {
        buf_ |= uint64_t{*p_++} << (56 - count_);
        count_ += 8;
      }
    }
  }
  int count() const { return count_; }
  uint32_t Peek(int n) const { return static_cast<uint32_t>(buf_ >> (64 - n)); }  // 1 ≤ n ≤ 32
  void Skip(int n) {
    buf_ <<= n;
    count_ -= n;
  }
  bool Read(int n, uint32_t* v) {
    if (count_ < n) {
      Refill();
      if (count_ < n) return false;
    }
    *v = Peek(n);
    Skip(n);
    return true;
  }
  bool Read48(uint64_t* v) {
    uint32_t hi, lo;
    if (!Read(24, &hi) || !Read(24, &lo)) return false;
    *v = uint64_t{hi} << 24 | lo;
    return true;
  }
  void AlignToByte() { Skip(count_ & 7); }
  bool AtEnd() const { return count_ == 0 && p_ == end_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  uint64_t buf_ = 0;
  int count_ = 0;
};

// One Huffman table of a block: canonical codes (shorter first, then by symbol), as bzip2
// assigns them. Codes of up to kLookBits bits are read by one lookup.
struct HuffTable {
  static constexpr int kLookBits = 10;
  uint16_t lookup[1 << kLookBits];   // symbol << 5 | length; 0: a longer code (or none)
  uint32_t first[kMaxCodeLen + 1];   // the first code of each length
  uint32_t count[kMaxCodeLen + 1];   // how many codes of each length
  uint32_t offset[kMaxCodeLen + 1];  // where the symbols of each length start in `perm`
  uint16_t perm[kMaxAlpha];
  int max_len;

  // False when the lengths over-subscribe the code space (no prefix code has them).
  bool Build(const uint8_t* len, int alpha) {
    std::memset(count, 0, sizeof count);
    for (int s = 0; s < alpha; ++s) ++count[len[s]];
    uint64_t kraft = 0;
    max_len = 0;
    for (int l = 1; l <= kMaxCodeLen; ++l) {
      kraft += uint64_t{count[l]} << (kMaxCodeLen - l);
      if (count[l]) max_len = l;
    }
    if (kraft > (uint64_t{1} << kMaxCodeLen)) return false;
    uint32_t code = 0, at = 0;
    for (int l = 1; l <= kMaxCodeLen; ++l) {
      first[l] = code;
      offset[l] = at;
      at += count[l];
      code = (code + count[l]) << 1;
    }
    uint32_t next[kMaxCodeLen + 1];
    std::memcpy(next, first, sizeof next);
    std::memset(lookup, 0, sizeof lookup);
    for (int l = 1; l <= kMaxCodeLen; ++l) {
      if (!count[l]) continue;
      for (int s = 0; s < alpha; ++s) {
        if (len[s] != l) continue;
        const uint32_t c = next[l]++;
        perm[offset[l] + (c - first[l])] = static_cast<uint16_t>(s);
        if (l <= kLookBits) {
          const uint32_t lo = c << (kLookBits - l), hi = (c + 1) << (kLookBits - l);
          for (uint32_t j = lo; j < hi; ++j) lookup[j] = static_cast<uint16_t>(s << 5 | l);
        }
      }
    }
    return true;
  }

  bool Decode(BitReader* br, int* sym) const {
    if (br->count() < kMaxCodeLen) br->Refill();
    const uint32_t e = lookup[br->Peek(kLookBits)];
    if (e) {
      const int l = static_cast<int>(e & 31);
      if (l > br->count()) return false;
      br->Skip(l);
      *sym = static_cast<int>(e >> 5);
      return true;
    }
    for (int l = kLookBits + 1; l <= max_len; ++l) {
      const uint32_t d = br->Peek(l) - first[l];
      if (d < count[l]) {
        if (l > br->count()) return false;
        br->Skip(l);
        *sym = perm[offset[l] + d];
        return true;
      }
    }
    return false;
  }
};

// Moves mtf[nn] to the front. Most positions are small: the bytes up to the 64th move 16 at a
// time in registers (each chunk shifted up a byte, taking the top byte of the chunk below), and
// the chunk holding position nn keeps its bytes past nn.
inline void MoveToFront(uint8_t* mtf, int nn) {
  const uint8_t v = mtf[nn];
#if defined(__SSE2__)
  if (nn < 64) {
    const int last = nn >> 4;
    __m128i below = _mm_setzero_si128();
    for (int c = 0; c <= last; ++c) {
      auto* at = reinterpret_cast<__m128i*>(mtf + 16 * c);
      const __m128i x = _mm_loadu_si128(at);
      __m128i y = _mm_or_si128(_mm_slli_si128(x, 1), _mm_srli_si128(below, 15));
      if (c == last) {
        const __m128i shifted =
            _mm_cmplt_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                           _mm_set1_epi8(static_cast<char>((nn & 15) + 1)));
        y = _mm_or_si128(_mm_and_si128(shifted, y), _mm_andnot_si128(shifted, x));
      }
      _mm_storeu_si128(at, y);
      below = x;
    }
  } else {
    std::memmove(mtf + 1, mtf, static_cast<size_t>(nn));
  }
#else
  std::memmove(mtf + 1, mtf, static_cast<size_t>(nn));
#endif
  mtf[0] = v;
}

// Buffers reused from block to block on one thread.
struct Scratch {
  std::vector<uint32_t> tt;     // low byte: the block's last BWT column; above: the walk's links
  std::vector<uint8_t> walked;  // the block in order, before its run-length decoding
  struct Part {
    uint32_t start = 0, next = 0;
    std::vector<uint8_t> bytes;
  };
  std::vector<Part> parts;
  HuffTable tables[kMaxGroups];
  uint8_t selectors[kMaxSelectors];  // the table of each group of 50 symbols
};

// The inverse transform: walked[k] = tt[s_k] & 0xff, s_{k+1} = tt[s_k] >> 8 from s_0 = `s0`.
// The walk is one cycle through the block; it is walked in parts that start at states fixed in
// advance (s_0 among them), side by side, each part ending where another starts. A start is
// marked in its own entry's top bit (states are under 2^20, so bits 28–31 are free): a part
// sees the end in the value it loads anyway, with no second load on the way.
bool Walk(Scratch* sc, uint32_t s0, uint32_t n) {
  uint32_t* tt = sc->tt.data();
  sc->walked.resize(n);
  uint8_t* walked = sc->walked.data();
  const int want = n < 65536 ? 1 : std::clamp(bwt_parts.load(std::memory_order_relaxed), 1, 64);
  if (want == 1) {
    uint32_t s = s0;
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t v = tt[s];
      walked[k] = static_cast<uint8_t>(v);
      s = v >> 8;
    }
    return true;
  }
  constexpr uint32_t kStart = 0x80000000u;
  auto& parts = sc->parts;
  if (parts.size() < static_cast<size_t>(want)) parts.resize(want);
  uint32_t at[64];
  uint8_t *w[64], *end[64];
  int k = 0;
  for (int j = 0; j < want; ++j) {
    const uint32_t s = j == 0 ? s0 : static_cast<uint32_t>(uint64_t{n} * j / want);
    if (tt[s] & kStart) continue;  // the same state twice
    tt[s] |= kStart;
    auto& p = parts[k];
    p.start = s;
    p.bytes.resize(std::max<size_t>(p.bytes.size(), 2 * (n / want) + 4096));
    w[k] = p.bytes.data();
    end[k] = w[k] + p.bytes.size();
    ++k;
  }
  // Each part's first step is its start's own byte; then it steps until the next start.
  int active[64], n_active = k;
  for (int j = 0; j < k; ++j) {
    const uint32_t v = tt[parts[j].start] & ~kStart;
    *w[j]++ = static_cast<uint8_t>(v);
    at[j] = v >> 8;
    active[j] = j;
  }
  // Each active part steps once per round; the loads of different parts do not wait for each
  // other.
  while (n_active) {
    for (int a = 0; a < n_active;) {
      const int j = active[a];
      const uint32_t v = tt[at[j]];
      if (v & kStart) {
        parts[j].next = at[j];
        active[a] = active[--n_active];
        continue;
      }
      if (w[j] == end[j]) {
        auto& bytes = parts[j].bytes;
        const size_t used = bytes.size();
        bytes.resize(2 * used);
        w[j] = bytes.data() + used;
        end[j] = bytes.data() + bytes.size();
      }
      *w[j]++ = static_cast<uint8_t>(v);
      at[j] = v >> 8;
      ++a;
    }
  }
  // Join the parts in cycle order from s_0's; every part once, n bytes in all.
  size_t done = 0;
  int j = 0;
  bool joined = false;
  for (int step = 0; step < k; ++step) {
    const size_t len = static_cast<size_t>(w[j] - parts[j].bytes.data());
    if (done + len > n) break;
    std::memcpy(walked + done, parts[j].bytes.data(), len);
    done += len;
    const uint32_t next = parts[j].next;
    j = -1;
    for (int i = 0; i < k; ++i)
      if (parts[i].start == next) j = i;
    if (j <= 0) {
      joined = j == 0 && done == n;
      break;
    }
  }
  // A part that grew far past its share (a hostile cycle) gives its memory back, so that the
  // thread's scratch stays under 8n + 64 * 4096 bytes, not up to 64 * 2n.
  for (int i = 0; i < k; ++i)
    if (parts[i].bytes.size() > 8 * (n / want) + 4096) std::vector<uint8_t>().swap(parts[i].bytes);
  return joined;
}

// Decodes one block (after its magic) and appends it to `out`; sets `*crc` to its stored CRC.
bool DecodeBlock(BitReader* br, uint32_t max_symbols, uint64_t max_output, Scratch* sc,
                 std::string* out, uint32_t* crc) {
  uint32_t stored_crc, randomized, orig_ptr, used16;
  if (!br->Read(32, &stored_crc) || !br->Read(1, &randomized) || randomized ||
      !br->Read(24, &orig_ptr) || !br->Read(16, &used16))
    return false;
  uint8_t seq_to_unseq[256];
  int n_in_use = 0;
  for (int i = 0; i < 16; ++i) {
    if (!(used16 & (0x8000u >> i))) continue;
    uint32_t w;
    if (!br->Read(16, &w)) return false;
    for (int j = 0; j < 16; ++j)
      if (w & (0x8000u >> j)) seq_to_unseq[n_in_use++] = static_cast<uint8_t>(i * 16 + j);
  }
  if (n_in_use == 0) return false;
  const int alpha = n_in_use + 2;
  uint32_t n_groups, n_selectors;
  if (!br->Read(3, &n_groups) || n_groups < 2 || n_groups > kMaxGroups ||
      !br->Read(15, &n_selectors) || n_selectors < 1)
    return false;
  uint8_t* const selectors = sc->selectors;
  uint8_t group_mtf[kMaxGroups];
  for (uint32_t g = 0; g < n_groups; ++g) group_mtf[g] = static_cast<uint8_t>(g);
  for (uint32_t i = 0; i < n_selectors; ++i) {
    uint32_t j = 0, bit;
    for (;;) {
      if (!br->Read(1, &bit)) return false;
      if (!bit) break;
      if (++j >= n_groups) return false;
    }
    if (i < kMaxSelectors) {  // undone move-to-front
      const uint8_t g = group_mtf[j];
      std::memmove(group_mtf + 1, group_mtf, j);
      group_mtf[0] = g;
      selectors[i] = g;
    }
  }
  n_selectors = std::min<uint32_t>(n_selectors, kMaxSelectors);
  for (uint32_t t = 0; t < n_groups; ++t) {
    uint8_t len[kMaxAlpha];
    uint32_t curr;
    if (!br->Read(5, &curr)) return false;
    for (int s = 0; s < alpha; ++s) {
      for (;;) {
        if (curr < 1 || curr > kMaxCodeLen) return false;
        uint32_t bit;
        if (!br->Read(1, &bit)) return false;
        if (!bit) break;
        if (!br->Read(1, &bit)) return false;
        curr = bit ? curr - 1 : curr + 1;
      }
      len[s] = static_cast<uint8_t>(curr);
    }
    if (!sc->tables[t].Build(len, alpha)) return false;
  }

  // Huffman symbols → move-to-front values and runs of the front value (RUNA, RUNB digits).
  if (sc->tt.size() < max_symbols) sc->tt.resize(max_symbols);
  uint32_t* tt = sc->tt.data();
  uint32_t counts[256] = {};
  uint8_t mtf[256];
  for (int i = 0; i < 256; ++i) mtf[i] = static_cast<uint8_t>(i);
  const int eob = n_in_use + 1;
  uint32_t n = 0, group_no = 0;
  int group_left = 0;
  const HuffTable* table = nullptr;
  auto next_symbol = [&](int* sym) __attribute__((always_inline)) {
    if (group_left == 0) {
      if (group_no >= n_selectors) return false;
      table = &sc->tables[selectors[group_no++]];
      group_left = kGroupSize;
    }
    --group_left;
    return table->Decode(br, sym);
  };
  int sym;
  if (!next_symbol(&sym)) return false;
  while (sym != eob) {
    if (sym <= 1) {
      uint32_t run = 0, weight = 1;
      do {
        if (weight >= (2u << 20)) return false;
        run += static_cast<uint32_t>(sym + 1) * weight;
        weight <<= 1;
        if (!next_symbol(&sym)) return false;
      } while (sym <= 1);
      if (run > max_symbols - n) return false;
      const uint8_t uc = seq_to_unseq[mtf[0]];
      counts[uc] += run;
      std::fill(tt + n, tt + n + run, uint32_t{uc});
      n += run;
      continue;
    }
    if (n >= max_symbols) return false;
    const int nn = sym - 1;
    const uint8_t v = mtf[nn];
    MoveToFront(mtf, nn);
    const uint8_t uc = seq_to_unseq[v];
    ++counts[uc];
    tt[n++] = uc;
    if (!next_symbol(&sym)) return false;
  }
  if (orig_ptr >= n) return false;

  // Links of the inverse transform, above each byte.
  uint32_t cf[256];
  for (uint32_t i = 0, sum = 0; i < 256; ++i) {
    cf[i] = sum;
    sum += counts[i];
  }
  for (uint32_t i = 0; i < n; ++i) tt[cf[tt[i] & 0xff]++] |= i << 8;
  if (!Walk(sc, tt[orig_ptr] >> 8, n)) return false;

  // Runs of 4 to 259 equal bytes are 4 bytes and a count.
  const size_t old = out->size();
  size_t cap = old + n + n / 8 + 256, w = old;
  out->resize(cap);
  const uint8_t* in = sc->walked.data();
  uint8_t prev = 0;
  int run = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint8_t b = in[k];
    if (cap - w < 256) {
      if (w - old > max_output) return false;
      cap = old + 2 * (cap - old);
      out->resize(cap);
    }
    if (run == 4) {
      std::memset(out->data() + w, prev, b);
      w += b;
      run = 0;
      continue;
    }
    (*out)[w++] = static_cast<char>(b);
    if (run && b == prev) {
      ++run;
    } else {
      run = 1;
      prev = b;
    }
  }
  // libbz2 reads a count after 4 equal bytes even at the block's end, past it: a data error.
  if (run == 4) return false;
  if (w - old > max_output) return false;
  out->resize(w);
  const uint32_t computed =
      ~Bz2Crc(0xffffffffu, reinterpret_cast<const uint8_t*>(out->data()) + old, w - old);
  if (computed != stored_crc) return false;
  *crc = stored_crc;
  return true;
}

bool DecodeStreams(std::string_view data, std::string* out, uint64_t max_block_output) {
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  BitReader br(p, p + data.size());
  static thread_local Scratch scratch;
  if (data.empty()) return false;
  do {
    uint32_t b, z, h, level;
    if (!br.Read(8, &b) || !br.Read(8, &z) || !br.Read(8, &h) || !br.Read(8, &level) || b != 'B' ||
        z != 'Z' || h != 'h' || level < '1' || level > '9')
      return false;
    const uint32_t max_symbols = (level - '0') * 100000;
    uint32_t combined = 0;
    for (;;) {
      uint64_t magic;
      if (!br.Read48(&magic)) return false;
      if (magic == kEndMagic) break;
      if (magic != kBlockMagic) return false;
      uint32_t crc;
      if (!DecodeBlock(&br, max_symbols, max_block_output, &scratch, out, &crc)) return false;
      combined = (combined << 1 | combined >> 31) ^ crc;
    }
    uint32_t stored;
    if (!br.Read(32, &stored) || stored != combined) return false;
    br.AlignToByte();
  } while (!br.AtEnd());
  return true;
}

}  // namespace

uint32_t Bz2Crc(uint32_t crc, const uint8_t* p, size_t n) {
  const auto& t = Crc().t;
  for (; n >= 8; p += 8, n -= 8) {
    const uint32_t x = crc ^ LoadBe32(p);
    crc = t[7][x >> 24] ^ t[6][(x >> 16) & 0xff] ^ t[5][(x >> 8) & 0xff] ^ t[4][x & 0xff] ^
          t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
  }
  for (; n; ++p, --n) crc = (crc << 8) ^ t[0][(crc >> 24) ^ *p];
  return crc;
}

uint32_t Bz2CrcSlowly(uint32_t crc, const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    crc ^= uint32_t{p[i]} << 24;
    for (int k = 0; k < 8; ++k) crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04c11db7u : crc << 1;
  }
  return crc;
}

void SetBwtParts(int parts) { bwt_parts.store(parts, std::memory_order_relaxed); }

}  // namespace bz2_internal

bool FastDecodeBz2(std::string_view data, std::string* out, uint64_t max_block_output) {
  const size_t old = out->size();
  bool ok = false;
  try {
    // Room for text's usual ratio (Wikipedia's XML: about 3.5), so that a stream of several
    // blocks is not copied as its output grows.
    out->reserve(old + 4 * data.size() + 4096);
    ok = bz2_internal::DecodeStreams(data, out, max_block_output);
  } catch (const std::bad_alloc&) {  // libbz2, decoding it again, says so
    ok = false;
  }
  if (!ok) out->resize(old);
  return ok;
}

}  // namespace aligndb
