// Word alignment of sentence pairs and its evaluation by alignment error rate
// (docs/method.md, Word alignment and AER).
#ifndef ALIGNDB_PARAPHRASE_WORDALIGN_H_
#define ALIGNDB_PARAPHRASE_WORDALIGN_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "aligndb/status.h"
#include "embed/embeddings.h"

namespace aligndb {

// Links (i, j): word i of the first sentence with word j of the second, 0-based.
using Links = std::set<std::pair<int, int>>;

// Many-to-one links from every word of `from` to one word of `to`, as the maximum-alignment
// measure pairs words (docs/method.md, Embedding measures): an identical word (case-insensitive) is
// taken first — the one nearest in relative position when there are several (identical words are
// anchored) — else the word with the highest φ, when φ > theta. Without vectors only identical
// words link. The links are returned as (index in from, index in to).
Links DirectionalLinks(const WordVectors* vectors, const std::vector<std::string>& from,
                       const std::vector<std::string>& to, double theta);

// Symmetrizes s2t (links of s1's words) and t2s (links of s2's words, given as (i, j) with i in
// s1): "intersection", "union" or "grow-diag-final" (Koehn et al. 2003).
Status Symmetrize(const Links& s2t, const Links& t2s, const std::string& method, Links* out);

// The same with any word similarity (vectors, a lexicon, or both): φ from `words->Matrix` of the
// lower-cased tokens; `words` may be null (identical words only).
Status AlignWords(const WordSimilarity* words, const std::vector<std::string>& s1,
                  const std::vector<std::string>& s2, double theta, const std::string& symmetrize,
                  Links* out);

// Both directions, symmetrized. Tokens are the whitespace-separated words of each sentence.
Status AlignWords(const WordVectors* vectors, const std::vector<std::string>& s1,
                  const std::vector<std::string>& s2, double theta, const std::string& symmetrize,
                  Links* out);

// A word aligner that sees more than identity, in the spirit of Sultan et al. (2014), "Back to
// basics for monolingual alignment", with WordNet in place of PPDB and windows in place of
// dependencies. Links made greedily in stages, each stage seeing the links before; one-to-one
// except where a stage says many-to-one:
//   1. identical sequences of two or more words holding a content word (longest first);
//   1b. (multiword) an acronym ("VOA", "U.S.": two or more capitals) with the free capitalized
//      words whose initials spell it ("Voice of America", "United States"; of/and/the/for/&
//      inside may spell their initial or nothing): many-to-one;
//   1c. (multiword) a hyphenated word with the run of its parts ("biggest-ever" / "biggest
//      ever"): many-to-one;
//   2. content words (and numbers, compared without thousands separators) with φ ≥
//      min_similarity — φ = 1 for identical words (case-insensitive) and for words equal without
//      hyphens ("health-care"/"healthcare"), else the word similarity `words` gives (WordNet:
//      shared base form or synset 1, related words 0.9, Wu–Palmer below) — ranked by
//      (1 − context_weight)·φ + context_weight·context, where context is the sum of φ over the
//      pairs of content words within `window` positions of both words;
//   2b. (names) a capitalized word standing alone, linked to the same word ending a name of two or
//      three capitalized words ("Hannum" / "Kate Hannum"), also links to the name's free words;
//   2c. (names) "X 's Y" against "(the) Y' of X'" with X–X' and Y–Y' linked: 's links to "of"
//      and to a free "the" before Y';
//   2d. (spelling_similarity) spelling variants, most similar first: ordinals with their numbers
//      ("11th" / "11"); two capitalized words (names) whose character similarity, 1 − edit
//      distance / longer length (case-insensitive, hyphens ignored), is at least
//      spelling_similarity ("Dongyi" / "Dung-yi", "Guinness" / "Gennis"), both when a link lies
//      beside them in order (i±1, j±1) or their relative positions differ by less than 0.2; and
//      other content words of five or more letters that similar, only beside a link in order
//      (typos such as "agricutural", derived forms such as "develop" / "development");
//   3. stop words and punctuation, identical or sharing a base form, only when a link made before
//      lies within `stop_window` positions of both (contextual support); the most supported first
//      (a link beside in order, i±1 and j±1, counting twice), then the nearest;
//   4. (unique_words) words still unlinked that occur equally often, unlinked, in both sentences,
//      k-th with k-th, when their relative positions differ by less than equal_max_distance or a
//      link lies within `window` positions of both;
//   4b. content words with φ ≥ supported_similarity and a link within `window` positions of both;
//   4c. (multiword) a word equal to one part of a hyphenated word, occurring once, near the
//      partner of the hyphenated word or of its neighbour ("ever" / "biggest-ever");
//   4d. the last words of both sentences when both are sentence-final punctuation (. ! ? ; :);
//   5. weaker pairs, φ ≥ neighbor_similarity, next to a link in order (i±1, j±1), best first,
//      repeatedly; with function_pairs, φ = 0.5 for related function words and punctuation
//      (will/would, is/'s, this/the, ;/., however/but, …), so they link here and only here;
//   6. (sandwich) an unlinked word whose left and right neighbours link to the neighbours of an
//      unlinked word of the other sentence, in order, repeatedly.
// φ = 1 also for spelling variants of function words (a/an, not/n't, percent/%, have/'ve, …).
// Capitalized words (names) count as content words wherever they stand.
struct LexicalAlignOptions {
  double min_similarity = 0.9;        // Default: 0.9 (tuned on the train sets, docs/evaluation.md)
  double context_weight = 0.1;        // Default: 0.1 (Sultan et al.'s weight of context)
  int window = 3;                     // Default: 3
  int stop_window = 2;                // Default: 2
  bool unique_words = true;           // Default: true
  double equal_max_distance = 0.25;   // Default: 0.25
  double neighbor_similarity = 0.3;   // Default: 0.3 (1 or more: no stage 5)
  bool sandwich = true;               // Default: true
  double supported_similarity = 0.8;  // Default: 0.8 (1 or more: no stage 4b)
  int min_support = 1;                // Default: 1 (links stage 4b needs within window)
  bool multiword = true;              // Default: true (acronyms, hyphenated words)
  bool function_pairs = true;         // Default: true
  bool names = true;                  // Default: true (surnames, possessives)
  double spelling_similarity = 0.5;   // Default: 0.5 (1 or more: no stage 2d)
};
// `words` may be null: identical words only (and numbers).
Links AlignWordsLexical(const WordSimilarity* words, const std::vector<std::string>& s1,
                        const std::vector<std::string>& s2, const LexicalAlignOptions& options);
// English stop words (articles, pronouns, auxiliaries, prepositions, conjunctions).
bool IsStopWord(const std::string& lower);

std::string FormatLinks(const Links& links);  // "0-0 1-2 ..." (Pharaoh), sorted
Status ParseLinks(const std::string& text, Links* sure, Links* possible_only);  // "i-j" and "i-jp"

// A gold alignment: the two tokenized sentences (when the format has them), SURE links, and
// POSSIBLE links (a superset of SURE).
struct GoldAlignment {
  std::vector<std::string> s1, s2;
  Links sure, possible;
};

// Reads Edinburgh++ JSON (an array of {"source", "target", "sureAlign", "possibleAlign"}),
// MultiMWA TSV (id, sent1, -, sent2, -, -, -, sure, possible) or Pharaoh lines with "p" marking
// possible links. Errors name the file and the entry or line.
Status ReadGoldAlignments(const std::string& path, std::vector<GoldAlignment>* out);

struct AerFigures {
  double precision = 0, recall = 0, aer = 0;
  size_t predicted = 0, sure = 0, possible = 0;
};
struct AerResult {
  AerFigures overall, identical,
      non_identical;       // split by whether the two linked words are identical
  bool has_split = false;  // the gold had the sentences
  size_t sentences = 0;
};

// precision = |A∩P|/|A|, recall = |A∩S|/|S|, AER = 1 − (|A∩S| + |A∩P|)/(|A| + |S|), summed over
// the corpus.
Status ComputeAer(const std::vector<GoldAlignment>& gold, const std::vector<Links>& predicted,
                  AerResult* out);

}  // namespace aligndb

#endif  // ALIGNDB_PARAPHRASE_WORDALIGN_H_
