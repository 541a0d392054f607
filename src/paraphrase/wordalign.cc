#include "paraphrase/wordalign.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "eval/eval.h"
#include "util/files.h"
#include "util/line_reader.h"
#include "util/numbers.h"

namespace aligndb {
namespace {

std::string Lower(const std::string& s) {
  std::string o = s;
  for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

}  // namespace

Links DirectionalLinks(const WordVectors* vectors, const std::vector<std::string>& from,
                       const std::vector<std::string>& to, double theta) {
  Links links;
  if (from.empty() || to.empty()) return links;
  std::vector<std::string> lf, lt;
  for (const auto& w : from) lf.push_back(Lower(w));
  for (const auto& w : to) lt.push_back(Lower(w));
  std::vector<int64_t> rt;
  if (vectors)
    for (const auto& w : lt) rt.push_back(vectors->Find(w));
  for (size_t i = 0; i < from.size(); ++i) {
    double rel_i = from.size() > 1 ? static_cast<double>(i) / (from.size() - 1) : 0.0;
    int best = -1;
    double best_dist = 2;
    for (size_t j = 0; j < to.size(); ++j) {
      if (lf[i] != lt[j]) continue;
      double rel_j = to.size() > 1 ? static_cast<double>(j) / (to.size() - 1) : 0.0;
      if (std::fabs(rel_i - rel_j) < best_dist)
        best_dist = std::fabs(rel_i - rel_j), best = static_cast<int>(j);
    }
    if (best < 0 && vectors) {
      int64_t ri = vectors->Find(lf[i]);
      double best_phi = theta;
      if (ri >= 0) {
        for (size_t j = 0; j < to.size(); ++j) {
          if (rt[j] < 0) continue;
          const float* a = vectors->Row(ri);
          const float* b = vectors->Row(rt[j]);
          double dot = 0;
          for (int d = 0; d < vectors->dim(); ++d) dot += static_cast<double>(a[d]) * b[d];
          double phi = dot * vectors->InverseNorm(ri) * vectors->InverseNorm(rt[j]);
          if (phi > best_phi) best_phi = phi, best = static_cast<int>(j);
        }
      }
    }
    if (best >= 0) links.insert({static_cast<int>(i), best});
  }
  return links;
}

Status Symmetrize(const Links& s2t, const Links& t2s, const std::string& method, Links* out) {
  Links uni = s2t;
  uni.insert(t2s.begin(), t2s.end());
  Links inter;
  std::set_intersection(s2t.begin(), s2t.end(), t2s.begin(), t2s.end(),
                        std::inserter(inter, inter.begin()));
  if (method == "intersection") {
    *out = inter;
    return Status::OK();
  }
  if (method == "union") {
    *out = uni;
    return Status::OK();
  }
  if (method != "grow-diag-final")
    return Status::InvalidArgument("--symmetrize must be intersection, union or grow-diag-final");
  Links a = inter;
  std::set<int> src_aligned, tgt_aligned;
  for (auto& [i, j] : a) src_aligned.insert(i), tgt_aligned.insert(j);
  static const int kNeighbors[8][2] = {{-1, 0},  {0, -1}, {1, 0},  {0, 1},
                                       {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
  for (bool added = true; added;) {  // grow-diag
    added = false;
    for (auto [i, j] : Links(a)) {
      for (auto& n : kNeighbors) {
        std::pair<int, int> p{i + n[0], j + n[1]};
        if (a.count(p) || !uni.count(p)) continue;
        if (!src_aligned.count(p.first) || !tgt_aligned.count(p.second)) {
          a.insert(p);
          src_aligned.insert(p.first);
          tgt_aligned.insert(p.second);
          added = true;
        }
      }
    }
  }
  for (const Links* dir : {&s2t, &t2s})  // final
    for (auto& p : *dir)
      if (!a.count(p) && (!src_aligned.count(p.first) || !tgt_aligned.count(p.second))) {
        a.insert(p);
        src_aligned.insert(p.first);
        tgt_aligned.insert(p.second);
      }
  *out = a;
  return Status::OK();
}

Status AlignWords(const WordVectors* vectors, const std::vector<std::string>& s1,
                  const std::vector<std::string>& s2, double theta, const std::string& symmetrize,
                  Links* out) {
  Links s2t = DirectionalLinks(vectors, s1, s2, theta);
  Links t2s;
  for (auto [j, i] : DirectionalLinks(vectors, s2, s1, theta)) t2s.insert({i, j});
  return Symmetrize(s2t, t2s, symmetrize, out);
}

namespace {

// DirectionalLinks over a φ matrix (rows: from, columns: to).
Links DirectionalLinksPhi(const std::vector<std::string>& lf, const std::vector<std::string>& lt,
                          const Eigen::MatrixXd& phi, bool transpose, double theta) {
  Links links;
  for (size_t i = 0; i < lf.size(); ++i) {
    double rel_i = lf.size() > 1 ? static_cast<double>(i) / (lf.size() - 1) : 0.0;
    int best = -1;
    double best_dist = 2;
    for (size_t j = 0; j < lt.size(); ++j) {
      if (lf[i] != lt[j]) continue;
      double rel_j = lt.size() > 1 ? static_cast<double>(j) / (lt.size() - 1) : 0.0;
      if (std::fabs(rel_i - rel_j) < best_dist)
        best_dist = std::fabs(rel_i - rel_j), best = static_cast<int>(j);
    }
    if (best < 0) {
      double best_phi = theta;
      for (size_t j = 0; j < lt.size(); ++j) {
        double p = transpose ? phi(j, i) : phi(i, j);
        if (p > best_phi) best_phi = p, best = static_cast<int>(j);
      }
    }
    if (best >= 0) links.insert({static_cast<int>(i), best});
  }
  return links;
}

}  // namespace

Status AlignWords(const WordSimilarity* words, const std::vector<std::string>& s1,
                  const std::vector<std::string>& s2, double theta, const std::string& symmetrize,
                  Links* out) {
  std::vector<std::string> l1, l2;
  for (const auto& w : s1) l1.push_back(Lower(w));
  for (const auto& w : s2) l2.push_back(Lower(w));
  Eigen::MatrixXd phi = words && !l1.empty() && !l2.empty()
                            ? words->Matrix(l1, l2)
                            : Eigen::MatrixXd::Zero(l1.size(), l2.size());
  Links s2t = DirectionalLinksPhi(l1, l2, phi, false, theta);
  Links t2s;
  for (auto [j, i] : DirectionalLinksPhi(l2, l1, phi, true, theta)) t2s.insert({i, j});
  return Symmetrize(s2t, t2s, symmetrize, out);
}

std::string FormatLinks(const Links& links) {
  std::string s;
  for (auto [i, j] : links) {
    if (!s.empty()) s += ' ';
    s += std::to_string(i) + "-" + std::to_string(j);
  }
  return s;
}

Status ParseLinks(const std::string& text, Links* sure, Links* possible_only) {
  for (const auto& tok : SplitWhitespace(text)) {
    std::string t = tok;
    bool p = !t.empty() && (t.back() == 'p' || t.back() == 'P');
    if (p) t.pop_back();
    size_t dash = t.find('-');
    // Word positions: decimal, not negative, within int (a sentence has fewer words).
    int32_t i = -1, j = -1;
    if (dash == std::string::npos || !ParseDecimalI32(std::string_view(t).substr(0, dash), &i) ||
        !ParseDecimalI32(std::string_view(t).substr(dash + 1), &j) || i < 0 || j < 0)
      return Status::Corruption("bad link \"" + tok + "\" (expected i-j, word positions)");
    (p && possible_only ? possible_only : sure)->insert({i, j});
  }
  return Status::OK();
}

Status ReadGoldAlignments(const std::string& path, std::vector<GoldAlignment>* out) {
  std::ifstream in;
  RETURN_IF_ERROR(OpenInputFile(path, &in));
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::IOError(path + ": read failed");
  std::string all = ss.str();
  size_t first = all.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && all[first] == '[') {  // Edinburgh++ JSON
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(all);
    } catch (const nlohmann::json::parse_error& e) {
      return Status::Corruption(path + ": byte " + std::to_string(e.byte) +
                                ": not a JSON array of alignments");
    }
    if (!j.is_array()) return Status::Corruption(path + ": not a JSON array of alignments");
    for (size_t k = 0; k < j.size(); ++k) {
      const auto& e = j[k];
      if (!e.is_object() || !e.contains("source") || !e.contains("target") ||
          !e.contains("sureAlign") || !e["source"].is_string() || !e["target"].is_string() ||
          !e["sureAlign"].is_string())
        return Status::Corruption(path + ": entry " + std::to_string(k) +
                                  ": expected the strings source, target, sureAlign");
      GoldAlignment g;
      g.s1 = SplitWhitespace(e["source"].get<std::string>());
      g.s2 = SplitWhitespace(e["target"].get<std::string>());
      Links extra;
      RETURN_IF_ERROR(ParseLinks(e["sureAlign"].get<std::string>(), &g.sure, nullptr)
                          .WithPrefix(path + ": entry " + std::to_string(k)));
      if (e.contains("possibleAlign") && e["possibleAlign"].is_string())
        RETURN_IF_ERROR(ParseLinks(e["possibleAlign"].get<std::string>(), &extra, nullptr)
                            .WithPrefix(path + ": entry " + std::to_string(k)));
      g.possible = g.sure;
      g.possible.insert(extra.begin(), extra.end());
      out->push_back(std::move(g));
    }
    return Status::OK();
  }
  std::istringstream lines(all);
  LineReader reader(lines);
  std::string line;
  while (reader.Next(&line)) {
    const uint64_t n = reader.line_number();
    std::vector<std::string> f;
    for (size_t b = 0;;) {
      size_t t = line.find('\t', b);
      f.push_back(line.substr(b, t == std::string::npos ? std::string::npos : t - b));
      if (t == std::string::npos) break;
      b = t + 1;
    }
    GoldAlignment g;
    if (f.size() >= 8) {  // MultiMWA TSV
      g.s1 = SplitWhitespace(f[1]);
      g.s2 = SplitWhitespace(f[3]);
      Links extra;
      RETURN_IF_ERROR(
          ParseLinks(f[7], &g.sure, nullptr).WithPrefix(path + ": line " + std::to_string(n)));
      if (f.size() >= 9)
        RETURN_IF_ERROR(
            ParseLinks(f[8], &extra, nullptr).WithPrefix(path + ": line " + std::to_string(n)));
      g.possible = g.sure;
      g.possible.insert(extra.begin(), extra.end());
    } else if (f.size() == 1) {  // Pharaoh, "p" marks possible links
      Links extra;
      RETURN_IF_ERROR(
          ParseLinks(f[0], &g.sure, &extra).WithPrefix(path + ": line " + std::to_string(n)));
      g.possible = g.sure;
      g.possible.insert(extra.begin(), extra.end());
    } else {
      return Status::Corruption(path + ": line " + std::to_string(n) +
                                ": expected MultiMWA TSV (9 columns) or Pharaoh links (i-j, i-jp)");
    }
    out->push_back(std::move(g));
  }
  return Status::OK();
}

Status ComputeAer(const std::vector<GoldAlignment>& gold, const std::vector<Links>& predicted,
                  AerResult* out) {
  if (gold.size() != predicted.size())
    return Status::InvalidArgument("the gold has " + std::to_string(gold.size()) +
                                   " sentence pairs, the prediction " +
                                   std::to_string(predicted.size()));
  struct Sums {
    size_t a = 0, s = 0, p = 0, as = 0, ap = 0;
  } sums[3];  // overall, identical, non-identical
  out->has_split = !gold.empty();
  for (size_t k = 0; k < gold.size(); ++k) {
    const GoldAlignment& g = gold[k];
    bool words = !g.s1.empty() || !g.s2.empty();
    if (!words) out->has_split = false;
    auto kind = [&](const std::pair<int, int>& l) {
      if (!words || l.first >= static_cast<int>(g.s1.size()) ||
          l.second >= static_cast<int>(g.s2.size()))
        return 2;
      return Lower(g.s1[l.first]) == Lower(g.s2[l.second]) ? 1 : 2;
    };
    for (const auto& l : predicted[k]) {
      int c = kind(l);
      for (int t : {0, c}) {
        ++sums[t].a;
        sums[t].as += g.sure.count(l);
        sums[t].ap += g.possible.count(l);
      }
    }
    for (const auto& l : g.sure)
      for (int t : {0, kind(l)}) ++sums[t].s;
    for (const auto& l : g.possible)
      for (int t : {0, kind(l)}) ++sums[t].p;
  }
  AerFigures* figs[3] = {&out->overall, &out->identical, &out->non_identical};
  for (int t = 0; t < 3; ++t) {
    const Sums& s = sums[t];
    AerFigures& f = *figs[t];
    f.predicted = s.a;
    f.sure = s.s;
    f.possible = s.p;
    f.precision = s.a ? static_cast<double>(s.ap) / s.a : 0.0;
    f.recall = s.s ? static_cast<double>(s.as) / s.s : 0.0;
    f.aer =
        (s.a + s.s) ? 1.0 - static_cast<double>(s.as + s.ap) / static_cast<double>(s.a + s.s) : 0.0;
  }
  out->sentences = gold.size();
  return Status::OK();
}

}  // namespace aligndb

// ------------------------------------------------------------------ lexical aligner

namespace aligndb {
namespace {

bool IsPunctuation(const std::string& w) {
  for (char c : w)
    if (std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

// Digits with "," removed, or empty when w is not a number.
std::string NumberKey(const std::string& w) {
  std::string k;
  bool digit = false;
  for (char c : w) {
    if (c == ',') continue;
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return {};
    digit |= std::isdigit(static_cast<unsigned char>(c)) != 0;
    k += c;
  }
  return digit ? k : std::string();
}

// Spelling variants of function words that WordNet does not list.
bool SameFunctionWord(const std::string& x, const std::string& y) {
  static const std::set<std::pair<std::string, std::string>> kSame = {
      {"a", "an"},     {"not", "n't"}, {"percent", "%"}, {"have", "'ve"}, {"will", "'ll"},
      {"would", "'d"}, {"am", "'m"},   {"are", "'re"},   {"and", "&"},    {"per_cent", "%"}};
  return kSame.count({x, y}) > 0 || kSame.count({y, x}) > 0;
}

std::string WithoutHyphens(const std::string& w) {
  std::string o;
  for (char c : w)
    if (c != '-') o += c;
  return o;
}

std::vector<std::string> SplitOn(const std::string& w, char sep) {
  std::vector<std::string> parts;
  size_t b = 0;
  for (size_t e; (e = w.find(sep, b)) != std::string::npos; b = e + 1)
    parts.push_back(w.substr(b, e - b));
  parts.push_back(w.substr(b));
  for (const auto& p : parts)
    if (p.empty()) return {};
  return parts;
}

bool IsConnector(const std::string& lower) {
  return lower == "of" || lower == "and" || lower == "the" || lower == "for" || lower == "&";
}

// The lower-cased letters of an acronym — two to six letters, at least two of them capitals,
// dots allowed ("VOA", "U.S.") — or empty.
std::string AcronymKey(const std::string& w) {
  std::string key;
  int upper = 0;
  for (char c : w) {
    if (c == '.') continue;
    if (!std::isalpha(static_cast<unsigned char>(c))) return {};
    upper += std::isupper(static_cast<unsigned char>(c)) != 0;
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return key.size() >= 2 && key.size() <= 6 && upper >= 2 ? key : std::string();
}

// Function words and punctuation that often translate each other in paraphrases ("will"/"would",
// ";"/"."): φ = 0.5, enough for stage 5 (beside a link in order) and no more.
bool RelatedFunctionWord(const std::string& x, const std::string& y) {
  static const std::vector<std::set<std::string>> kGroups = {{",", ";", ".", ":", "!", "--"},
                                                             {"will", "would", "'ll", "'d"},
                                                             {"is", "'s", "was"},
                                                             {"a", "an", "one"},
                                                             {"this", "these", "the", "that"},
                                                             {"that", "which", "who"},
                                                             {"however", "but"},
                                                             {"whether", "if"}};
  for (const auto& g : kGroups)
    if (g.count(x) && g.count(y)) return true;
  return false;
}

// The digits of an ordinal or cardinal number ("11th", "11", "2nd"), or empty.
std::string OrdinalKey(const std::string& lower) {
  std::string w = lower;
  for (const char* suffix : {"st", "nd", "rd", "th"})
    if (w.size() > 2 && w.compare(w.size() - 2, 2, suffix) == 0) w.resize(w.size() - 2);
  for (char c : w)
    if (!std::isdigit(static_cast<unsigned char>(c))) return {};
  return w;
}

// Character edit distance (Levenshtein), one row at a time.
size_t CharEditDistance(const std::string& x, const std::string& y) {
  std::vector<size_t> row(y.size() + 1);
  for (size_t j = 0; j <= y.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= x.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= y.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({up + 1, row[j - 1] + 1, diag + (x[i - 1] != y[j - 1])});
      diag = up;
    }
  }
  return row[y.size()];
}

// 1 − edit distance / the longer length: 1 for equal words, 0 for nothing in common.
double CharSimilarity(const std::string& x, const std::string& y) {
  if (x.empty() && y.empty()) return 1.0;
  return 1.0 - static_cast<double>(CharEditDistance(x, y)) / std::max(x.size(), y.size());
}

struct Candidate {
  double score;
  int i, j;
};

}  // namespace

bool IsStopWord(const std::string& w) {
  static const std::set<std::string> kStop = {
      "a",       "an",     "the",    "and",   "or",    "but",    "if",      "of",      "at",
      "by",      "for",    "with",   "about", "to",    "from",   "in",      "on",      "into",
      "over",    "under",  "up",     "down",  "out",   "off",    "as",      "than",    "then",
      "so",      "that",   "this",   "these", "those", "there",  "here",    "it",      "its",
      "it's",    "he",     "him",    "his",   "she",   "her",    "hers",    "they",    "them",
      "their",   "we",     "us",     "our",   "you",   "your",   "i",       "me",      "my",
      "who",     "whom",   "whose",  "which", "what",  "when",   "where",   "why",     "how",
      "is",      "are",    "was",    "were",  "be",    "been",   "being",   "am",      "do",
      "does",    "did",    "have",   "has",   "had",   "having", "will",    "would",   "shall",
      "should",  "can",    "could",  "may",   "might", "must",   "not",     "no",      "n't",
      "'s",      "'re",    "'ve",    "'ll",   "'d",    "'m",     "all",     "any",     "each",
      "some",    "such",   "only",   "own",   "same",  "too",    "very",    "just",    "also",
      "while",   "during", "before", "after", "above", "below",  "between", "through", "again",
      "further", "once",   "both",   "few",   "more",  "most",   "other",   "nor",     "because",
      "until",   "against"};
  return kStop.count(w) > 0;
}

namespace {

// The staged lexical aligner: each stage links only words both of whose sides are still free.
class LexicalAligner {
 public:
  LexicalAligner(const WordSimilarity* words, const std::vector<std::string>& s1,
                 const std::vector<std::string>& s2, const LexicalAlignOptions& o)
      : o_(o), n_(static_cast<int>(s1.size())), m_(static_cast<int>(s2.size())) {
    for (const auto& w : s1) a_.push_back(Lower(w));
    for (const auto& w : s2) b_.push_back(Lower(w));
    oa_ = s1;
    ob_ = s2;
    phi_ = words ? words->Matrix(a_, b_) : Eigen::MatrixXd::Zero(n_, m_);
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < m_; ++j) {
        if (a_[i] == b_[j] || SameFunctionWord(a_[i], b_[j])) phi_(i, j) = 1.0;
        bool hyphen = a_[i].find('-') != std::string::npos || b_[j].find('-') != std::string::npos;
        if (o_.multiword && hyphen && WithoutHyphens(a_[i]) == WithoutHyphens(b_[j]))
          phi_(i, j) = 1.0;  // health-care / healthcare
        if (o_.function_pairs && phi_(i, j) < 0.5 && RelatedFunctionWord(a_[i], b_[j]))
          phi_(i, j) = 0.5;
        std::string ka = NumberKey(a_[i]);
        if (!ka.empty() && ka == NumberKey(b_[j])) phi_(i, j) = 1.0;
      }
    ca_.resize(n_);
    cb_.resize(m_);
    used_a_.resize(n_);
    used_b_.resize(m_);
    for (int i = 0; i < n_; ++i) ca_[i] = IsContent(s1[i], a_[i]);
    for (int j = 0; j < m_; ++j) cb_[j] = IsContent(s2[j], b_[j]);
  }

  Links Run() {
    if (n_ == 0 || m_ == 0) return links_;
    IdenticalRuns();
    if (o_.multiword) {
      for (bool flip : {false, true}) Acronyms(flip), HyphenSplits(flip);
    }
    ContentWords();
    if (o_.names)
      for (bool flip : {false, true}) NameParts(flip), Possessives(flip);
    if (o_.spelling_similarity < 1) Spellings();
    SupportedStopWords();
    if (o_.unique_words) EqualCounts();
    if (o_.multiword)
      for (bool flip : {false, true}) HyphenParts(flip);
    FinalPunctuation();
    if (o_.supported_similarity < 1) SupportedContentWords();
    WeakNeighbours();
    if (o_.sandwich) Sandwiched();
    return links_;
  }

 private:
  static bool IsContent(const std::string& orig, const std::string& low) {
    if (IsPunctuation(low)) return false;
    if (std::isupper(static_cast<unsigned char>(orig[0]))) return true;
    return !IsStopWord(low);
  }
  void Link(int i, int j) {
    links_.insert({i, j});
    used_a_[i] = used_b_[j] = 1;
  }
  // The links within `window` positions of both i and j.
  static int Support(const Links& links, int i, int j, int window) {
    int n = 0;
    for (auto [x, y] : links) n += std::abs(x - i) <= window && std::abs(y - j) <= window;
    return n;
  }
  // Calls f(i, j) for the free content-word pairs with φ ≥ min_phi.
  template <typename F>
  void ForFreeContentPairs(double min_phi, F f) const {
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < m_; ++j)
        if (Free(i, j) && ca_[i] && cb_[j] && phi_(i, j) >= min_phi) f(i, j);
  }
  bool Free(int i, int j) const { return !used_a_[i] && !used_b_[j]; }
  double RelativeDistance(int i, int j) const {
    return std::fabs(static_cast<double>(i) / n_ - static_cast<double>(j) / m_);
  }
  // Links the candidates, best first, whose two words are still free.
  void LinkBestFirst(std::vector<Candidate>* cands) {
    std::sort(cands->begin(), cands->end(), [](auto& x, auto& y) { return x.score > y.score; });
    for (const auto& c : *cands)
      if (Free(c.i, c.j)) Link(c.i, c.j);
  }

  // 1. Identical sequences of two or more words with a content word, longest first.
  void IdenticalRuns() {
    std::vector<std::tuple<int, int, int>> runs;  // (length, i, j)
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < m_; ++j) {
        if (i > 0 && j > 0 && a_[i - 1] == b_[j - 1]) continue;  // not the start of a run
        int len = 0;
        bool has_content = false;
        while (i + len < n_ && j + len < m_ && a_[i + len] == b_[j + len])
          has_content |= ca_[i + len] != 0, ++len;
        if (len >= 2 && has_content) runs.emplace_back(len, i, j);
      }
    std::sort(runs.begin(), runs.end(),
              [](auto& x, auto& y) { return std::get<0>(x) > std::get<0>(y); });
    for (auto [len, i, j] : runs) {
      bool free = true;
      for (int k = 0; k < len; ++k) free &= Free(i + k, j + k);
      if (free)
        for (int k = 0; k < len; ++k) Link(i + k, j + k);
    }
  }

  // 2. Content words by similarity and context.
  void ContentWords() {
    std::vector<Candidate> cands;
    ForFreeContentPairs(o_.min_similarity, [&](int i, int j) {
      double ctx = 0;
      for (int di = -o_.window; di <= o_.window; ++di)
        for (int dj = -o_.window; dj <= o_.window; ++dj) {
          int x = i + di, y = j + dj;
          if ((di == 0 && dj == 0) || x < 0 || y < 0 || x >= n_ || y >= m_) continue;
          if (ca_[x] && cb_[y] && phi_(x, y) >= o_.min_similarity) ctx += phi_(x, y);
        }
      // Ties (the same word twice) go to the nearer relative position.
      cands.push_back({(1 - o_.context_weight) * phi_(i, j) + o_.context_weight * ctx -
                           1e-3 * RelativeDistance(i, j),
                       i, j});
    });
    LinkBestFirst(&cands);
  }

  // 2d. Spelling variants, most similar first: ordinals with their numbers and names (beside a
  //     link in order or near in relative position), other content words of five or more letters
  //     (beside a link in order only: typos, and derived forms WordNet does not relate).
  void Spellings() {
    std::vector<Candidate> cands;
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < m_; ++j) {
        if (!Free(i, j)) continue;
        double sim = 0;
        bool name = true;
        const std::string ka = OrdinalKey(a_[i]);
        if (!ka.empty()) {
          sim = ka == OrdinalKey(b_[j]) ? 1.0 : 0.0;
        } else if (IsName(oa_, i) && IsName(ob_, j)) {
          sim = CharSimilarity(WithoutHyphens(a_[i]), WithoutHyphens(b_[j]));
        } else if (ca_[i] && cb_[j] && a_[i].size() >= 5 && b_[j].size() >= 5) {
          sim = CharSimilarity(a_[i], b_[j]);
          name = false;
        }
        if (sim < o_.spelling_similarity) continue;
        const bool beside = links_.count({i - 1, j - 1}) || links_.count({i + 1, j + 1});
        if (beside || (name && RelativeDistance(i, j) < 0.2)) cands.push_back({sim, i, j});
      }
    LinkBestFirst(&cands);
  }

  // 3. Stop words and punctuation with a link nearby on both sides; the most supported first, a
  //    link beside in order (i±1, j±1) counting twice: with a repeated "," or "the" it tells which
  //    occurrence goes with which.
  void SupportedStopWords() {
    std::vector<Candidate> cands;
    const Links before = links_;
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < m_; ++j) {
        if (!Free(i, j) || phi_(i, j) < 1.0) continue;
        const int support = Support(before, i, j, o_.stop_window);
        const int beside = before.count({i - 1, j - 1}) + before.count({i + 1, j + 1});
        if (support > 0) cands.push_back({support + beside - RelativeDistance(i, j), i, j});
      }
    LinkBestFirst(&cands);
  }

  // 4. Words left that occur equally often, unlinked, in both sentences: in order (sentence-final
  //    punctuation, quotes, a repeated "the" …).
  void EqualCounts() {
    std::map<std::string, std::pair<std::vector<int>, std::vector<int>>> left;
    for (int i = 0; i < n_; ++i)
      if (!used_a_[i]) left[a_[i]].first.push_back(i);
    for (int j = 0; j < m_; ++j)
      if (!used_b_[j]) left[b_[j]].second.push_back(j);
    const Links before = links_;
    for (auto& [w, at] : left)
      if (at.first.size() == at.second.size())
        for (size_t k = 0; k < at.first.size(); ++k) {
          int i = at.first[k], j = at.second[k];
          // Far apart in relative position and with no link near both: more often not a link.
          if (RelativeDistance(i, j) >= o_.equal_max_distance &&
              Support(before, i, j, o_.window) == 0)
            continue;
          Link(i, j);
        }
  }

  // 4b. Content words with φ ≥ supported_similarity and a link within `window` positions of both
  //     (Sultan et al.'s contextual evidence for pairs that similarity alone does not decide),
  //     best φ first.
  void SupportedContentWords() {
    std::vector<Candidate> cands;
    ForFreeContentPairs(o_.supported_similarity, [&](int i, int j) {
      int support = Support(links_, i, j, o_.window);
      if (support >= o_.min_support)
        cands.push_back({phi_(i, j) + 0.01 * support - 1e-3 * RelativeDistance(i, j), i, j});
    });
    LinkBestFirst(&cands);
  }

  // 5. Weaker word pairs (φ ≥ neighbor_similarity) beside a link in order, best first, until no
  //    more link.
  void WeakNeighbours() {
    for (size_t before = 0; o_.neighbor_similarity < 1 && links_.size() > before;) {
      before = links_.size();
      std::vector<Candidate> cands;
      for (int i = 0; i < n_; ++i)
        for (int j = 0; j < m_; ++j) {
          if (!Free(i, j) || phi_(i, j) < o_.neighbor_similarity) continue;
          if (links_.count({i - 1, j - 1}) || links_.count({i + 1, j + 1}))
            cands.push_back({phi_(i, j), i, j});
        }
      LinkBestFirst(&cands);
    }
  }

  // 6. A word between two links whose neighbours are linked in order (X w Y ↔ X v Y).
  void Sandwiched() {
    for (bool added = true; added;) {
      added = false;
      for (int i = 1; i + 1 < n_; ++i)
        for (int j = 1; j + 1 < m_; ++j)
          if (Free(i, j) && links_.count({i - 1, j - 1}) && links_.count({i + 1, j + 1}))
            Link(i, j), added = true;
    }
  }

  // The words of one side (flip: the second sentence), their originals, and the other side.
  struct Side {
    const std::vector<std::string>& low;
    const std::vector<std::string>& orig;
    std::vector<char>& used;
  };
  Side Of(bool second) { return second ? Side{b_, ob_, used_b_} : Side{a_, oa_, used_a_}; }
  void LinkSides(bool flip, int x, int y) { flip ? Link(y, x) : Link(x, y); }

  // 1b. An acronym ("VOA", "U.S.") with the capitalized words whose initials spell it ("Voice of
  //     America", "United States"), connectors (of, and, the, for, &) inside the run allowed:
  //     the acronym links to every word of the run.
  void Acronyms(bool flip) {
    Side x = Of(flip), y = Of(!flip);
    for (int i = 0; i < static_cast<int>(x.low.size()); ++i) {
      std::string key = AcronymKey(x.orig[i]);
      if (key.empty() || x.used[i]) continue;
      for (int p = 0; p < static_cast<int>(y.low.size()); ++p) {
        int end = InitialsRun(y, p, key);
        if (end < 0) continue;
        for (int q = p; q < end; ++q) LinkSides(flip, i, q);
        break;
      }
    }
  }
  // The end of a run of free capitalized words from p whose initials spell key, or -1; a
  // connector inside the run spells its initial or nothing ("Voice of America": VOA or VA).
  static int InitialsRun(const Side& y, int p, const std::string& key, size_t k = 0) {
    if (k == key.size()) return p;
    if (p >= static_cast<int>(y.low.size()) || y.used[p]) return -1;
    if (k > 0 && IsConnector(y.low[p])) {
      int end = y.low[p][0] == key[k] ? InitialsRun(y, p + 1, key, k + 1) : -1;
      return end >= 0 ? end : InitialsRun(y, p + 1, key, k);
    }
    if (!IsName(y.orig, p) || y.low[p][0] != key[k]) return -1;
    return InitialsRun(y, p + 1, key, k + 1);
  }
  // 1c. A hyphenated word with the run of words that are its parts ("biggest-ever" / "biggest
  //     ever"): the hyphenated word links to each.
  void HyphenSplits(bool flip) {
    Side x = Of(flip), y = Of(!flip);
    for (int i = 0; i < static_cast<int>(x.low.size()); ++i) {
      if (x.used[i] || x.low[i].find('-') == std::string::npos) continue;
      std::vector<std::string> parts = SplitOn(x.low[i], '-');
      if (parts.size() < 2) continue;
      for (int p = 0; p + static_cast<int>(parts.size()) <= static_cast<int>(y.low.size()); ++p) {
        bool match = true;
        for (size_t k = 0; k < parts.size() && match; ++k)
          match = !y.used[p + k] && y.low[p + k] == parts[k];
        if (!match) continue;
        for (size_t k = 0; k < parts.size(); ++k) LinkSides(flip, i, p + static_cast<int>(k));
        break;
      }
    }
  }
  // 4c. A word equal to one part of a hyphenated word of the other side ("ever" / "biggest-ever"),
  //     occurring once, within `window` positions of a word linked to it (or of a link in order
  //     when it is free): it links to the hyphenated word.
  void HyphenParts(bool flip) {
    Side x = Of(flip), y = Of(!flip);
    for (int i = 0; i < static_cast<int>(x.low.size()); ++i) {
      if (x.low[i].find('-') == std::string::npos) continue;
      for (const auto& part : SplitOn(x.low[i], '-')) {
        if (part.size() < 2 || IsStopWord(part)) continue;
        int found = -1, count = 0;
        for (int q = 0; q < static_cast<int>(y.low.size()); ++q)
          if (y.low[q] == part) found = q, ++count;
        if (count != 1 || y.used[found]) continue;
        if (NearPartner(flip, i, found)) LinkSides(flip, i, found);
      }
    }
  }
  // Whether word y of the other side lies within `window` positions of a word linked to word x of
  // one side, or (x free) of the partner of a linked neighbour of x.
  bool NearPartner(bool flip, int x, int y) const {
    for (int d = x == 0 ? 0 : -1; d <= 1; ++d) {
      if (d != 0 && x + d >= (flip ? m_ : n_)) continue;
      int p = Partner(flip, x + d);
      if (p >= 0 && std::abs(p - d - y) <= o_.window) return true;
    }
    return false;
  }

  // 4d. The last words of both sentences, when both are sentence-final punctuation and free.
  void FinalPunctuation() {
    static const std::set<std::string> kFinal = {".", "!", "?", ";", ":"};
    if (Free(n_ - 1, m_ - 1) && kFinal.count(a_[n_ - 1]) && kFinal.count(b_[m_ - 1]))
      Link(n_ - 1, m_ - 1);
  }

  // 2b. A name standing alone, linked to the same word ending a name of two or three capitalized
  //     words on the other side ("Hannum" / "Kate Hannum", "Fujimori" / "Mr. Fujimori"): it also
  //     links to the other words of that name, when they are free.
  void NameParts(bool flip) {
    Side x = Of(flip), y = Of(!flip);
    for (auto [i1, j1] : Links(links_)) {
      int i = flip ? j1 : i1, j = flip ? i1 : j1;
      if (x.low[i] != y.low[j] || !IsName(x.orig, i)) continue;
      auto [xs, xe] = NameRun(x.orig, i);
      auto [ys, ye] = NameRun(y.orig, j);
      if (xe - xs != 1 || ye != j + 1 || ye - ys < 2 || ye - ys > 3) continue;
      for (int q = ys; q < j; ++q)
        if (!y.used[q]) LinkSides(flip, i, q);
    }
  }
  // 2c. "X 's Y" against "(the) Y' of X'" with X–X' and Y–Y' linked: 's links to "of" and to
  //     the "the" before Y'.
  void Possessives(bool flip) {
    Side x = Of(flip), y = Of(!flip);
    const int nx = static_cast<int>(x.low.size());
    for (int i = 1; i + 1 < nx; ++i) {
      if (x.low[i] != "'s" || x.used[i]) continue;
      int owner = Partner(flip, i - 1), head = -1;
      for (int k = i + 1; k < nx && k <= i + 3 && head < 0; ++k) head = Partner(flip, k);
      if (owner < 0 || head < 0 || head >= owner) continue;
      int of = owner - 1;
      while (of > head && y.low[of] != "of") --of;
      if (of == head || y.used[of] || owner - of > 2) continue;
      LinkSides(flip, i, of);
      if (head > 0 && y.low[head - 1] == "the" && !y.used[head - 1]) LinkSides(flip, i, head - 1);
    }
  }
  // The first word linked to word x of one side (flip: the second sentence), or -1.
  int Partner(bool flip, int x) const {
    for (auto [i, j] : links_)
      if ((flip ? j : i) == x) return flip ? i : j;
    return -1;
  }
  static bool IsName(const std::vector<std::string>& w, int i) {
    return std::isupper(static_cast<unsigned char>(w[i][0])) && w[i].size() > 1 &&
           std::isalpha(static_cast<unsigned char>(w[i][1]));
  }
  // [start, end) of the capitalized words around i.
  static std::pair<int, int> NameRun(const std::vector<std::string>& w, int i) {
    int s = i, e = i + 1;
    while (s > 0 && IsName(w, s - 1)) --s;
    while (e < static_cast<int>(w.size()) && IsName(w, e)) ++e;
    return {s, e};
  }

  const LexicalAlignOptions& o_;
  const int n_, m_;
  std::vector<std::string> oa_, ob_;  // the words as given
  std::vector<std::string> a_, b_;    // lower-cased words
  Eigen::MatrixXd phi_;
  std::vector<char> ca_, cb_, used_a_, used_b_;  // content words; words linked
  Links links_;
};

}  // namespace

Links AlignWordsLexical(const WordSimilarity* words, const std::vector<std::string>& s1,
                        const std::vector<std::string>& s2, const LexicalAlignOptions& o) {
  return LexicalAligner(words, s1, s2, o).Run();
}

}  // namespace aligndb
