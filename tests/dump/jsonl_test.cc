// Tests of the document JSON lines reader: both document shapes, news clusters, line ends,
// compressed input, and errors that name the line.
#include "dump/jsonl.h"

#include <gtest/gtest.h>

#include <random>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::TempDir;

using testing::Collected;

Status Collect(const std::string& path, Collected* c) {
  return testing::Collect(ReadDocumentJsonl, path, c);
}

TEST(DocumentJsonlTest, ReadsBothShapes) {
  TempDir tmp;
  testing::WriteFile(
      tmp.Sub("d.jsonl"),
      R"({"title": "Cat", "id": 7, "revision": 3, "text": "Cats purr.\nThey sleep."})"
      "\n\n"
      R"({"title": "Dog", "id": "8", "paragraphs": [["Dogs bark.", "A lot."], ["Yes."]]})"
      "\n");
  Collected c;
  ASSERT_TRUE(Collect(tmp.Sub("d.jsonl"), &c).ok());
  ASSERT_EQ(c.pages.size(), 2u);
  EXPECT_EQ(c.pages[0].title, "Cat");
  EXPECT_EQ(c.pages[0].page_id, 7u);
  EXPECT_EQ(c.pages[0].revision_id, 3u);
  EXPECT_EQ(c.pages[0].format, SourcePage::Format::kPlainText);
  EXPECT_EQ(c.pages[1].page_id, 8u);
  EXPECT_EQ(c.pages[1].format, SourcePage::Format::kSentences);
  EXPECT_EQ(c.pages[1].paragraphs,
            (std::vector<std::vector<std::string>>{{"Dogs bark.", "A lot."}, {"Yes."}}));
  EXPECT_EQ(c.pages[1].location, tmp.Sub("d.jsonl") + ": line 3");
}

TEST(DocumentJsonlTest, BadLinesNameTheLine) {
  TempDir tmp;
  struct Case {
    std::string line;
    std::string expect;
  } cases[] = {
      {R"({"title": "A", "text": "x"})"
       "\n"
       R"({"title": "B", "text": )",
       "line 2: not valid JSON"},
      {R"({"text": "no title"})", "line 1: expected a string field \"title\""},
      {R"({"title": "A"})", "line 1: expected \"text\" or \"paragraphs\""},
      {R"({"title": "A", "paragraphs": ["flat"]})", "line 1: \"paragraphs\" must be"},
      {R"({"title": "A", "id": -4, "text": "x"})", "line 1: field \"id\""},
      {"{\"title\": \"A\", \"text\": \"caf\xc3\"}", "line 1: invalid UTF-8 at column 28"},
      // A number nlohmann::json cannot hold is out_of_range, not a parse_error: still line 1.
      {R"({"title": "A", "revision": 1e999, "text": "x"})",
       "line 1: not usable JSON: number overflow parsing '1e999'"},
  };
  for (const auto& c : cases) {
    testing::WriteFile(tmp.Sub("bad.jsonl"), c.line);
    Collected got;
    Status s = Collect(tmp.Sub("bad.jsonl"), &got);
    ASSERT_FALSE(s.ok()) << c.line;
    EXPECT_EQ(s.code(), Status::Code::kCorruption);
    EXPECT_NE(s.message().find(tmp.Sub("bad.jsonl") + ": " + c.expect), std::string::npos)
        << s.message();
  }
}

TEST(DocumentJsonlTest, WindowsLineEndsByteOrderMarkAndBz2GiveTheSamePages) {
  TempDir tmp;
  std::string unix_text = R"({"title": "Cat", "text": "Cats purr."})"
                          "\n"
                          R"({"cluster": "c1", "doc": 2, "sentences": ["One.", "Two."]})"
                          "\n";
  std::string windows_text = "\xEF\xBB\xBF" + unix_text;
  for (size_t at = windows_text.find('\n'); at != std::string::npos;
       at = windows_text.find('\n', at + 2))
    windows_text.insert(at, "\r");
  testing::WriteFile(tmp.Sub("unix.jsonl"), unix_text);
  testing::WriteFile(tmp.Sub("windows.jsonl"), windows_text);
  testing::WriteFile(tmp.Sub("packed.jsonl.bz2"), testing::Bz2Compress(windows_text));
  Collected a, b, c;
  ASSERT_TRUE(Collect(tmp.Sub("unix.jsonl"), &a).ok());
  ASSERT_TRUE(Collect(tmp.Sub("windows.jsonl"), &b).ok());
  Status s = Collect(tmp.Sub("packed.jsonl.bz2"), &c);
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (const Collected* x : {&a, &b, &c}) {
    ASSERT_EQ(x->pages.size(), 2u);
    EXPECT_EQ(x->pages[0].title, "Cat");
    EXPECT_EQ(x->pages[0].text, "Cats purr.");
    EXPECT_EQ(x->pages[1].title, "c1/2");
    EXPECT_EQ(x->pages[1].cluster, "c1");
    EXPECT_EQ(x->pages[1].paragraphs, (std::vector<std::vector<std::string>>{{"One.", "Two."}}));
    EXPECT_EQ(x->info.pages, 2u);
  }
}

TEST(DocumentJsonlTest, ACallbackErrorStopsReading) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"),
                     "{\"title\": \"A\", \"text\": \"a\"}\n{\"title\": \"B\", \"text\": \"b\"}\n"
                     "{\"title\": \"C\", \"text\": \"c\"}\n");
  int calls = 0;
  Status s = ReadDocumentJsonl(
      tmp.Sub("d.jsonl"),
      [&](const SourcePage& p, const DumpInfo&) {
        ++calls;
        return p.title == "B" ? Status::IOError("disk full") : Status::OK();
      },
      nullptr);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(calls, 2);
}

TEST(DocumentJsonlTest, IdsThatDoNotFitAreErrorsNotWrappedNumbers) {
  TempDir tmp;
  for (std::string id : {"\"-5\"", "\"12345678901234567890123\"", "\"18446744073709551616\"", "-5",
                         "12345678901234567890123", "\" 7x\""}) {
    testing::WriteFile(tmp.Sub("d.jsonl"),
                       "{\"title\": \"A\", \"id\": " + id + ", \"text\": \"x\"}");
    Collected got;
    Status s = Collect(tmp.Sub("d.jsonl"), &got);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << id;
    EXPECT_NE(s.message().find(tmp.Sub("d.jsonl") + ": line 1: field \"id\""), std::string::npos)
        << s.message();
    EXPECT_TRUE(got.pages.empty()) << id;
  }
  testing::WriteFile(tmp.Sub("d.jsonl"),
                     "{\"title\": \"A\", \"id\": \"18446744073709551615\", \"text\": \"x\"}");
  Collected got;
  ASSERT_TRUE(Collect(tmp.Sub("d.jsonl"), &got).ok());
  EXPECT_EQ(got.pages[0].page_id, 18446744073709551615ull);
  EXPECT_EQ(got.pages[0].line, 1u);
}

// Random documents, usual and unusual (every field with values of several types, fields
// repeated, cluster documents, syntax errors): the reader's way (simdjson, then nlohmann for what
// it does not take) gives the same page or the same message as nlohmann alone.
TEST(DocumentJsonlTest, FastPathEqualsTheReferenceOnRandomLines) {
  std::mt19937 rng(31);
  const std::vector<std::string> keys = {"title", "id",        "revision",   "timestamp",
                                         "flags", "text",      "paragraphs", "cluster",
                                         "doc",   "sentences", "other"};
  const std::vector<std::string> values = {R"("Cat")",
                                           R"("A \"q\" \u00e9\ud83d\ude00")",
                                           "7",
                                           "0",
                                           "-3",
                                           "2.5",
                                           "1e999",
                                           "18446744073709551615",
                                           "18446744073709551616",
                                           R"("12")",
                                           R"("x1")",
                                           "null",
                                           "true",
                                           "[]",
                                           R"(["stub"])",
                                           R"([1])",
                                           R"([["One.", "Two."], ["Three."]])",
                                           R"([["One."], 5])",
                                           R"([[]])",
                                           R"({"a": 1})",
                                           R"("Line one.\nLine two.")",
                                           R"(["S1.", "S2."])",
                                           "-0",
                                           "-0.0",
                                           "0e0",
                                           "1E2"};
  int fast_ok = 0;
  SourcePage fast;  // reused from line to line, as the reader does: nothing may be left over
  for (int round = 0; round < 4000; ++round) {
    std::string line = "{";
    const int fields = 1 + static_cast<int>(rng() % 5);
    for (int f = 0; f < fields; ++f) {
      if (f) line += ", ";
      // Mostly the usual shape: a title and paragraphs.
      std::string key = f == 0 && rng() % 4 ? "title" : keys[rng() % keys.size()];
      if (f == 1 && rng() % 3) key = "paragraphs";
      std::string value = values[rng() % values.size()];
      if (key == "title" && rng() % 4) value = values[rng() % 2];
      if (key == "paragraphs" && rng() % 4) value = values[16];
      line += "\"" + key + "\": " + value;
    }
    line += "}";
    if (rng() % 20 == 0) line.pop_back();  // a syntax error
    SourcePage slow;
    Status fs = ParseDocumentLine("f.jsonl", line, 9, false, &fast);
    Status ss = ParseDocumentLine("f.jsonl", line, 9, true, &slow);
    ASSERT_EQ(fs.ToString(), ss.ToString()) << line;
    if (!fs.ok()) continue;
    ++fast_ok;
    EXPECT_EQ(fast.title, slow.title) << line;
    EXPECT_EQ(fast.page_id, slow.page_id) << line;
    EXPECT_EQ(fast.has_page_id, slow.has_page_id) << line;
    EXPECT_EQ(fast.revision_id, slow.revision_id) << line;
    EXPECT_EQ(fast.timestamp, slow.timestamp) << line;
    EXPECT_EQ(fast.format, slow.format) << line;
    EXPECT_EQ(fast.text, slow.text) << line;
    EXPECT_EQ(fast.paragraphs, slow.paragraphs) << line;
    EXPECT_EQ(fast.flags, slow.flags) << line;
    EXPECT_EQ(fast.has_flags, slow.has_flags) << line;
    EXPECT_EQ(fast.cluster, slow.cluster) << line;
    EXPECT_EQ(fast.location, slow.location) << line;
    EXPECT_EQ(fast.line, slow.line) << line;
  }
  EXPECT_GT(fast_ok, 400);  // the comparison covered accepted documents, not only errors
}

}  // namespace
}  // namespace aligndb
