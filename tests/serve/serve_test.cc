// The viewer over a real database built by the aligndb binary: a real server on 127.0.0.1 (port
// 0), an HTTP client, the JSON API compared byte for byte with the command line, hostile data,
// a reader beside a writer, the command's port and signal handling, and the article page's DOM
// as headless Chromium builds it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>
#include <tuple>

#include "aligndb.pb.h"
#include "report/report.h"
#include "sample_db.h"
#include "serve/pages.h"
#include "serve/server.h"
#include "storage/records.h"
#include "test_util.h"

// Last: its system headers define macros that clash with Eigen's (included through pages.h).
#include <httplib.h>

namespace aligndb::serve {
namespace {

using testing::DataPath;
using testing::RunAligndb;
using testing::TempDir;

// A server in this process, serving `db` on a free port until destroyed.
class Running {
 public:
  explicit Running(const std::string& db, int refresh_ms = 50) {
    ServeOptions o;
    o.db = db;
    o.port = 0;
    o.threads = 4;
    o.refresh_ms = refresh_ms;
    server_ = std::make_unique<Server>(o);
    Status s = server_->Start();
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (s.ok()) thread_ = std::thread([this] { (void)server_->Run(); });
  }
  ~Running() {
    server_->Stop();
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return server_->port(); }
  std::string url() const { return server_->url(); }
  httplib::Client Client() const {
    httplib::Client c("127.0.0.1", port());
    c.set_read_timeout(30, 0);
    return c;
  }

 private:
  std::unique_ptr<Server> server_;
  std::thread thread_;
};

struct Got {
  int status = 0;
  std::string body, content_type;
};
Got Get(const Running& r, const std::string& path) {
  auto res = r.Client().Get(path.c_str());
  if (!res) return {-1, "no response: " + httplib::to_string(res.error()), ""};
  return {res->status, res->body, res->get_header_value("Content-Type")};
}

// The bundled samples, built once for the suite (as the README's first example does).
class ServeTest : public testing::SampleDbTest {
 protected:
  static void SetUpTestSuite() {
    SampleDbTest::SetUpTestSuite();
    server_ = new Running(db_);
  }
  static void TearDownTestSuite() {
    delete server_;
    SampleDbTest::TearDownTestSuite();
  }
  static inline Running* server_ = nullptr;
};

// ---------------------------------------------------------------- JSON API

TEST_F(ServeTest, ApiLookupIsWhatTheCommandLinePrints) {
  for (std::string title : {"Art", "Mail", "Albatross", "Ludwig Büchner", "A", "New York City"}) {
    auto cli = RunAligndb({"lookup", "--db", db_, title, "--format", "json"});
    ASSERT_EQ(cli.exit_code, 0) << title << ": " << cli.err;
    Got got = Get(*server_, "/api/lookup?title=" + UrlEncode(title));
    EXPECT_EQ(got.status, 200) << title;
    EXPECT_EQ(got.body, cli.out) << title;
    EXPECT_EQ(got.content_type, "application/json");
  }
}

TEST_F(ServeTest, ApiErrorsAreJsonWithTheirStatus) {
  Got got = Get(*server_, "/api/lookup?title=No%20such%20title");
  EXPECT_EQ(got.status, 404);
  auto j = nlohmann::json::parse(got.body);
  EXPECT_EQ(j["status"], 404);
  EXPECT_NE(j["error"].get<std::string>().find("No such title"), std::string::npos);
  EXPECT_EQ(Get(*server_, "/api/lookup").status, 400);
  got = Get(*server_, "/api/lookup?title=%FF%FE");  // not UTF-8: still one JSON error
  EXPECT_EQ(got.status, 404) << got.body;
  EXPECT_TRUE(nlohmann::json::accept(got.body)) << got.body;
  EXPECT_EQ(Get(*server_, "/article?title=%FF%FE").status, 404);
  EXPECT_EQ(Get(*server_, "/api/lookup?title=Art&normal=frwiki").status, 404);
  EXPECT_EQ(Get(*server_, "/api/lookup?title=Art&bogus=1").status, 400);
  EXPECT_EQ(Get(*server_, "/api/stats?min_sim=nan").status, 400);
  EXPECT_EQ(Get(*server_, "/api/nothing").status, 404);
  got = Get(*server_, "/api/export?op=3-3");
  EXPECT_EQ(got.status, 400);
  EXPECT_NE(got.body.find("unknown operation"), std::string::npos) << got.body;
  // The API's errors name its own parameters, not the command line's flags.
  EXPECT_EQ(got.body.find("--op"), std::string::npos) << got.body;
  EXPECT_NE(
      got.body.find("op: unknown operation \\\"3-3\\\" (use 1-1, 1-2, 2-1, 2-2, pair, l12, f2)"),
      std::string::npos)
      << got.body;
  got = Get(*server_, "/api/export?min_sim=0.9&max_sim=0.2");
  EXPECT_EQ(got.status, 400);
  EXPECT_NE(got.body.find("max_sim 0.2 is below min_sim 0.9"), std::string::npos) << got.body;
  got = Get(*server_, "/api/export?min_sim=2");
  EXPECT_EQ(got.status, 400);
  EXPECT_NE(got.body.find("min_sim 2: similarities lie in [-1, 1]"), std::string::npos) << got.body;
  EXPECT_EQ(got.body.find("--"), std::string::npos) << got.body;
  EXPECT_EQ(Get(*server_, "/api/export?unit=paragraph").status, 400);
  EXPECT_EQ(Get(*server_, "/api/export?label=great").status, 400);
}

// --threads 0 is one thread per core, as for the other commands; a negative count is refused.
TEST_F(ServeTest, ZeroThreadsIsOnePerCore) {
  ServeOptions o;
  o.db = db_;
  o.port = 0;
  o.threads = 0;
  Server server(o);
  Status s = server.Start();
  ASSERT_TRUE(s.ok()) << s.ToString();
  server.Stop();
  o.threads = -1;
  Server refused(o);
  EXPECT_EQ(refused.Start().code(), Status::Code::kInvalidArgument);
}

TEST_F(ServeTest, ApiStatsIsWhatTheCommandLinePrints) {
  auto cli = RunAligndb({"stats", "--db", db_, "--json"});
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  Got got = Get(*server_, "/api/stats");
  EXPECT_EQ(got.status, 200);
  EXPECT_EQ(got.body, cli.out);
  cli = RunAligndb({"stats", "--db", db_, "--json", "--min-sim", "0.7"});
  EXPECT_EQ(Get(*server_, "/api/stats?min_sim=0.7").body, cli.out);
}

TEST_F(ServeTest, ApiExportStreamsWhatTheCommandLineWrites) {
  struct Case {
    std::string query;
    std::vector<std::string> args;
  };
  const std::vector<Case> cases = {
      {"", {}},
      {"min_sim=0", {"--min-sim", "0"}},
      {"op=1-1&min_sim=0.75&no_identical=1",
       {"--op", "1-1", "--min-sim", "0.75", "--no-identical"}},
      {"op=1-2,2-1&max_sim=0.9", {"--op", "1-2,2-1", "--max-sim", "0.9"}},
      {"unit=operation&min_sim=0", {"--unit", "operation", "--min-sim", "0"}},
      {"label=good", {"--label", "good"}},
      {"title=Mail&min_sim=0", {"--title", "Mail", "--min-sim", "0"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"export", "--db", db_, "--format", "jsonl"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto cli = RunAligndb(args);
    ASSERT_EQ(cli.exit_code, 0) << c.query << ": " << cli.err;
    Got got = Get(*server_, "/api/export?" + c.query);
    EXPECT_EQ(got.status, 200) << c.query;
    EXPECT_FALSE(cli.out.empty()) << c.query;  // each case selects something
    EXPECT_EQ(got.body, cli.out) << c.query;
  }
}

TEST_F(ServeTest, ApiTitlesCompletesAlignedTitles) {
  Got got = Get(*server_, "/api/titles?prefix=al");
  ASSERT_EQ(got.status, 200);
  auto titles = nlohmann::json::parse(got.body).get<std::vector<std::string>>();
  EXPECT_NE(std::find(titles.begin(), titles.end(), "Albatross"), titles.end()) << got.body;
  for (const auto& t : titles) EXPECT_EQ(t.substr(0, 2), "Al") << t;
  got = Get(*server_, "/api/titles?prefix=New%20");
  titles = nlohmann::json::parse(got.body).get<std::vector<std::string>>();
  EXPECT_NE(std::find(titles.begin(), titles.end(), "New York City"), titles.end()) << got.body;
  EXPECT_EQ(Get(*server_, "/api/titles?prefix=zzzz").body, "[]\n");
}

// A pair made through a redirect (align --follow-redirects) is named after its simple title
// ("Airplane"); a user searching the English article's title ("Fixed-wing aircraft") finds it
// too: in the completion, the home page's list without script and the not-found page.
TEST(ServeRedirectTest, TitlesListTheNormalTitleOfAPairMadeThroughARedirect) {
  TempDir tmp;
  auto page = [](const std::string& title, int id, const std::string& body) {
    return "<page><title>" + title + "</title><ns>0</ns><id>" + std::to_string(id) + "</id>" +
           body + "</page>";
  };
  const std::string text =
      "An airplane is a powered aircraft with fixed wings. It flies by the lift of its wings.\n\n"
      "Airplanes carry people and goods over long distances. Many airports serve them daily.";
  auto article = [&](const std::string& title, int id) {
    return page(title, id, "<revision><id>1</id><text>" + text + "</text></revision>");
  };
  testing::WriteFile(tmp.Sub("en.xml"),
                     "<mediawiki><siteinfo><dbname>enwiki</dbname></siteinfo>" +
                         article("Fixed-wing aircraft", 1) +
                         page("Airplane", 2,
                              "<redirect title=\"Fixed-wing aircraft\"/><revision><id>1</id>"
                              "<text>#REDIRECT [[Fixed-wing aircraft]]</text></revision>") +
                         article("Fixed point", 3) + "</mediawiki>");
  testing::WriteFile(tmp.Sub("simple.xml"),
                     "<mediawiki><siteinfo><dbname>simplewiki</dbname></siteinfo>" +
                         article("Airplane", 7) + article("Fixed point", 8) + "</mediawiki>");
  auto titles = [](const Running& r, const std::string& prefix) {
    Got got = Get(r, "/api/titles?prefix=" + UrlEncode(prefix));
    EXPECT_EQ(got.status, 200) << got.body;
    return nlohmann::json::parse(got.body).get<std::vector<std::string>>();
  };
  using V = std::vector<std::string>;
  // Counter-example: aligned without following redirects, there is no such pair to list.
  auto built =
      RunAligndb({"build", "--db", tmp.Sub("plain"), tmp.Sub("en.xml"), tmp.Sub("simple.xml")});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  {
    Running plain(tmp.Sub("plain"));
    EXPECT_EQ(titles(plain, "fix"), V{"Fixed point"});
  }
  built = RunAligndb({"build", "--db", tmp.Sub("db"), "--follow-redirects", tmp.Sub("en.xml"),
                      tmp.Sub("simple.xml")});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  Running r(tmp.Sub("db"));
  EXPECT_EQ(titles(r, "fix"), (V{"Fixed point", "Fixed-wing aircraft"}));
  EXPECT_EQ(titles(r, "Fixed-"), V{"Fixed-wing aircraft"});
  // Each title listed starts with what was typed: the simple title leads to its own name only.
  EXPECT_EQ(titles(r, "Air"), V{"Airplane"});
  Got home = Get(r, "/?prefix=fixed-w");
  EXPECT_NE(home.body.find("/article?title=Fixed-wing%20aircraft"), std::string::npos) << home.body;
  Got near = Get(r, "/article?title=Fixed-wing");
  EXPECT_EQ(near.status, 404);
  EXPECT_NE(near.body.find("/article?title=Fixed-wing%20aircraft"), std::string::npos);
  EXPECT_EQ(Get(r, "/article?title=Fixed-wing%20aircraft").status, 200);
}

// ---------------------------------------------------------------- pages

// (normal paragraph, normal sentence, simple paragraph, simple sentence) of every pair of a
// lookup's JSON.
using PairPos = std::tuple<int, int, int, int>;
std::multiset<PairPos> RecordPairs(const std::string& lookup_json) {
  std::multiset<PairPos> out;
  auto j = nlohmann::json::parse(lookup_json);
  for (const auto& pp : j["paragraph_pairs"])
    for (const auto& sp : pp["sentence_pairs"])
      out.insert({sp["normal_index"][0].get<int>(), sp["normal_index"][1].get<int>(),
                  sp["simple_index"][0].get<int>(), sp["simple_index"][1].get<int>()});
  return out;
}

// The pairs a page's markup highlights: each aligned sentence element names its side and
// position (id "n-P-S" / "s-P-S") and the indices of its pairs (data-pairs).
std::multiset<PairPos> HighlightedPairs(const std::string& html) {
  static const std::regex kAligned(
      R"re(<a class="s aligned [a-z]+" id="([ns])-(\d+)-(\d+)" data-pos="[0-9.]+" data-pairs="([0-9 ]+)")re");
  std::map<int, std::pair<int, int>> normal, simple;
  for (std::sregex_iterator it(html.begin(), html.end(), kAligned), end; it != end; ++it) {
    const auto& m = *it;
    std::istringstream keys(m[4].str());
    int k;
    while (keys >> k) ((m[1] == "n") ? normal : simple)[k] = {std::stoi(m[2]), std::stoi(m[3])};
  }
  std::multiset<PairPos> out;
  for (const auto& [k, n] : normal) {
    auto s = simple.find(k);
    if (s == simple.end()) continue;
    out.insert({n.first, n.second, s->second.first, s->second.second});
  }
  EXPECT_EQ(normal.size(), simple.size());
  return out;
}

TEST_F(ServeTest, ArticlePageHighlightsExactlyTheRecordsPairs) {
  for (std::string title : {"Mail", "Albatross", "Art", "New York City"}) {
    Got page = Get(*server_, "/article?title=" + UrlEncode(title));
    ASSERT_EQ(page.status, 200) << title;
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    Got json = Get(*server_, "/api/lookup?title=" + UrlEncode(title));
    const auto want = RecordPairs(json.body);
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(HighlightedPairs(page.body), want) << title;
    auto j = nlohmann::json::parse(json.body);
    const std::string rev = std::to_string(j["normal_revision"].get<uint64_t>());
    EXPECT_NE(page.body.find("https://en.wikipedia.org/w/index.php?oldid=" + rev),
              std::string::npos);
    const std::string srev = std::to_string(j["simple_revision"].get<uint64_t>());
    EXPECT_NE(page.body.find("https://simple.wikipedia.org/w/index.php?oldid=" + srev),
              std::string::npos);
    if (title == "Art") {
      EXPECT_NE(page.body.find("class=\"s skip\""), std::string::npos) << "skipped: greyed";
    }
  }
}

TEST_F(ServeTest, ArticlePageErrors) {
  Got got = Get(*server_, "/article?title=Albatros");
  EXPECT_EQ(got.status, 404);
  EXPECT_NE(got.body.find("/article?title=Albatross"), std::string::npos) << "suggests the title";
  EXPECT_EQ(Get(*server_, "/article").status, 400);
  EXPECT_EQ(Get(*server_, "/article?title=Art&x=1").status, 400);
  EXPECT_EQ(Get(*server_, "/no/such/page").status, 404);
  EXPECT_EQ(Get(*server_, "/api/lookup?title=" + std::string(9000, 'a')).status, 414);
  // A body over the payload bound under /api/: 413, and the JSON body says the same status.
  auto client = server_->Client();
  auto res = client.Post("/api/stats", std::string(100000, 'x'), "text/plain");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 413);
  auto j = nlohmann::json::parse(res->body, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << res->body;
  EXPECT_EQ(j["status"], 413);
}

TEST_F(ServeTest, HomePageHasSearchStatisticsAndPictures) {
  Got got = Get(*server_, "/");
  ASSERT_EQ(got.status, 200);
  EXPECT_NE(got.body.find("<form class=\"search\" action=\"/article\""), std::string::npos);
  EXPECT_NE(got.body.find("<datalist id=\"titles\">"), std::string::npos);
  EXPECT_NE(got.body.find("enwiki ↔ simplewiki"), std::string::npos);
  size_t svgs = 0;
  for (size_t at = got.body.find("<svg"); at != std::string::npos;
       at = got.body.find("<svg", at + 1))
    ++svgs;
  EXPECT_EQ(svgs, 5u);
  EXPECT_EQ(got.body.find("src=\"http"), std::string::npos) << "no script from the network";
  got = Get(*server_, "/?prefix=alb");  // the suggestions without script
  EXPECT_NE(got.body.find("/article?title=Albatross"), std::string::npos);
}

TEST_F(ServeTest, PairsPageFiltersAndPages) {
  Got all = Get(*server_, "/pairs");
  ASSERT_EQ(all.status, 200);
  auto rows = [](const std::string& html) {
    size_t n = 0;
    for (size_t at = html.find("<td class=\"op\">"); at != std::string::npos;
         at = html.find("<td class=\"op\">", at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(rows(all.body), kPairsPerPage);
  EXPECT_NE(all.body.find("page=2"), std::string::npos) << "links the next page";
  Got ops = Get(*server_, "/pairs?op=2-1&min_sim=0");
  EXPECT_GT(rows(ops.body), 0u);
  size_t two_one = 0;  // every row shown is a 2-1 row
  for (size_t at = ops.body.find("<td class=\"op\">2-1<"); at != std::string::npos;
       at = ops.body.find("<td class=\"op\">2-1<", at + 1))
    ++two_one;
  EXPECT_EQ(rows(ops.body), two_one);
  // The export rows with the same filters, counted by the command line.
  auto cli =
      RunAligndb({"export", "--db", db_, "--format", "jsonl", "--op", "2-1", "--min-sim", "0"});
  const size_t cli_rows = std::count(cli.out.begin(), cli.out.end(), '\n');
  EXPECT_EQ(rows(ops.body), std::min<size_t>(cli_rows, kPairsPerPage));
  Got text = Get(*server_, "/pairs?q=ALBATROSS&min_sim=0");
  EXPECT_GT(rows(text.body), 0u);
  Got far = Get(*server_, "/pairs?page=999");
  EXPECT_EQ(far.status, 200);
  EXPECT_EQ(rows(far.body), 0u);
  for (std::string bad : {"page=0", "page=x", "min_sim=abc", "label=best", "op=skip-simple",
                          "max_sim=0.1&min_sim=0.9", "foo=1"})
    EXPECT_EQ(Get(*server_, "/pairs?" + bad).status, 400) << bad;
}

// ---------------------------------------------------------------- hostile data

TEST(ServeHostileTest, NoMarkupFromTheDataReachesAPage) {
  TempDir tmp;
  const std::string hostile =
      "<script>alert(1)</script>\"onmouseover=alert(2) </textarea>\x01\x1b[31m";
  const std::string title = "X" + hostile;
  auto doc = [&](const std::string& t) {
    nlohmann::json j;
    j["title"] = t;
    j["text"] = "The " + hostile +
                " whale is a very large animal of the sea.\n"
                "Whales breathe air " +
                hostile +
                " through a blowhole on the head.\n"
                "The blue whale is the largest animal that ever lived on the earth.";
    return j.dump() + "\n";
  };
  testing::WriteFile(tmp.Sub("en.jsonl"), doc(title));
  testing::WriteFile(tmp.Sub("simple.jsonl"), doc(title));
  auto r = RunAligndb({"build", "--db", tmp.Sub("db"), "enwiki=" + tmp.Sub("en.jsonl"),
                       "simplewiki=" + tmp.Sub("simple.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Running server(tmp.Sub("db"));
  Got lookup = Get(server, "/api/lookup?title=" + UrlEncode(title));
  ASSERT_EQ(lookup.status, 200) << lookup.body;
  const std::string stored_title = nlohmann::json::parse(lookup.body)["simple_title"];
  const std::vector<std::string> pages = {"/",
                                          "/?prefix=X",
                                          "/article?title=" + UrlEncode(stored_title),
                                          "/pairs?min_sim=0",
                                          "/pairs?q=" + UrlEncode(hostile),
                                          "/article?title=" + UrlEncode(hostile),
                                          "/pairs?min_sim=" + UrlEncode(hostile)};
  for (const std::string& path : pages) {
    Got got = Get(server, path);
    EXPECT_NE(got.status, 500) << path;
    for (std::string raw : {"<script>alert", "\"onmouseover", "</textarea>", "\x01", "\x1b"})
      EXPECT_EQ(got.body.find(raw), std::string::npos) << path << " holds " << raw;
  }
  Got article = Get(server, "/article?title=" + UrlEncode(stored_title));
  EXPECT_NE(article.body.find("&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover"),
            std::string::npos);
  EXPECT_FALSE(HighlightedPairs(article.body).empty());
}

TEST(ServePagesTest, RevisionLinksOnlyForWikipediaEditions) {
  EXPECT_EQ(RevisionUrl("enwiki", 42), "https://en.wikipedia.org/w/index.php?oldid=42");
  EXPECT_EQ(RevisionUrl("simplewiki", 7), "https://simple.wikipedia.org/w/index.php?oldid=7");
  EXPECT_EQ(RevisionUrl("zh_yuewiki", 7), "https://zh-yue.wikipedia.org/w/index.php?oldid=7");
  for (std::string bad : {"docs", "wiki", "commonswiki", "wikidatawiki", "en.evil.com/wiki",
                          "EN\"wiki", "_wiki", "xn--wiki"})
    EXPECT_EQ(RevisionUrl(bad, 1), "") << bad;
  EXPECT_EQ(UrlEncode("a b&c=\"d\"/é"), "a%20b%26c%3D%22d%22%2F%C3%A9");
}

// Every field of a record and of the statistics that a page shows, hostile, rendered directly:
// edition names, titles, sentences and the aligner's parameters reach no page unescaped.
TEST(ServePagesTest, EveryShownFieldIsEscaped) {
  const std::string bad = "<img src=x onerror=alert(1)>\"'&</textarea>\x02";
  pb::AlignParams params;
  params.set_mode(bad);
  params.set_similarity(bad);
  pb::AlignmentRecord r;
  SetRecordHeader({bad + "wiki", bad, 1, 2}, {"simple" + bad, bad, 3, 4}, params, 1, &r);
  AddSentencePair(0, 0, 0, 0, 0.8, pb::OP_ONE_ONE, bad, bad, r.add_paragraph_pairs());
  ArticleSide side{{{bad, bad}}, false};
  CorpusStats stats;
  stats.normal_edition = stats.simple_edition = bad;
  stats.similarities = {0.7};
  HomeView home{bad, {bad}, &stats, ReportPictures(stats), bad};
  PairRow row{bad, bad, bad, bad, 0.6, Op::kOneOne, Label::kGood};
  PairsQuery query{bad, bad, bad, bad, bad, 2};
  for (const std::string& page : {ArticlePage(r, side, side), HomePage(home),
                                  PairsPage(query, {row}, true), ErrorPage(404, bad, {bad})}) {
    EXPECT_EQ(page.find("<img"), std::string::npos);
    EXPECT_EQ(page.find("</textarea>"), std::string::npos);
    EXPECT_EQ(page.find('\x02'), std::string::npos);
    EXPECT_NE(page.find("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"), std::string::npos)
        << page;
  }
}

// A record's positions place its sentences; damaged positions (paragraph and sentence 99,999,
// 200 times) cannot make the page allocate billions of slots.
TEST(ServePagesTest, SideFromRecordPlacesSentencesAndBoundsSlots) {
  pb::AlignmentRecord r;
  SetRecordHeader({"enwiki", "A", 1, 2}, {"simplewiki", "A", 3, 4}, pb::AlignParams(), 1, &r);
  AddSentencePair(1, 2, 0, 0, 0.8, pb::OP_ONE_ONE, "N", "S", r.add_paragraph_pairs());
  ArticleSide side = SideFromRecord(r, true);
  EXPECT_TRUE(side.from_record);
  ASSERT_EQ(side.paragraphs.size(), 2u);
  ASSERT_EQ(side.paragraphs[1].size(), 3u);
  EXPECT_EQ(side.paragraphs[1][2], "N");
  EXPECT_EQ(SideFromRecord(r, false).paragraphs.at(0).at(0), "S");
  auto* pp = r.add_paragraph_pairs();
  for (uint32_t p = 2; p < 202; ++p)
    AddSentencePair(99999 - p, 99999, 0, 1, 0.8, pb::OP_ONE_ONE, "x", "y", pp);
  side = SideFromRecord(r, true);
  size_t slots = side.paragraphs.size();
  for (const auto& para : side.paragraphs) slots += para.size();
  EXPECT_LE(slots, kMaxRecordSideSlots);
  EXPECT_EQ(side.paragraphs[1][2], "N");  // what fits is kept
}

// ---------------------------------------------------------------- a reader beside a writer

TEST(ServeWriterTest, ReadsStayWholeWhileAnotherProcessWritesAndNewDataAppears) {
  TempDir tmp;
  const std::string db = tmp.Sub("db");
  auto r = RunAligndb({"build", "--db", db, DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Running server(db);
  ASSERT_EQ(Get(server, "/api/lookup?title=Mail").status, 404);  // only in the SWiPE sample
  std::atomic<bool> done{false};
  std::thread writer([&] {
    auto w =
        RunAligndb({"build", "--db", db, "enwiki=" + DataPath("swipe/swipe-sample.enwiki.jsonl"),
                    "simplewiki=" + DataPath("swipe/swipe-sample.simplewiki.jsonl")});
    EXPECT_EQ(w.exit_code, 0) << w.err;
    done = true;
  });
  int requests = 0;
  while (!done) {
    Got stats = Get(server, "/api/stats");
    EXPECT_EQ(stats.status, 200) << stats.body;
    EXPECT_TRUE(nlohmann::json::accept(stats.body)) << stats.body;  // whole JSON
    Got page = Get(server, "/pairs?min_sim=0");
    EXPECT_EQ(page.status, 200);
    EXPECT_NE(page.body.find("</html>"), std::string::npos);
    Got exported = Get(server, "/api/export?min_sim=0");
    EXPECT_EQ(exported.status, 200);
    requests += 3;
  }
  writer.join();
  EXPECT_GT(requests, 0);
  // The server reopens the changed database: the new article pair is found, as the CLI finds it.
  auto cli = RunAligndb({"lookup", "--db", db, "Mail", "--format", "json"});
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  Got got;
  for (int i = 0; i < 100 && got.status != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    got = Get(server, "/api/lookup?title=Mail");
  }
  EXPECT_EQ(got.status, 200);
  EXPECT_EQ(got.body, cli.out);
}

// ---------------------------------------------------------------- the command

// The `aligndb serve` process: its pid and the first line of its stdout (the URL).
struct Child {
  pid_t pid = -1;
  std::string url;
};
Child StartServe(const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(fds[0]);
    std::vector<char*> argv = {const_cast<char*>(ALIGNDB_BINARY), const_cast<char*>("serve")};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(ALIGNDB_BINARY, argv.data());
    _exit(127);
  }
  close(fds[1]);
  Child c{pid, ""};
  char ch;
  while (read(fds[0], &ch, 1) == 1 && ch != '\n') c.url += ch;
  close(fds[0]);
  return c;
}

int WaitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(ServeTest, CommandPrintsItsUrlAndStopsCleanlyOnSignals) {
  for (int sig : {SIGTERM, SIGINT}) {
    Child c = StartServe({"--db", db_, "--port", "0"});
    ASSERT_GT(c.pid, 0);
    std::smatch m;
    ASSERT_TRUE(std::regex_match(c.url, m, std::regex(R"(http://127\.0\.0\.1:(\d+)/)"))) << c.url;
    httplib::Client client("127.0.0.1", std::stoi(m[1]));
    auto res = client.Get("/api/lookup?title=Art");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    kill(c.pid, sig);
    EXPECT_EQ(WaitExit(c.pid), 0) << "signal " << sig;
  }
}

TEST_F(ServeTest, TakenPortIsOneClearError) {
  auto r = RunAligndb({"serve", "--db", db_, "--port", std::to_string(server_->port())});
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("127.0.0.1:" + std::to_string(server_->port()) + ": cannot listen"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  ServeOptions o;
  o.db = db_;
  o.port = server_->port();
  Server second(o);
  EXPECT_EQ(second.Start().code(), Status::Code::kIOError);
  r = RunAligndb({"serve", "--db", db_, "--port", "65536"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = RunAligndb({"serve", "--db", db_, "--port", "-1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = RunAligndb({"serve", "--db", tmp_->Sub("absent"), "--port", "0"});
  EXPECT_EQ(r.exit_code, 6) << r.err;
}

// ---------------------------------------------------------------- in a browser

// The DOM Chromium builds for `url`; empty when it failed.
std::string DumpDom(const std::string& url) {
  const std::string cmd =
      "timeout 90 chromium --headless --no-sandbox --disable-gpu "
      "--dump-dom '" +
      url + "' 2>/dev/null";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

TEST_F(ServeTest, ChromiumBuildsThePagesAndTheArticleHighlightsTheRecordsPairs) {
  if (std::system("command -v chromium > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "chromium is not installed (Debian package chromium)";
  const std::string base = server_->url();
  std::string home = DumpDom(base);
  EXPECT_NE(home.find("<datalist id=\"titles\">"), std::string::npos) << home.substr(0, 500);
  EXPECT_NE(home.find("<svg"), std::string::npos);
  std::string pairs = DumpDom(base + "pairs?op=1-2");
  EXPECT_NE(pairs.find("<td class=\"op\">1-2</td>"), std::string::npos) << pairs.substr(0, 500);
  std::string article = DumpDom(base + "article?title=Mail");
  const auto want = RecordPairs(Get(*server_, "/api/lookup?title=Mail").body);
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(HighlightedPairs(article), want);
}

}  // namespace
}  // namespace aligndb::serve
