// News paraphrase pairs from clusters of articles about one event (Dolan, Quirk & Brockett 2004;
// docs/method.md, News paraphrases): L12 (edit distance) and F2 (first two sentences).
#ifndef ALIGNDB_PARAPHRASE_PARAPHRASE_H_
#define ALIGNDB_PARAPHRASE_PARAPHRASE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "aligndb/status.h"
#include "storage/store.h"

namespace aligndb {

// One document of a cluster: its sentences in article order, with their stored positions.
struct ClusterDocument {
  std::string title;
  uint64_t page_id = 0;
  uint64_t revision = 0;
  std::vector<std::string> sentences;
  std::vector<std::pair<uint32_t, uint32_t>> positions;  // (paragraph, sentence) of each
};

struct ParaphrasePair {
  size_t doc_a, doc_b;    // indexes into the cluster's documents (doc_a ≤ doc_b)
  size_t sent_a, sent_b;  // sentence indexes within them
  double score;           // L12: word edit distance; F2: shared distinct words of ≥ 4 characters
};

// Why candidate pairs were dropped, and what was kept.
struct ParaphraseCounts {
  uint64_t candidates = 0;
  uint64_t identical = 0;         // identical, or differing only in punctuation (L12)
  uint64_t length_ratio = 0;      // the length rule (2/3 for L12, 1/2 for F2)
  uint64_t duplicate = 0;         // already seen, in either order
  uint64_t too_distant = 0;       // L12: edit distance above the maximum
  uint64_t few_shared_words = 0;  // F2: fewer than 3 shared words of ≥ 4 characters
  uint64_t kept = 0;
  uint64_t capped_clusters = 0;    // clusters with more sentences than the per-cluster cap
  uint64_t skipped_sentences = 0;  // sentences past the cap, never compared
  void Add(const ParaphraseCounts& o);
};

// Words of a sentence for both methods: the tokens of docs/method.md (lower-cased letters and
// digits), so that punctuation never counts as a word.
std::vector<std::string> ParaphraseWords(const std::string& sentence);

// Both methods compare at most `max_sentences` sentences of a cluster (the first ones in
// document order; for F2 the first two of each document count), so that one cluster costs at
// most max_sentences²/2 comparisons and memory in proportion to the pairs kept. Sentences past
// the cap are counted in counts->skipped_sentences (and the cluster in capped_clusters).
// 0 means no cap.

// L12: every pair of sentences of the cluster; drop identical (after lower-casing, ignoring
// punctuation), drop when the shorter has fewer than 2/3 of the longer's words, drop pairs seen
// before in either order, keep when the word-level Levenshtein distance ≤ max_distance.
std::vector<ParaphrasePair> L12Pairs(const std::vector<ClusterDocument>& docs, int max_distance,
                                     ParaphraseCounts* counts, size_t max_sentences = 0);

// F2: the first two sentences of each document against those of every other document; keep
// when they share ≥ 3 distinct words of ≥ 4 characters and the shorter has ≥ 1/2 of the longer's
// words; pairs seen before in either order are dropped.
std::vector<ParaphrasePair> F2Pairs(const std::vector<ClusterDocument>& docs,
                                    ParaphraseCounts* counts, size_t max_sentences = 0);

struct ParaphraseOptions {
  // The collection (edition) holding the clusters. Default: the only collection with clusters.
  std::string collection;
  // "l12" or "f2". Default: l12.
  std::string method = "l12";
  // L12: the largest word edit distance kept. Default: 12.
  int max_distance = 12;
  // The most sentences of one cluster compared (L12: all its sentences; F2: the first two of
  // each document); the rest are skipped and counted. Bounds the time and memory of one
  // cluster (at most ~500,000 candidate pairs, ~400 MB, at the default). 0: no cap. Default: 1000.
  size_t max_cluster_sentences = 1000;
};

struct ParaphraseSummary {
  uint64_t clusters = 0, documents = 0, records = 0;
  ParaphraseCounts counts;
  std::map<std::string, uint64_t> AsCounts() const;
};

// Extracts pairs from every cluster of the collection and stores them (replacing the method's
// earlier records), one AlignmentRecord per document pair, exported like aligned pairs.
Status ExtractParaphrases(Store* store, const ParaphraseOptions& options, uint64_t run_id,
                          ParaphraseSummary* summary);

}  // namespace aligndb

#endif  // ALIGNDB_PARAPHRASE_PARAPHRASE_H_
