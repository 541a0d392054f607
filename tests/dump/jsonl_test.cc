// Tests of the document JSON lines reader: both document shapes, news clusters, line ends,
// compressed input, and errors that name the line.
#include "dump/jsonl.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace aligndb
