// The faster bzip2 decoder against libbz2, the reference: the same bytes on random text, random
// bytes (every move-to-front position), long runs, every block size and every number of walk
// parts; and on anything else (damage, truncation, trailing bytes) it declines, leaving its
// output as it was, so that libbz2 decodes and reports.
#include "dump/bz2_decode.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "test_util.h"

namespace aligndb {
namespace {

using bz2_internal::Bz2Crc;
using bz2_internal::Bz2CrcSlowly;
using bz2_internal::SetBwtParts;
using testing::Bz2Compress;
using testing::Bz2Decompress;

constexpr uint64_t kNoLimit = 64ull << 20;

std::string RandomText(size_t n, std::mt19937* rng) {
  static const char* kWords[] = {"the ", "of ", "wiki",  "[[link]] ", "{{cite}} ", "\n",
                                 "aaaa", "é ",  "1906 ", "city ",     "''",        "<ref>"};
  std::string s;
  while (s.size() < n) {
    if ((*rng)() % 40 == 0) s += static_cast<char>((*rng)() % 256);
    s += kWords[(*rng)() % 12];
  }
  s.resize(n);
  return s;
}

std::string RandomBytes(size_t n, std::mt19937* rng) {
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>((*rng)() % 256);
  return s;
}

// Runs of every length around the run-length coder's limits (4 and 4 + 255), of few bytes.
std::string Runs(size_t n, std::mt19937* rng) {
  std::string s;
  while (s.size() < n) s.append(1 + (*rng)() % 600, static_cast<char>('a' + (*rng)() % 3));
  s.resize(n);
  return s;
}

struct PartsGuard {
  ~PartsGuard() { SetBwtParts(8); }
};

void ExpectDecodesAsReference(const std::string& data, int level, const std::string& what) {
  const std::string z = Bz2Compress(data, level);
  std::string ref;
  ASSERT_TRUE(Bz2Decompress(z, &ref)) << what;
  ASSERT_EQ(ref, data) << what;
  std::string out = "kept";
  ASSERT_TRUE(FastDecodeBz2(z, &out, kNoLimit)) << what;
  EXPECT_EQ(out.size(), 4 + data.size()) << what;
  EXPECT_TRUE(out.compare(0, 4, "kept") == 0 && out.compare(4, std::string::npos, data) == 0)
      << what;
}

TEST(Bz2DecodeTest, CrcAgreesWithTheBitByBitReference) {
  const std::string check = "123456789";
  EXPECT_EQ(~Bz2Crc(0xffffffffu, reinterpret_cast<const uint8_t*>(check.data()), 9),
            0xfc891918u);  // CRC-32/BZIP2's check value
  std::mt19937 rng(1);
  for (int i = 0; i < 500; ++i) {
    const std::string s = RandomBytes(rng() % 100, &rng);
    const size_t skip = s.empty() ? 0 : rng() % s.size();
    const auto* p = reinterpret_cast<const uint8_t*>(s.data()) + skip;
    const uint32_t seed = static_cast<uint32_t>(rng());
    ASSERT_EQ(Bz2Crc(seed, p, s.size() - skip), Bz2CrcSlowly(seed, p, s.size() - skip));
  }
}

TEST(Bz2DecodeTest, RandomInputsDecodeAsLibbz2) {
  std::mt19937 rng(2);
  for (int i = 0; i < 60; ++i) {
    const size_t n = i < 10 ? i : rng() % (i < 40 ? 5000 : 400000);
    const int level = 1 + static_cast<int>(rng() % 9);
    const int kind = i % 3;
    const std::string data = kind == 0   ? RandomText(n, &rng)
                             : kind == 1 ? RandomBytes(n, &rng)
                                         : Runs(n, &rng);
    ExpectDecodesAsReference(data, level,
                             "input " + std::to_string(i) + " kind " + std::to_string(kind) +
                                 " size " + std::to_string(n) + " level " + std::to_string(level));
  }
}

TEST(Bz2DecodeTest, EveryNumberOfWalkPartsGivesTheSameBytes) {
  PartsGuard guard;
  std::mt19937 rng(3);
  // Blocks of 100k to 900k symbols, walked in 1 to 64 parts (several starts may fall on one
  // state of a short cycle; a part may be long or empty of steps but its first).
  const std::string text = RandomText(2'500'000, &rng), bytes = RandomBytes(300'000, &rng);
  const std::string zt = Bz2Compress(text, 9), zb = Bz2Compress(bytes, 1);
  for (int parts : {1, 2, 3, 7, 8, 16, 31, 64}) {
    SetBwtParts(parts);
    std::string out;
    ASSERT_TRUE(FastDecodeBz2(zt, &out, kNoLimit)) << parts;
    EXPECT_TRUE(out == text) << parts;
    out.clear();
    ASSERT_TRUE(FastDecodeBz2(zb, &out, kNoLimit)) << parts;
    EXPECT_TRUE(out == bytes) << parts;
  }
}

TEST(Bz2DecodeTest, ConcatenatedStreamsDecodeInOrder) {
  std::mt19937 rng(4);
  std::string z, want;
  for (int i = 0; i < 5; ++i) {
    const std::string part = RandomText(rng() % 200000, &rng);
    z += Bz2Compress(part, 1 + i);
    want += part;
  }
  z += Bz2Compress("", 9);  // a stream of no blocks
  std::string out;
  ASSERT_TRUE(FastDecodeBz2(z, &out, kNoLimit));
  EXPECT_TRUE(out == want);
}

// Whatever it does not decode, it declines: damage, truncation, trailing bytes. When it does
// decode a damaged stream (a flip the format cannot see), libbz2 gives the same bytes.
TEST(Bz2DecodeTest, DamagedTruncatedAndPaddedStreamsAreDeclined) {
  std::mt19937 rng(5);
  const std::string data = RandomText(250000, &rng);
  const std::string z = Bz2Compress(data, 2);
  std::string out = "kept";
  for (size_t cut :
       {size_t{0}, size_t{3}, size_t{4}, size_t{10}, z.size() / 2, z.size() - 5, z.size() - 1}) {
    EXPECT_FALSE(FastDecodeBz2(z.substr(0, cut), &out, kNoLimit)) << cut;
    EXPECT_EQ(out, "kept");
  }
  EXPECT_FALSE(FastDecodeBz2(z + "x", &out, kNoLimit));
  EXPECT_FALSE(FastDecodeBz2(z + std::string(8, '\0'), &out, kNoLimit));
  EXPECT_EQ(out, "kept");
  int declined = 0;
  for (int i = 0; i < 300; ++i) {
    std::string bad = z;
    const size_t bit = rng() % (bad.size() * 8);
    bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (0x80 >> (bit % 8)));
    std::string got = "kept", ref;
    if (FastDecodeBz2(bad, &got, kNoLimit)) {
      ASSERT_TRUE(Bz2Decompress(bad, &ref)) << bit;
      EXPECT_TRUE(got.substr(4) == ref) << bit;
    } else {
      ++declined;
      EXPECT_EQ(got, "kept") << bit;
    }
  }
  EXPECT_GT(declined, 250);
}

TEST(Bz2DecodeTest, RandomizedBlocksAreLeftToLibbz2) {
  std::string z = Bz2Compress(std::string(1000, 'x') + "tail", 9);
  // The block's randomized bit follows "BZh9", the 48-bit magic and the 32-bit CRC.
  const size_t bit = 32 + 48 + 32;
  z[bit / 8] = static_cast<char>(z[bit / 8] ^ (0x80 >> (bit % 8)));
  std::string out;
  EXPECT_FALSE(FastDecodeBz2(z, &out, kNoLimit));
  EXPECT_TRUE(out.empty());
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

// Blocks whose data end in four equal bytes with no count after them ("aaaa", "xyaaaa"), with
// CRCs that match those bytes: bzip2 never writes one, and libbz2, which reads the count past
// the block's end, fails them. The decoder declines them too (review19).
TEST(Bz2DecodeTest, ARunOfFourWithoutItsCountIsDeclinedAsLibbz2FailsIt) {
  for (const char* hex :
       {"425a6839314159265359881233a600000001002000200021010485dc914e142422048ce980",
        "425a68393141592653592c3305450000020180200000602000218060680705dc914e14240b0cc15140"}) {
    const std::string z = FromHex(hex);
    std::string ref, out = "kept";
    EXPECT_FALSE(Bz2Decompress(z, &ref)) << hex;
    for (int parts : {1, 32}) {
      PartsGuard guard;
      SetBwtParts(parts);
      EXPECT_FALSE(FastDecodeBz2(z, &out, kNoLimit)) << hex;
      EXPECT_EQ(out, "kept");
    }
  }
}

TEST(Bz2DecodeTest, OutputPastTheLimitIsDeclined) {
  const std::string zeros(5'000'000, '\0');  // one block of runs, 5 MB of output
  const std::string z = Bz2Compress(zeros, 9);
  std::string out;
  EXPECT_FALSE(FastDecodeBz2(z, &out, 1 << 20));
  EXPECT_TRUE(out.empty());
  ASSERT_TRUE(FastDecodeBz2(z, &out, 8 << 20));
  EXPECT_TRUE(out == zeros);
}

}  // namespace
}  // namespace aligndb
