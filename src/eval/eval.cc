#include "eval/eval.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <unordered_map>

#include "util/files.h"
#include "util/line_reader.h"

namespace aligndb {

// ---------------------------------------------------------------- readability

namespace {
bool IsVowel(char c) {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y';
}
}  // namespace

int CountSyllables(std::string_view word) {
  // Rules, in order: vowel groups; silent final e; silent -es/-ed; vowel pairs in hiatus.
  std::string w;
  for (char c : word)
    if (std::isalpha(static_cast<unsigned char>(c)))
      w.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (w.empty()) return 0;
  int groups = 0;
  bool in_vowels = false;
  for (size_t i = 0; i < w.size(); ++i) {
    bool v = IsVowel(w[i]);
    // "y" at the start of a word is a consonant ("yes").
    if (w[i] == 'y' && i == 0) v = false;
    if (v && !in_vowels) ++groups;
    in_vowels = v;
  }
  size_t n = w.size();
  // Silent final "e": "make", "time"; but "table" (consonant + "le"), "free", "the" (one group).
  if (n >= 3 && w[n - 1] == 'e' && !IsVowel(w[n - 2]) && groups > 1) {
    bool consonant_le = w[n - 2] == 'l' && !IsVowel(w[n - 3]);
    if (!consonant_le) --groups;
  }
  // Silent "-es"/"-ed" after most consonants: "makes", "jumped"; but "wanted", "needed", "horses".
  if (n >= 4 && (w.substr(n - 2) == "ed" || w.substr(n - 2) == "es") && !IsVowel(w[n - 3]) &&
      groups > 1) {
    char c = w[n - 3];
    bool sounded = w.substr(n - 2) == "ed"
                       ? (c == 't' || c == 'd')
                       : (c == 's' || c == 'x' || c == 'z' || c == 'h' || c == 'c' || c == 'g');
    if (!sounded) --groups;
  }
  // Vowel pairs that are two syllables (hiatus) although they form one vowel group:
  // "li-on", "pi-a-no", "vi-de-o", "u-su-al", "i-de-a", "cre-ate", "po-em", "qui-et", "go-ing".
  auto at = [&](size_t i) { return i < n ? w[i] : '\0'; };
  for (size_t i = 0; i + 1 < n; ++i) {
    char a = w[i], b = w[i + 1], prev = i ? w[i - 1] : '\0';
    std::string_view pb = std::string_view("ctsg");
    if (a == 'i' && b == 'a' && pb.find(prev) == std::string_view::npos)
      ++groups;
    else if (a == 'i' && b == 'o' && std::string_view("tscgx").find(prev) == std::string_view::npos)
      ++groups;
    else if (a == 'e' && b == 'o' && at(i + 2) != 'p')
      ++groups;
    else if (a == 'u' && b == 'a' && prev != 'g' && prev != 'q')
      ++groups;
    else if (a == 'e' && b == 'a' &&
             (i + 2 == n || (i + 4 == n && at(i + 2) == 't' && at(i + 3) == 'e')))
      ++groups;
    else if (a == 'o' && b == 'e' && (at(i + 2) == 'm' || at(i + 2) == 't'))
      ++groups;
    else if (a == 'i' && b == 'e' && at(i + 2) == 't')
      ++groups;
  }
  // "-ing" after a vowel: "go-ing", "be-ing", "say-ing".
  if (n >= 5 && w.substr(n - 3) == "ing" && IsVowel(w[n - 4])) ++groups;
  return std::max(groups, 1);
}

double ReadabilityCounts::FleschReadingEase() const {
  if (words <= 0 || sentences <= 0) return 0;
  return 206.835 - 1.015 * (words / sentences) - 84.6 * (syllables / words);
}

ReadabilityCounts CountReadability(std::string_view sentence) {
  ReadabilityCounts c;
  c.sentences = 1;
  size_t i = 0;
  while (i < sentence.size()) {
    while (i < sentence.size() && !(std::isalnum(static_cast<unsigned char>(sentence[i])) ||
                                    static_cast<unsigned char>(sentence[i]) >= 0x80))
      ++i;
    size_t b = i;
    while (i < sentence.size() &&
           (std::isalnum(static_cast<unsigned char>(sentence[i])) || sentence[i] == '\'' ||
            static_cast<unsigned char>(sentence[i]) >= 0x80))
      ++i;
    if (i > b) {
      std::string_view w = sentence.substr(b, i - b);
      bool letter = std::any_of(w.begin(), w.end(), [](char ch) {
        return std::isalpha(static_cast<unsigned char>(ch)) ||
               static_cast<unsigned char>(ch) >= 0x80;
      });
      if (letter) {
        c.words += 1;
        c.syllables += std::max(1, CountSyllables(w));
      }
    }
  }
  return c;
}

// ---------------------------------------------------------------- scores

std::vector<std::string> SplitFields(std::string_view s, char sep) {
  std::vector<std::string> out;
  for (size_t b = 0;;) {
    const size_t e = s.find(sep, b);
    out.emplace_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) return out;
    b = e + 1;
  }
}

std::vector<std::string> SplitWhitespace(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > b) out.emplace_back(s.substr(b, i - b));
  }
  return out;
}

size_t WordEditDistance(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

namespace {

using NgramCounts = std::map<std::vector<std::string>, int>;

NgramCounts Ngrams(const std::vector<std::string>& toks, int n) {
  NgramCounts c;
  for (size_t i = 0; i + n <= toks.size(); ++i)
    c[std::vector<std::string>(toks.begin() + i, toks.begin() + i + n)]++;
  return c;
}

// Multiset overlap of two token bags.
size_t Overlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::unordered_map<std::string, int> c;
  for (const auto& t : b) c[t]++;
  size_t n = 0;
  for (const auto& t : a) {
    auto it = c.find(t);
    if (it != c.end() && it->second > 0) {
      --it->second;
      ++n;
    }
  }
  return n;
}

}  // namespace

double CorpusBleu(const std::vector<std::vector<std::string>>& hyps,
                  const std::vector<std::vector<std::vector<std::string>>>& refs, int max_n) {
  std::vector<double> matched(max_n + 1, 0), total(max_n + 1, 0);
  double hyp_len = 0, ref_len = 0;
  for (size_t i = 0; i < hyps.size(); ++i) {
    const auto& h = hyps[i];
    hyp_len += static_cast<double>(h.size());
    // Closest reference length; the shorter on a tie.
    size_t best = 0;
    long best_diff = -1;
    for (const auto& r : refs[i]) {
      long diff = std::labs(static_cast<long>(r.size()) - static_cast<long>(h.size()));
      if (best_diff < 0 || diff < best_diff || (diff == best_diff && r.size() < best)) {
        best_diff = diff;
        best = r.size();
      }
    }
    ref_len += static_cast<double>(best);
    for (int n = 1; n <= max_n; ++n) {
      NgramCounts hc = Ngrams(h, n);
      NgramCounts max_ref;
      for (const auto& r : refs[i])
        for (auto& [g, c] : Ngrams(r, n)) max_ref[g] = std::max(max_ref[g], c);
      for (auto& [g, c] : hc) {
        auto it = max_ref.find(g);
        matched[n] += std::min(c, it == max_ref.end() ? 0 : it->second);
      }
      total[n] += static_cast<double>(std::max<long>(0, static_cast<long>(h.size()) - n + 1));
    }
  }
  double log_sum = 0;
  for (int n = 1; n <= max_n; ++n) {
    if (matched[n] == 0 || total[n] == 0) return 0.0;  // no smoothing: a zero precision gives 0
    log_sum += std::log(matched[n] / total[n]) / max_n;
  }
  double bp = hyp_len >= ref_len ? 1.0 : (hyp_len == 0 ? 0.0 : std::exp(1.0 - ref_len / hyp_len));
  return bp * std::exp(log_sum);
}

Status ScoreSimplification(const std::vector<std::string>& hypotheses,
                           const std::vector<std::vector<std::string>>& references,
                           SimplificationScores* out, size_t max_words) {
  if (references.empty()) return Status::InvalidArgument("score needs at least one reference file");
  for (size_t r = 0; r < references.size(); ++r)
    if (references[r].size() != hypotheses.size())
      return Status::InvalidArgument("reference " + std::to_string(r + 1) + " has " +
                                     std::to_string(references[r].size()) +
                                     " lines, the hypotheses " + std::to_string(hypotheses.size()));
  out->skipped_long = 0;
  std::vector<std::vector<std::string>> hyps;
  std::vector<std::vector<std::vector<std::string>>> refs;
  double overlap = 0, hyp_words = 0, ref_words = 0, edits = 0, ref_len = 0;
  for (size_t i = 0; i < hypotheses.size(); ++i) {
    auto h_words = SplitWhitespace(hypotheses[i]);
    std::vector<std::vector<std::string>> r_words;
    bool too_long = max_words > 0 && h_words.size() > max_words;
    for (const auto& ref_set : references) {
      r_words.push_back(SplitWhitespace(ref_set[i]));
      too_long = too_long || (max_words > 0 && r_words.back().size() > max_words);
    }
    if (too_long) {
      ++out->skipped_long;
      continue;
    }
    hyps.push_back(std::move(h_words));
    refs.push_back(std::move(r_words));
    const auto& h = hyps.back();
    double best_f1 = -1, best_ssa = -1;
    double f1_overlap = 0, f1_ref = 0, ssa_edits = 0, ssa_len = 0;
    for (const auto& r : refs.back()) {
      double o = static_cast<double>(Overlap(h, r));
      double f1 = (h.size() + r.size()) ? 2 * o / static_cast<double>(h.size() + r.size()) : 1.0;
      if (f1 > best_f1) best_f1 = f1, f1_overlap = o, f1_ref = static_cast<double>(r.size());
      double e = static_cast<double>(WordEditDistance(h, r));
      double ssa = r.empty() ? (h.empty() ? 1.0 : 0.0) : 1.0 - e / static_cast<double>(r.size());
      if (ssa > best_ssa) best_ssa = ssa, ssa_edits = e, ssa_len = static_cast<double>(r.size());
    }
    overlap += f1_overlap;
    hyp_words += static_cast<double>(h.size());
    ref_words += f1_ref;
    edits += ssa_edits;
    ref_len += ssa_len;
  }
  out->sentences = hyps.size();
  out->bleu = CorpusBleu(hyps, refs);
  out->word_f1 = (hyp_words + ref_words) > 0 ? 2 * overlap / (hyp_words + ref_words) : 0.0;
  out->ssa = ref_len > 0 ? std::max(0.0, 1.0 - edits / ref_len) : 0.0;
  return Status::OK();
}

// ---------------------------------------------------------------- similarity evaluation

ClassifierEvaluation EvaluateScores(std::vector<LabelledScore> scores) {
  ClassifierEvaluation e;
  for (const auto& s : scores) (s.positive ? e.positives : e.negatives)++;
  std::sort(scores.begin(), scores.end(),
            [](const LabelledScore& a, const LabelledScore& b) { return a.score > b.score; });
  size_t tp = 0, fp = 0;
  double prev_recall = 0;
  for (size_t i = 0; i < scores.size();) {
    size_t j = i;
    while (j < scores.size() && scores[j].score == scores[i].score) {
      (scores[j].positive ? tp : fp)++;
      ++j;
    }
    double precision = static_cast<double>(tp) / static_cast<double>(tp + fp);
    double recall = e.positives ? static_cast<double>(tp) / static_cast<double>(e.positives) : 0.0;
    e.curve.push_back({scores[i].score, precision, recall});
    double f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
    if (f1 > e.max_f1) {
      e.max_f1 = f1;
      e.threshold = scores[i].score;
    }
    e.auc += (recall - prev_recall) * precision;
    prev_recall = recall;
    i = j;
  }
  return e;
}

Status ReadSentencePairs(const std::string& path, double positive_at,
                         std::vector<SentencePairExample>* out) {
  std::ifstream in;
  RETURN_IF_ERROR(OpenInputFile(path, &in));
  enum { kUnknown, kMsrp, kSick, kTsv } format = kUnknown;
  std::string line;
  LineReader lines(in);
  auto err = [&](const std::string& what) {
    return Status::Corruption(path + ": line " + std::to_string(lines.line_number()) + ": " + what);
  };
  while (lines.Next(&line)) {
    if (line.empty()) continue;
    auto f = SplitFields(line, '\t');
    if (format == kUnknown) {
      if (f[0] == "Quality" && f.size() >= 5) {
        format = kMsrp;
        continue;
      }
      if (f[0] == "pair_ID" && f.size() >= 4) {
        format = kSick;
        continue;
      }
      // SICK without its header line: id, sentence A, sentence B, relatedness, judgment.
      bool judgment =
          f.size() == 5 && (f[4] == "NEUTRAL" || f[4] == "ENTAILMENT" || f[4] == "CONTRADICTION");
      format = judgment ? kSick : kTsv;
    }
    SentencePairExample ex;
    if (format == kMsrp) {
      if (f.size() < 5)
        return err("expected 5 tab-separated fields (Quality, #1 ID, #2 ID, #1 String, #2 String)");
      if (f[0] != "0" && f[0] != "1") return err("Quality must be 0 or 1");
      ex.s1 = f[3];
      ex.s2 = f[4];
      ex.has_label = true;
      ex.positive = f[0] == "1";
    } else if (format == kSick) {
      if (f.size() < 4) return err("expected pair_ID, sentence_A, sentence_B, relatedness_score");
      char* end = nullptr;
      double r = std::strtod(f[3].c_str(), &end);
      if (end == f[3].c_str()) return err("relatedness_score is not a number");
      ex.s1 = f[1];
      ex.s2 = f[2];
      ex.has_label = true;
      ex.positive = r >= positive_at;
    } else {
      if (f.size() < 2) return err("expected s1<TAB>s2[<TAB>label]");
      ex.s1 = f[0];
      ex.s2 = f[1];
      if (f.size() >= 3 && !f[2].empty()) {
        ex.has_label = true;
        if (f[2] == "true" || f[2] == "1")
          ex.positive = true;
        else if (f[2] == "false" || f[2] == "0")
          ex.positive = false;
        else {
          char* end = nullptr;
          double r = std::strtod(f[2].c_str(), &end);
          if (end == f[2].c_str()) return err("label must be 1/0, true/false or a number");
          ex.positive = r >= positive_at;
        }
      }
    }
    out->push_back(std::move(ex));
  }
  if (in.bad()) return Status::IOError(path + ": read failed");
  return Status::OK();
}

ThresholdFigures AtThreshold(const std::vector<LabelledScore>& scores, double threshold) {
  size_t tp = 0, fp = 0, fn = 0, tn = 0;
  for (const auto& l : scores) {
    const bool yes = l.score >= threshold;
    (yes ? (l.positive ? tp : fp) : (l.positive ? fn : tn))++;
  }
  ThresholdFigures f;
  f.threshold = threshold;
  f.accuracy = scores.empty() ? 0.0 : static_cast<double>(tp + tn) / scores.size();
  f.f1 = tp ? 2.0 * tp / (2.0 * tp + fp + fn) : 0.0;
  return f;
}

ThresholdFigures MaxAccuracy(std::vector<LabelledScore> scores) {
  std::sort(scores.begin(), scores.end(),
            [](const LabelledScore& x, const LabelledScore& y) { return x.score > y.score; });
  size_t negatives = 0;
  for (const auto& l : scores) negatives += !l.positive;
  // A threshold above every score calls everything negative.
  size_t tp = 0, fp = 0, best_correct = negatives;
  double best = scores.empty() ? 0.0 : scores.front().score + 1;
  for (size_t i = 0; i < scores.size(); ++i) {
    (scores[i].positive ? tp : fp)++;
    if (i + 1 < scores.size() && scores[i + 1].score == scores[i].score) continue;
    const size_t correct = tp + (negatives - fp);
    if (correct > best_correct) best_correct = correct, best = scores[i].score;
  }
  return AtThreshold(scores, best);
}

std::vector<int> FoldAssignment(size_t n, int k, uint64_t seed) {
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  // Not std::shuffle: its use of the generator differs between standard libraries.
  for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  std::vector<int> fold(n);
  for (size_t r = 0; r < n; ++r) fold[order[r]] = static_cast<int>(r % static_cast<size_t>(k));
  return fold;
}

CrossValidation CrossValidateThreshold(const std::vector<LabelledScore>& scores, int k,
                                       uint64_t seed) {
  const std::vector<int> fold = FoldAssignment(scores.size(), k, seed);
  CrossValidation cv;
  size_t tp = 0, fp = 0, fn = 0, correct = 0;
  for (int f = 0; f < k; ++f) {
    std::vector<LabelledScore> train;
    for (size_t i = 0; i < scores.size(); ++i)
      if (fold[i] != f) train.push_back(scores[i]);
    const double t = MaxAccuracy(std::move(train)).threshold;
    cv.thresholds.push_back(t);
    for (size_t i = 0; i < scores.size(); ++i) {
      if (fold[i] != f) continue;
      const bool yes = scores[i].score >= t;
      tp += yes && scores[i].positive;
      fp += yes && !scores[i].positive;
      fn += !yes && scores[i].positive;
      correct += yes == scores[i].positive;
    }
  }
  if (!scores.empty()) cv.accuracy = static_cast<double>(correct) / scores.size();
  cv.f1 = tp ? 2.0 * tp / (2.0 * tp + fp + fn) : 0.0;
  return cv;
}

}  // namespace aligndb
