// WordNet 3.0 read from its own data files (Debian's wordnet-base, /usr/share/wordnet): morphy
// lemmatization, synonymy and a graded word similarity for the sentence measures and the word
// aligner (docs/evaluation.md, Lexical semantics).
#ifndef ALIGNDB_LEXICON_WORDNET_H_
#define ALIGNDB_LEXICON_WORDNET_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aligndb/status.h"

namespace aligndb {

enum class WnPos { kNoun = 0, kVerb = 1, kAdj = 2, kAdv = 3 };  // satellites ("s") count as kAdj
constexpr int kWnPosCount = 4;

// One synset as its data line gives it.
struct WnSynset {
  uint32_t offset = 0;
  WnPos pos = WnPos::kNoun;
  std::vector<std::string> words;  // lower-cased, '_' between the words of a collocation
  struct Pointer {
    std::string symbol;  // "@" hypernym, "@i" instance hypernym, "+" derivation, "\\" pertainym…
    uint32_t offset = 0;
    WnPos pos = WnPos::kNoun;
  };
  std::vector<Pointer> pointers;
};

// A read-only WordNet database. Open() memory-maps the index, data and exception files and parses
// nothing: lookups binary-search the sorted index and exception files and read a synset's line at
// its byte offset in the data file, as WordNet's own library does. Opening costs a few system
// calls and the memory is the mapped pages actually touched, plus bounded caches of
// hypernym closures and word similarities. All methods are safe to call from several threads.
class WordNet {
 public:
  // `dir` empty: $WNSEARCHDIR, else /usr/share/wordnet. A missing or empty file is an IOError
  // naming it ("DIR/index.noun: cannot open (install wordnet-base or set WNSEARCHDIR)").
  static Status Open(const std::string& dir, std::unique_ptr<WordNet>* out);
  static std::string DefaultDir();
  ~WordNet();

  // The base forms of `word` as a `pos` that WordNet lists, as WordNet's morphy finds them: the
  // exception list first (e.g. geese → goose), else the word itself and the inflection rules
  // (-s, -ses, -ies, -ing, -est, …) applied once, else repeatedly. Input is lower-cased and
  // spaces become '_'. Empty when WordNet knows no base form.
  std::vector<std::string> Morphy(std::string_view word, WnPos pos) const;

  // Synset offsets of the exact lemma in `pos`, most frequent sense first (the index order).
  std::vector<uint32_t> LemmaSynsets(std::string_view lemma, WnPos pos) const;
  // Synsets of every base form Morphy() gives, in order, without repeats.
  std::vector<uint32_t> WordSynsets(std::string_view word, WnPos pos) const;
  // Reads the synset at `offset` of the data file of `pos`; false when there is none.
  bool ReadSynset(WnPos pos, uint32_t offset, WnSynset* out) const;

  // True when the two words share a synset in some part of speech (after morphy).
  bool Synonyms(std::string_view a, std::string_view b) const;
  // True when a base form of one is a base form of the other in some part of speech.
  bool SameLemma(std::string_view a, std::string_view b) const;

  // Wu–Palmer similarity of two synsets of the same part of speech (noun or verb), as NLTK
  // computes it: 2·d(lcs) / (dist(s1, lcs) + dist(s2, lcs) + 2·d(lcs)), with lcs the common
  // hypernym (or instance hypernym) of greatest minimum depth, d(lcs) its maximum depth + 1,
  // dist the shortest hypernym path; verbs, which have several roots, get a virtual root above
  // them all. 0 when the synsets have no common hypernym (nouns of different roots cannot occur
  // in WordNet 3.0). Ties between equally deep subsumers take the lowest offset (NLTK sorts by
  // name; the two differ only on such ties).
  double Wup(WnPos pos, uint32_t a, uint32_t b) const;

  // Graded word similarity φ ∈ [0, 1]: 1 for identical words (case-insensitive), for a shared
  // base form and for synonyms; else the maximum of `related` for words linked by a
  // derivational, pertainym, similar-to or also-see pointer between any of their synsets
  // (adjectives, adverbs and across parts of speech), and of Wu–Palmer over the noun and over the
  // verb senses (the first `max_senses` of each word; 0 = all).
  struct SimilarityOptions {
    double related = 0.9;  // Default: 0.9
    int max_senses = 0;    // Default: 0 (every sense)
  };
  double Similarity(std::string_view a, std::string_view b) const;
  void set_similarity_options(const SimilarityOptions& o);  // clears the word caches
  const SimilarityOptions& similarity_options() const { return sim_options_; }

 private:
  WordNet() = default;
  struct Mapped {
    const char* data = nullptr;
    size_t size = 0;
  };
  // Hypernym closure of one synset: every ancestor (itself included) with its shortest distance.
  struct Closure {
    std::vector<std::pair<uint32_t, int>> ancestors;  // sorted by offset
    int min_depth = 0;                                // shortest distance to a root
    int max_dist = 0;                                 // largest of the distances
  };
  // What the similarity needs of one word, read once.
  struct WordInfo {
    std::vector<uint32_t> synsets[kWnPosCount];  // the first max_senses of each part of speech
    std::vector<std::string> lemmas[kWnPosCount];
    std::vector<uint64_t> related;  // sorted keys of synsets linked by a related pointer
  };
  Status Map(const std::string& path, Mapped* out);
  std::string_view FindLine(const Mapped& file, std::string_view key) const;
  // The *Locked helpers expect mu_ held.
  std::shared_ptr<const Closure> ClosureLocked(WnPos pos, uint32_t offset) const;
  int MaxDepthLocked(WnPos pos, uint32_t offset, int guard) const;
  double WupLocked(WnPos pos, uint32_t a, uint32_t b) const;
  std::shared_ptr<const WordInfo> InfoLocked(const std::string& word) const;
  std::vector<uint32_t> Hypernyms(WnPos pos, uint32_t offset) const;
  double SimilarityLocked(const std::string& a, const std::string& b) const;

  std::string dir_;
  Mapped index_[kWnPosCount], data_[kWnPosCount], exc_[kWnPosCount];
  std::vector<void*> maps_;
  std::vector<size_t> map_sizes_;
  SimilarityOptions sim_options_;
  // Caches, each cleared when it passes its bound so that memory stays bounded on any input.
  mutable std::mutex mu_;
  mutable std::unordered_map<uint64_t, std::shared_ptr<const Closure>> closures_;
  mutable std::unordered_map<uint64_t, int> max_depth_;
  mutable std::unordered_map<std::string, std::shared_ptr<const WordInfo>> words_;
  mutable std::unordered_map<std::string, double> similarity_cache_;
};

}  // namespace aligndb

#endif  // ALIGNDB_LEXICON_WORDNET_H_
