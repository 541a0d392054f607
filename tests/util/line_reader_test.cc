// The one line reader: "\n" and "\r\n" line ends, a byte order mark, a last line without "\n",
// and chunked input split anywhere giving the same lines as a stream.
#include "util/line_reader.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <vector>

namespace aligndb {
namespace {

std::vector<std::string> StreamLines(const std::string& text) {
  std::istringstream in(text);
  LineReader reader(in);
  std::vector<std::string> lines;
  std::string line;
  while (reader.Next(&line)) {
    lines.push_back(line);
    EXPECT_EQ(reader.line_number(), lines.size());
  }
  return lines;
}

std::vector<std::string> ChunkLines(const std::string& text, const std::vector<size_t>& cuts) {
  LineSplitter splitter;
  std::vector<std::string> lines;
  auto on_line = [&](std::string& line, uint64_t n) {
    lines.push_back(line);
    EXPECT_EQ(n, lines.size());
    return Status::OK();
  };
  size_t start = 0;
  for (size_t cut : cuts) {
    EXPECT_TRUE(splitter.Feed(std::string_view(text).substr(start, cut - start), on_line).ok());
    start = cut;
  }
  EXPECT_TRUE(splitter.Feed(std::string_view(text).substr(start), on_line).ok());
  EXPECT_TRUE(splitter.Finish(on_line).ok());
  return lines;
}

TEST(LineReaderTest, StripsCrlfAndTheByteOrderMarkOfLineOne) {
  std::string text =
      "\xEF\xBB\xBF"
      "first\r\nsecond\n\r\n\xEF\xBB\xBF"
      "fourth\rx\r\nlast";
  std::vector<std::string> want = {"first", "second", "",
                                   "\xEF\xBB\xBF"
                                   "fourth\rx",
                                   "last"};
  EXPECT_EQ(StreamLines(text), want);
  EXPECT_EQ(ChunkLines(text, {}), want);
}

TEST(LineReaderTest, NoLinesInEmptyInputAndNoExtraLineAfterAFinalNewline) {
  EXPECT_TRUE(StreamLines("").empty());
  EXPECT_TRUE(ChunkLines("", {}).empty());
  EXPECT_EQ(StreamLines("a\n"), std::vector<std::string>{"a"});
  EXPECT_EQ(ChunkLines("a\n", {}), std::vector<std::string>{"a"});
}

TEST(LineReaderTest, ChunksCutAnywhereGiveTheLinesOfTheStream) {
  std::mt19937 rng(7);
  const std::string alphabet = "ab\r\n\n ";
  for (int round = 0; round < 300; ++round) {
    std::string text;
    size_t len = rng() % 40;
    for (size_t i = 0; i < len; ++i) text += alphabet[rng() % alphabet.size()];
    std::vector<size_t> cuts;
    for (size_t i = 0; i < text.size(); ++i)
      if (rng() % 4 == 0) cuts.push_back(i);
    EXPECT_EQ(ChunkLines(text, cuts), StreamLines(text)) << "text: " << text;
  }
}

TEST(LineReaderTest, AFailedLineStopsTheSplitter) {
  LineSplitter splitter;
  int calls = 0;
  Status s = splitter.Feed("a\nb\nc\n", [&](std::string&, uint64_t n) {
    ++calls;
    return n == 2 ? Status::Corruption("line 2") : Status::OK();
  });
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace aligndb
