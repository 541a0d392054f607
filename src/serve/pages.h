// The viewer's HTML pages, rendered from data (no I/O): the home page with search and corpus
// statistics, an article pair side by side, the pair browser, and error pages. Every string that
// comes from the database (titles, sentences, edition names) is escaped with HtmlEscape
// (util/escape.h) or, inside URLs, percent-encoded and then escaped. The pages work without
// script; a small inline script only adds title completion and partner highlighting on hover.
#ifndef ALIGNDB_SERVE_PAGES_H_
#define ALIGNDB_SERVE_PAGES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "align/align.h"
#include "align/label.h"
#include "export/export.h"

namespace aligndb::pb {
class AlignmentRecord;
}  // namespace aligndb::pb

namespace aligndb::serve {

// The revision URL of `revision` in the Wikipedia that edition `edition` is a dump of
// ("enwiki" → https://en.wikipedia.org/w/index.php?oldid=REV, "simplewiki" → simple., "zh_yuewiki"
// → zh-yue.); empty for names that are not a Wikipedia language edition ("docs", "commonswiki").
std::string RevisionUrl(std::string_view edition, uint64_t revision);

// `s` percent-encoded for a URL query value (everything but A-Z a-z 0-9 - . _ ~).
std::string UrlEncode(std::string_view s);

// Similarity band of a pair, as a CSS class: "hi" (≥ 0.75), "mid" (≥ 0.5) or "low".
const char* SimilarityBand(double similarity);

// The home page: search box, title suggestions for `prefix` (empty: none asked), the corpus
// statistics and the report's pictures. `stats_error` replaces the statistics when they could
// not be computed (for example, a database holding only paraphrase collections).
struct HomeView {
  std::string prefix;
  std::vector<std::string> suggestions;
  const CorpusStats* stats = nullptr;
  std::vector<std::pair<std::string, std::string>> pictures;  // file name, SVG
  std::string stats_error;
};
std::string HomePage(const HomeView& view);

// One side of an article pair: its paragraphs of sentences, in order. `from_record` says the
// stored page was missing or at another revision than the aligned one, so that only the record's
// sentences are shown (at their positions).
struct ArticleSide {
  std::vector<std::vector<std::string>> paragraphs;
  bool from_record = false;
};
// One side as the record alone shows it (from_record): each aligned sentence at its position,
// empty strings between. Positions come from the record, so the slots made are bounded in total
// (kMaxRecordSideSlots, about 32 MB): a damaged record cannot ask for 100,000 × 100,000.
inline constexpr size_t kMaxRecordSideSlots = 1'000'000;
ArticleSide SideFromRecord(const pb::AlignmentRecord& record, bool normal);

// The article pair side by side. Each sentence is an element with id "n-P-S" or "s-P-S"
// (paragraph P, sentence S); an aligned one carries class "aligned", data-pos="P.S" and
// data-pairs with the indices of its pairs in the record's order (paragraph pairs, then their
// sentence pairs), and links to its first partner.
std::string ArticlePage(const pb::AlignmentRecord& record, const ArticleSide& normal,
                        const ArticleSide& simple);

// The pair browser's query, as given (strings are the raw parameter values).
struct PairsQuery {
  std::string min_sim, max_sim, op, label, q;
  uint64_t page = 1;
};
// One row of the pair browser.
struct PairRow {
  std::string normal_title, simple_title, normal, simple;
  double similarity = 0;
  Op op = Op::kOneOne;
  Label label = Label::kNone;
};
// Rows of page `query.page` (kPairsPerPage a page); `has_next` links the next page.
inline constexpr uint64_t kPairsPerPage = 50;
std::string PairsPage(const PairsQuery& query, const std::vector<PairRow>& rows, bool has_next);

// An error page (404, 400, 503, ...) with one message and, for an unknown title, suggestions.
std::string ErrorPage(int status, std::string_view message,
                      const std::vector<std::string>& suggestions);

}  // namespace aligndb::serve

#endif  // ALIGNDB_SERVE_PAGES_H_
