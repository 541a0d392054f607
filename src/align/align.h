// Coster & Kauchak's alignment (docs/method.md: Pairing to Filter): title pairing with filters,
// paragraph alignment by TF-IDF cosine with Xapian candidates, and dynamic-programming sentence
// alignment.
#ifndef ALIGNDB_ALIGN_ALIGN_H_
#define ALIGNDB_ALIGN_ALIGN_H_

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "align/scorer.h"
#include "aligndb/status.h"
#include "index/index.h"
#include "storage/store.h"
#include "util/name_table.h"

namespace aligndb {

// Operations of the sentence aligner; values equal pb::Operation.
enum class Op : int {
  kSkipSimple = 1,
  kSkipNormal = 2,
  kOneOne = 3,
  kOneTwo = 4,    // one normal sentence, two simple sentences
  kTwoOne = 5,    // two normal sentences, one simple sentence
  kTwoTwo = 6,    // crossed: (i-1, j) and (i, j-1)
  kAllPairs = 7,  // "pair": kept by the all-pairs corpus mode
  kL12 = 8,       // "l12": news paraphrase by edit distance (docs/method.md, News paraphrases)
  kF2 = 9,        // "f2": news paraphrase from first sentences (docs/method.md, News paraphrases)
};
// "skip-simple", "skip-normal", "1-1", "1-2", "2-1", "2-2", "pair", "l12", "f2".
const char* OpName(Op op);
// Inverse of OpName; false for an unknown name.
bool ParseOpName(const std::string& name, Op* op);

struct AlignedPair {
  int normal;  // 0-based sentence index in the concatenated normal paragraphs
  int simple;  // 0-based sentence index in the simple paragraph
  double similarity;
  Op op;
  bool operator==(const AlignedPair& o) const {
    return normal == o.normal && simple == o.simple && op == o.op && similarity == o.similarity;
  }
};

struct SentenceAlignment {
  double score = 0;                // a(n, m)
  std::vector<AlignedPair> pairs;  // in document order
  int skipped_normal = 0;          // skip operations, including sentences left at the border
  int skipped_simple = 0;
};

// The dynamic program of docs/method.md (Sentence alignment) over sim (n normal × m simple
// sentences), with its tie order (the first maximal alternative wins). Time and memory O(n·m).
SentenceAlignment AlignSentences(const Eigen::MatrixXd& sim, double skip_penalty);

// Paragraph assignment (docs/method.md, Paragraph alignment): `cosines[s]` holds (normal paragraph,
// cosine) for the candidates of simple paragraph s. A normal paragraph goes to the simple paragraph
// with the highest cosine ≥ threshold (the earliest on a tie). Returns, per simple paragraph, its
// normal paragraphs in document order (empty: not aligned).
std::vector<std::vector<uint32_t>> AssignParagraphs(
    const std::vector<std::vector<std::pair<uint32_t, double>>>& cosines, double threshold);

// How the sentence pairs of an article pair are found: Coster & Kauchak's paragraph alignment
// and dynamic program, or every normal × simple sentence pair scored (Kajiwara & Komachi's
// corpus mode).
enum class AlignMode { kCosterKauchak, kAllPairs };

// The one name table of the modes: command-line parsing, help text, and the name stored in
// alignment parameters.
inline constexpr NameEntry<AlignMode> kAlignModeNames[] = {
    {AlignMode::kCosterKauchak, "coster-kauchak"},
    {AlignMode::kAllPairs, "all-pairs"},
};
inline const char* AlignModeName(AlignMode m) { return NameOf(kAlignModeNames, m); }

// Where the paragraph candidates of docs/method.md (Paragraph alignment) come from: an inverted
// index of the normal article built in memory from its tokens for each pair, or the Xapian
// paragraph index (the article's documents through its boolean term). Both give the same
// candidates, so the records are the same byte for byte.
enum class CandidateSource { kArticle, kXapian };

inline constexpr NameEntry<CandidateSource> kCandidateSourceNames[] = {
    {CandidateSource::kArticle, "article"},
    {CandidateSource::kXapian, "xapian"},
};
inline const char* CandidateSourceName(CandidateSource c) {
  return NameOf(kCandidateSourceNames, c);
}

// Sentence pairs below this similarity are left out of exports, statistics and reports unless
// the user asks otherwise (the threshold of Coster & Kauchak's aligned corpus).
inline constexpr double kDefaultMinSimilarity = 0.5;

// Real paragraph pairs have at most a few hundred sentences a side (tens of thousands of cells).
inline constexpr uint64_t kDefaultMaxDpCells = 10'000'000;

struct AlignOptions {
  // Edition names. Default: "enwiki" and "simplewiki".
  std::string normal = "enwiki";
  std::string simple = "simplewiki";
  // Minimum cosine for a paragraph candidate. Default: 0.5.
  double paragraph_threshold = 0.5;
  // Penalty of a skipped sentence in the dynamic program. Default: 0.0001.
  double skip_penalty = 0.0001;
  // kCosterKauchak (docs/method.md, Sentence alignment) or kAllPairs (the All-pairs corpus mode:
  // every normal × simple sentence of an article pair is scored; pairs at or above pair_threshold
  // are kept). Default: kCosterKauchak.
  AlignMode mode = AlignMode::kCosterKauchak;
  // The sentence similarity: kTfidf (the TF-IDF cosine, with the store's idf) or an embedding
  // measure, scored by `scorer`. Paragraph candidates always use the TF-IDF cosine. Default:
  // kTfidf.
  SimilarityMeasure similarity = SimilarityMeasure::kTfidf;
  const PairScorer* scorer = nullptr;  // required for embedding measures; not owned
  double theta = 0;                    // recorded in the parameters
  std::string vectors;                 // recorded in the parameters
  std::string lexicon;                 // recorded in the parameters ("wordnet" or empty)
  // all-pairs: keep sentence pairs with similarity ≥ this. Default: 0.53 (the paper's).
  double pair_threshold = 0.53;
  // Pair a simple title that is a redirect in the normal edition with the redirect's target
  // article (docs/method.md, Pairing). Default: false.
  bool follow_redirects = false;
  // Re-align every pair, also those whose pages and parameters are unchanged since their record
  // was computed (so that every record uses the current idf). Default: false.
  bool all = false;
  // A record is kept only when the idf's N (stored paragraphs of both editions) it was computed
  // with is within this relative distance of the current N; otherwise it is re-aligned.
  // Default: 0.01.
  double max_idf_drift = 0.01;
  // The most cells (normal × simple sentences) of one paragraph pair's dynamic program; a
  // larger paragraph pair is not sentence-aligned (left out of the record) and counted in
  // dp_skipped. About 17 bytes a cell: the default bounds one paragraph pair to ~170 MB. Not a
  // parameter of the records: after raising it, run with `all` to re-align kept pairs.
  // 0: no limit. Default: kDefaultMaxDpCells.
  uint64_t max_dp_cells = kDefaultMaxDpCells;
  // Paragraph candidates from the article's in-memory index or from the Xapian index (then
  // Align needs the index). Not a parameter of the records: both give the same records.
  // Default: kArticle (no index to maintain, and faster: docs/benchmarks.md).
  CandidateSource candidates = CandidateSource::kArticle;
  // Threads aligning article pairs (pairs are independent; records, summary and writes are the
  // same as with one thread). 0: one per core. Default: 0.
  int threads = 0;
  // Progress callback (pairs done, pairs total). Default: none.
  std::function<void(uint64_t, uint64_t)> progress;
};

struct AlignSummary {
  uint64_t title_matches = 0;
  uint64_t removed = 0;
  std::map<std::string, uint64_t> removed_by_reason;
  uint64_t aligned = 0;    // article pairs with a record after the run
  uint64_t realigned = 0;  // of those, computed by this run
  uint64_t kept = 0;       // of those, kept from an earlier run (pages and parameters unchanged)
  uint64_t stale_removed = 0;  // records of pairs that no longer exist, deleted
  uint64_t paragraph_pairs = 0;
  uint64_t sentence_pairs = 0;  // every pair of every backtrace (before the similarity filter)
  uint64_t indexed_pages = 0;   // pages (re)indexed in Xapian before aligning
  uint64_t index_rebuilt = 0;   // 1 when the Xapian index was (re)built from the store
  uint64_t scored_pairs = 0;    // all-pairs: sentence pairs scored exactly
  uint64_t bound_skipped = 0;   // all-pairs with wmd: pairs skipped by the relaxed-WMD bound
  uint64_t dp_skipped = 0;      // paragraph pairs over max_dp_cells, not sentence-aligned
  std::map<std::string, uint64_t> AsCounts() const;
};

// Aligns every title pair of the two editions and stores one AlignmentRecord per pair (with its
// keep record). `index`, when not null, is brought up to date first (ParagraphIndex::Apply on the
// normal edition); with options.candidates == kXapian it is required, and the aligning threads
// read paragraph candidates from readers of it (one each, up to 16). Default: null.
Status Align(Store* store, ParagraphIndex* index, const AlignOptions& options, uint64_t run_id,
             AlignSummary* summary);

}  // namespace aligndb

#endif  // ALIGNDB_ALIGN_ALIGN_H_
