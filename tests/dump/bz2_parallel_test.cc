// Block-parallel bz2 decompression against the sequential source: the same bytes, the same errors
// with the same messages, on files of many blocks, several streams, block magics planted at
// random bit offsets, and damaged, truncated or padded files.
#include "dump/bz2_parallel.h"

#include <bzlib.h>
#include <gtest/gtest.h>

#include <random>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::Bz2Compress;
using testing::TempDir;

// Text that compresses like prose (so blocks hold several hundred kB of output), with runs.
std::string RandomText(size_t n, uint32_t seed) {
  static const char* kWords[] = {"the ", "of ",     "wiki", "[[link]] ", "{{cite}} ",
                                 "\n",   "aaaaaaa", "é ",   "1906 ",     "city "};
  std::mt19937 rng(seed);
  std::string s;
  while (s.size() < n) {
    if (rng() % 50 == 0) s += static_cast<char>(rng() % 256);  // a little noise
    s += kWords[rng() % 10];
  }
  return s;
}

struct Outcome {
  std::string data;
  std::string error;  // empty: read to the end
  uint64_t file_offset = 0;
};

Outcome ReadAll(std::unique_ptr<ByteSource> src, size_t chunk) {
  Outcome o;
  std::vector<char> buf(chunk);
  for (;;) {
    size_t got = 0;
    Status s = src->Read(buf.data(), buf.size(), &got);
    o.data.append(buf.data(), got);
    if (!s.ok()) {
      o.error = s.ToString();
      break;
    }
    if (got == 0) break;
  }
  o.file_offset = src->file_offset();
  return o;
}

// The parallel and the sequential sources give the same bytes and the same outcome.
void ExpectSameAsSequential(const std::string& path, int threads, const std::string& what) {
  std::unique_ptr<ByteSource> seq, par;
  ASSERT_TRUE(OpenByteSource(path, &seq).ok());
  ASSERT_TRUE(OpenParallelByteSource(path, threads, &par).ok());
  Outcome a = ReadAll(std::move(seq), 1 << 18), b = ReadAll(std::move(par), 100000);
  EXPECT_EQ(a.error, b.error) << what;
  EXPECT_EQ(a.data.size(), b.data.size()) << what;
  EXPECT_TRUE(a.data == b.data) << what;
  if (a.error.empty()) {
    EXPECT_EQ(a.file_offset, b.file_offset) << what;
  }
}

TEST(Bz2ParallelTest, FindMagicAgreesWithTheBitByBitReference) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::string data(20 + rng() % 60, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    // Plant a magic at a random bit offset (sometimes two, sometimes none).
    for (int k = 0, n = static_cast<int>(rng() % 3); k < n; ++k) {
      uint64_t magic = rng() % 2 ? bz2_internal::kBlockMagic : bz2_internal::kEndMagic;
      uint64_t at = rng() % (8 * data.size() - 48);
      for (int b = 0; b < 48; ++b) {
        uint64_t bit = at + b;
        char mask = static_cast<char>(1 << (7 - bit % 8));
        if ((magic >> (47 - b)) & 1)
          data[bit / 8] |= mask;
        else
          data[bit / 8] &= static_cast<char>(~mask);
      }
    }
    for (uint64_t from : {uint64_t{0}, uint64_t{rng() % 100}, uint64_t{8 * data.size() - 50}}) {
      bool end_a = false, end_b = false;
      uint64_t a = bz2_internal::FindMagic(data, from, &end_a);
      uint64_t b = bz2_internal::FindMagicSlowly(data, from, &end_b);
      ASSERT_EQ(a, b) << "trial " << trial << " from " << from;
      if (a != UINT64_MAX) {
        EXPECT_EQ(end_a, end_b);
      }
    }
  }
}

TEST(Bz2ParallelTest, StandaloneBlockStreamsDecompressToTheBlocks) {
  // A one-block stream re-aligned from every bit shift decompresses to the original.
  std::string text = RandomText(50000, 3), stream = Bz2Compress(text, 1);
  bool is_end = false;
  uint64_t begin = bz2_internal::FindMagic(stream, 0, &is_end);
  uint64_t end = bz2_internal::FindMagic(stream, begin + 48, &is_end);
  ASSERT_EQ(begin, 32u);
  ASSERT_TRUE(is_end);
  for (int shift = 0; shift < 8; ++shift) {
    // Prefix `shift` zero bits: shift the whole stream right.
    std::string moved(stream.size() + 1, '\0');
    for (size_t i = 0; i < stream.size(); ++i) {
      auto c = static_cast<uint8_t>(stream[i]);
      moved[i] = static_cast<char>(moved[i] | (c >> shift));
      if (shift) moved[i + 1] = static_cast<char>(c << (8 - shift));
    }
    uint32_t crc = 0;
    for (int b = 0; b < 32; ++b) {
      uint64_t bit = begin + 48 + b;
      crc = (crc << 1) | ((static_cast<uint8_t>(stream[bit / 8]) >> (7 - bit % 8)) & 1);
    }
    std::string standalone =
        bz2_internal::StandaloneBlockStream(moved, begin + shift, end + shift, '1', crc);
    std::vector<char> out(text.size() + 100);
    unsigned int size = static_cast<unsigned int>(out.size());
    ASSERT_EQ(BZ2_bzBuffToBuffDecompress(out.data(), &size, standalone.data(),
                                         static_cast<unsigned int>(standalone.size()), 0, 0),
              BZ_OK)
        << shift;
    EXPECT_EQ(std::string(out.data(), size), text);
  }
}

TEST(Bz2ParallelTest, ManyBlocksAndStreamsGiveTheSequentialBytes) {
  TempDir tmp;
  std::string a = RandomText(1500000, 1), b = RandomText(40000, 2), c = RandomText(700000, 3);
  testing::WriteFile(tmp.Sub("one.bz2"), Bz2Compress(a, 1));
  testing::WriteFile(tmp.Sub("three.bz2"),
                     Bz2Compress(a, 1) + Bz2Compress(b, 9) + Bz2Compress(c, 2));
  testing::WriteFile(tmp.Sub("empty-stream.bz2"), Bz2Compress("", 9) + Bz2Compress(b, 1));
  testing::WriteFile(tmp.Sub("plain.txt"), b);
  for (const char* name : {"one.bz2", "three.bz2", "empty-stream.bz2", "plain.txt"})
    for (int threads : {1, 2, 5}) ExpectSameAsSequential(tmp.Sub(name), threads, name);
  std::unique_ptr<ByteSource> par;
  ASSERT_TRUE(OpenParallelByteSource(tmp.Sub("three.bz2"), 2, &par).ok());
  Outcome o = ReadAll(std::move(par), 4096);
  EXPECT_TRUE(o.data == a + b + c);
}

TEST(Bz2ParallelTest, DamagedTruncatedAndPaddedFilesFailAsSequentially) {
  TempDir tmp;
  std::string a = RandomText(900000, 4), b = RandomText(300000, 5);
  std::string file = Bz2Compress(a, 1) + Bz2Compress(b, 1);
  std::mt19937 rng(11);
  std::vector<std::pair<std::string, std::string>> cases = {
      {"cut-in-block", file.substr(0, file.size() / 2)},
      {"cut-in-trailer", file.substr(0, file.size() - 3)},
      {"garbage-after", file + "garbage!!"},
      {"zero-padded", file + std::string(100, '\0')},
      {"second-header-bad", Bz2Compress(a, 1) + "BZx9" + Bz2Compress(b, 1).substr(4)},
  };
  for (int k = 0; k < 12; ++k) {  // a flipped byte anywhere: headers, CRCs, Huffman data
    std::string damaged = file;
    size_t at = k < 2 ? static_cast<size_t>(k * 5 + 3) : rng() % file.size();
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (rng() % 8)));
    cases.emplace_back("flip@" + std::to_string(at), damaged);
  }
  for (auto& [what, bytes] : cases) {
    testing::WriteFile(tmp.Sub("f.bz2"), bytes);
    ExpectSameAsSequential(tmp.Sub("f.bz2"), 2, what);
  }
}

TEST(Bz2ParallelTest, IncompressibleBytesAndLiteralMagicsDecodeTheSame) {
  TempDir tmp;
  std::string text;
  std::mt19937 rng(5);
  for (int i = 0; i < 200000; ++i) text += static_cast<char>(rng());
  text += std::string("\x31\x41\x59\x26\x53\x59\x17\x72\x45\x38\x50\x90", 12);
  testing::WriteFile(tmp.Sub("r.bz2"), Bz2Compress(text, 1));
  ExpectSameAsSequential(tmp.Sub("r.bz2"), 2, "random bytes");
}

// A stream whose end-of-stream marker starts on a byte boundary ends the file exactly 10 bytes
// after it (48 bits of magic, 32 of CRC): such a file (about 1 in 7) used to be decompressed a
// second time on one thread. Clean files never go sequential.
TEST(Bz2ParallelTest, ByteAlignedEndMarkerStaysParallel) {
  TempDir tmp;
  int aligned = 0;
  for (uint32_t seed = 1; seed < 200 && aligned < 3; ++seed) {
    const std::string bz = Bz2Compress(RandomText(300000 + seed * 997, seed), 1);
    const unsigned char* end = reinterpret_cast<const unsigned char*>(bz.data()) + bz.size() - 10;
    if (!(end[0] == 0x17 && end[1] == 0x72 && end[2] == 0x45 && end[3] == 0x38 && end[4] == 0x50 &&
          end[5] == 0x90))
      continue;
    ++aligned;
    const std::string path = tmp.Sub("aligned" + std::to_string(seed) + ".bz2");
    testing::WriteFile(path, bz);
    const uint64_t before = bz2_internal::SequentialFallbacks();
    ExpectSameAsSequential(path, 2, "seed " + std::to_string(seed));
    EXPECT_EQ(bz2_internal::SequentialFallbacks(), before) << "seed " << seed;
  }
  EXPECT_GE(aligned, 1);
}

TEST(Bz2ParallelTest, FalseBoundaryIsSurvived) {
  // Insert a block magic into the middle of the first block's bits: the first part then fails
  // its CRC (libbz2), the source goes on sequentially, and the sequential error is reported.
  TempDir tmp;
  std::string text = RandomText(300000, 9);
  std::string bz = Bz2Compress(text, 9);
  std::string planted = bz;
  size_t at = bz.size() / 2;
  const char magic[6] = {0x31, 0x41, 0x59, 0x26, 0x53, 0x59};
  for (int i = 0; i < 6; ++i) planted[at + i] = magic[i];
  testing::WriteFile(tmp.Sub("p.bz2"), planted);
  ExpectSameAsSequential(tmp.Sub("p.bz2"), 2, "planted magic");
}

}  // namespace
}  // namespace aligndb
