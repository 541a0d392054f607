// Evaluation measures (docs/method.md, Corpus reports; Embedding measures): readability of text,
// and scores of simplification output against references (Coster & Kauchak 2011, Table 3).
#ifndef ALIGNDB_EVAL_EVAL_H_
#define ALIGNDB_EVAL_EVAL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "aligndb/status.h"

namespace aligndb {

// ---------------------------------------------------------------- readability

// English syllables of one word, by rule: vowel groups (a e i o u y) count one each; a final
// silent "e" (not "-le" after a consonant, not "-ee") is dropped; "-ed" after a letter other
// than t or d is silent; every word has at least one syllable. Digits and other characters are
// ignored; a word without letters has 0.
int CountSyllables(std::string_view word);

struct ReadabilityCounts {
  double sentences = 0;
  double words = 0;
  double syllables = 0;
  void Add(const ReadabilityCounts& o) {
    sentences += o.sentences;
    words += o.words;
    syllables += o.syllables;
  }
  // 206.835 − 1.015·words/sentences − 84.6·syllables/words; 0 when there are no words.
  double FleschReadingEase() const;
};

// Words (maximal runs of letters, digits and apostrophes that hold a letter) and syllables of
// one sentence, counted as one sentence.
ReadabilityCounts CountReadability(std::string_view sentence);

// ---------------------------------------------------------------- scores

// Sentences are compared as whitespace-separated tokens, exactly as given (tokenize and case
// them before, the same way for hypotheses and references).
struct SimplificationScores {
  double bleu = 0;          // corpus BLEU-4, uniform weights, brevity penalty, no smoothing
  double word_f1 = 0;       // word-level F1 (bags of words), micro-averaged over the corpus
  double ssa = 0;           // simple string accuracy: 1 − word edit distance / reference length
  size_t sentences = 0;     // lines scored
  size_t skipped_long = 0;  // lines left out: a hypothesis or reference over max_words words
};

// Lines longer than this many words are left out of every score by default: the word edit
// distance costs (hypothesis words × reference words) per line, and no sentence is this long.
constexpr size_t kDefaultMaxScoreWords = 2000;

// `references[r][i]` is reference r of sentence i; every reference set has one line per
// hypothesis. With several references: BLEU clips n-gram counts by the maximum over references
// and takes the reference length closest to the hypothesis (the shorter on a tie), as
// Papineni et al. and NLTK do; word F1 and SSA use, per sentence, the reference that scores best.
// A line whose hypothesis or any reference has more than `max_words` words is left out of every
// score and counted in skipped_long, so that one line costs at most max_words² steps (0: no
// limit).
Status ScoreSimplification(const std::vector<std::string>& hypotheses,
                           const std::vector<std::vector<std::string>>& references,
                           SimplificationScores* out, size_t max_words = kDefaultMaxScoreWords);

// Corpus BLEU on tokenized sentences (`references[i]` = the references of hypothesis i).
double CorpusBleu(const std::vector<std::vector<std::string>>& hypotheses,
                  const std::vector<std::vector<std::vector<std::string>>>& references,
                  int max_n = 4);

// Word-level Levenshtein distance.
size_t WordEditDistance(const std::vector<std::string>& a, const std::vector<std::string>& b);

std::vector<std::string> SplitWhitespace(std::string_view s);
// The fields of `s` between the `sep` characters, empty ones included ("a,,b" → a, "", b; "" → one
// empty field).
std::vector<std::string> SplitFields(std::string_view s, char sep);

// ---------------------------------------------------------------- similarity evaluation

struct LabelledScore {
  double score;
  bool positive;
};

struct PrPoint {
  double threshold;  // a pair is predicted positive when score ≥ threshold
  double precision;
  double recall;
};

struct ClassifierEvaluation {
  double max_f1 = 0;     // the best F1 over all thresholds
  double threshold = 0;  // the threshold that reaches it (the highest one on a tie)
  // Area under the precision–recall curve, as average precision: the sum over thresholds
  // (each distinct score, from high to low) of (recall gained) × (precision there).
  double auc = 0;
  std::vector<PrPoint> curve;  // one point per distinct score, from high to low
  size_t positives = 0, negatives = 0;
};

ClassifierEvaluation EvaluateScores(std::vector<LabelledScore> scores);

// Accuracy and F1 when the pairs scoring at or above `threshold` are called positive.
struct ThresholdFigures {
  double threshold = 0, accuracy = 0, f1 = 0;
};
ThresholdFigures AtThreshold(const std::vector<LabelledScore>& scores, double threshold);
// The threshold of the best accuracy (one of the scores; the highest on a tie), with its
// figures. O(n log n).
ThresholdFigures MaxAccuracy(std::vector<LabelledScore> scores);

// Fold of each of n items for k-fold cross-validation: a Fisher–Yates shuffle driven by
// std::mt19937_64(seed) (a generator whose output the C++ standard fixes, so the folds are the
// same on every platform), then the r-th shuffled item goes to fold r mod k. Fold sizes differ by
// at most one. k ≥ 1.
std::vector<int> FoldAssignment(size_t n, int k, uint64_t seed);

// The honest estimate of a threshold chosen on training data: each fold is scored at the
// threshold of MaxAccuracy over the other k − 1 folds, and accuracy and F1 are pooled over all
// scores (F1 from the summed true positives, false positives and false negatives).
struct CrossValidation {
  double accuracy = 0, f1 = 0;
  std::vector<double> thresholds;  // the threshold chosen for each fold
};
// k ≥ 2. Default seed: 17 (any fixed value; the figures move by a few thousandths between seeds).
CrossValidation CrossValidateThreshold(const std::vector<LabelledScore>& scores, int k,
                                       uint64_t seed = 17);

// A labelled sentence pair from an evaluation file.
struct SentencePairExample {
  std::string s1, s2;
  bool has_label = false;
  bool positive = false;
};

// Reads sentence pairs from
//  - the MSRP format: header "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"; label 1 =
//    paraphrase;
//  - the SICK format: header "pair_ID\tsentence_A\tsentence_B\trelatedness_score\t...", or no
//    header and five fields ending in NEUTRAL/ENTAILMENT/CONTRADICTION; positive when
//    relatedness ≥ `positive_at`;
//  - TSV "s1<TAB>s2[<TAB>label]": label 1/0, true/false, or a number compared with
//    `positive_at`.
// Lines end with "\n" or "\r\n" (util/line_reader.h). Errors name the file and line.
Status ReadSentencePairs(const std::string& path, double positive_at,
                         std::vector<SentencePairExample>* out);

}  // namespace aligndb

#endif  // ALIGNDB_EVAL_EVAL_H_
