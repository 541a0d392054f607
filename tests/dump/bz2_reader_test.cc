// Byte sources: plain files, bz2 files of one or several streams, ranges of a multistream file,
// and the errors of damaged or truncated files.
#include "dump/bz2_reader.h"

#include <gtest/gtest.h>

#include <random>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::TempDir;

// Reads `src` to the end in reads of `chunk` bytes.
Status ReadToEnd(ByteSource* src, size_t chunk, std::string* out) {
  std::vector<char> buf(chunk);
  for (;;) {
    size_t got = 0;
    RETURN_IF_ERROR(src->Read(buf.data(), buf.size(), &got));
    if (got == 0) return Status::OK();
    out->append(buf.data(), got);
  }
}

std::string RandomText(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s;
  for (size_t i = 0; i < n; ++i) s += "abc de\n"[rng() % 7];
  return s;
}

TEST(Bz2ReaderTest, PlainAndCompressedFilesGiveTheSameBytes) {
  TempDir tmp;
  std::string a = RandomText(300000, 1), b = RandomText(1000, 2);
  testing::WriteFile(tmp.Sub("plain.txt"), a + b);
  testing::WriteFile(tmp.Sub("one.bz2"), testing::Bz2Compress(a + b));
  testing::WriteFile(tmp.Sub("two.bz2"), testing::Bz2Compress(a) + testing::Bz2Compress(b));
  for (const char* name : {"plain.txt", "one.bz2", "two.bz2"}) {
    std::unique_ptr<ByteSource> src;
    ASSERT_TRUE(OpenByteSource(tmp.Sub(name), &src).ok());
    EXPECT_EQ(src->compressed(), std::string(name) != "plain.txt");
    std::string got;
    ASSERT_TRUE(ReadToEnd(src.get(), 777, &got).ok()) << name;
    EXPECT_EQ(got, a + b) << name;
    EXPECT_EQ(src->data_offset(), a.size() + b.size());
    EXPECT_EQ(src->file_offset(), testing::ReadFile(tmp.Sub(name)).size());
  }
}

TEST(Bz2ReaderTest, ARangeReadsItsStreamsOnly) {
  TempDir tmp;
  std::string a = RandomText(5000, 3), b = RandomText(7000, 4), c = RandomText(100, 5);
  std::string sa = testing::Bz2Compress(a), sb = testing::Bz2Compress(b);
  testing::WriteFile(tmp.Sub("ms.bz2"), sa + sb + testing::Bz2Compress(c));
  std::unique_ptr<ByteSource> src;
  ASSERT_TRUE(OpenBz2Range(tmp.Sub("ms.bz2"), sa.size(), sa.size() + sb.size(), &src).ok());
  std::string got;
  ASSERT_TRUE(ReadToEnd(src.get(), 1000, &got).ok());
  EXPECT_EQ(got, b);
}

TEST(Bz2ReaderTest, TruncatedAndDamagedFilesAreCorruptionWithTheOffset) {
  TempDir tmp;
  std::string whole = testing::Bz2Compress(RandomText(200000, 6));
  testing::WriteFile(tmp.Sub("cut.bz2"), whole.substr(0, whole.size() / 2));
  std::unique_ptr<ByteSource> src;
  ASSERT_TRUE(OpenByteSource(tmp.Sub("cut.bz2"), &src).ok());
  std::string got;
  Status s = ReadToEnd(src.get(), 4096, &got);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("truncated bz2 file"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(std::to_string(whole.size() / 2)), std::string::npos) << s.message();

  std::string bad = whole;
  for (size_t i = 100; i < 120; ++i) bad[i] = static_cast<char>(~bad[i]);
  testing::WriteFile(tmp.Sub("bad.bz2"), bad);
  ASSERT_TRUE(OpenByteSource(tmp.Sub("bad.bz2"), &src).ok());
  got.clear();
  s = ReadToEnd(src.get(), 4096, &got);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("bz2"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("stream starting at byte 0"), std::string::npos) << s.message();
}

TEST(Bz2ReaderTest, MissingFileIsAnIOError) {
  std::unique_ptr<ByteSource> src;
  Status s = OpenByteSource("/nonexistent/x.bz2", &src);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("/nonexistent/x.bz2"), std::string::npos);
}

}  // namespace
}  // namespace aligndb
