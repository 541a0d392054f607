// Alignment (docs/method.md, Pairing to Filter): pairing, paragraph alignment, sentence alignment,
// records.
#include "align/align.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_set>

#include "align/label.h"
#include "align/operations.h"
#include "align/similarity.h"
#include "align/token_tables.h"
#include "aligndb.pb.h"
#include "storage/records.h"
#include "text/text.h"
#include "text/tokens.h"
#include "util/clock.h"
#include "util/fault.h"

namespace aligndb {

// Op and Label are stored as pb::Operation and pb::Label: their values must stay equal.
static_assert(static_cast<int>(Op::kSkipSimple) == pb::OP_SKIP_SIMPLE);
static_assert(static_cast<int>(Op::kSkipNormal) == pb::OP_SKIP_NORMAL);
static_assert(static_cast<int>(Op::kOneOne) == pb::OP_ONE_ONE);
static_assert(static_cast<int>(Op::kOneTwo) == pb::OP_ONE_TWO);
static_assert(static_cast<int>(Op::kTwoOne) == pb::OP_TWO_ONE);
static_assert(static_cast<int>(Op::kTwoTwo) == pb::OP_TWO_TWO);
static_assert(static_cast<int>(Op::kAllPairs) == pb::OP_ALL_PAIRS);
static_assert(static_cast<int>(Op::kL12) == pb::OP_L12);
static_assert(static_cast<int>(Op::kF2) == pb::OP_F2);
static_assert(static_cast<int>(Label::kNone) == pb::LABEL_NONE);
static_assert(static_cast<int>(Label::kGood) == pb::LABEL_GOOD);
static_assert(static_cast<int>(Label::kPartial) == pb::LABEL_PARTIAL);

const char* OpName(Op op) {
  switch (op) {
    case Op::kSkipSimple:
      return "skip-simple";
    case Op::kSkipNormal:
      return "skip-normal";
    case Op::kOneOne:
      return "1-1";
    case Op::kOneTwo:
      return "1-2";
    case Op::kTwoOne:
      return "2-1";
    case Op::kTwoTwo:
      return "2-2";
    case Op::kAllPairs:
      return "pair";
    case Op::kL12:
      return "l12";
    case Op::kF2:
      return "f2";
  }
  return "?";
}

bool ParseOpName(const std::string& name, Op* op) {
  for (int v = 1; v <= 9; ++v) {
    if (name == OpName(static_cast<Op>(v))) {
      *op = static_cast<Op>(v);
      return true;
    }
  }
  return false;
}

// ------------------------------------------------------------------ sentence DP

SentenceAlignment AlignSentences(const Eigen::MatrixXd& sim, double p) {
  const int n = static_cast<int>(sim.rows()), m = static_cast<int>(sim.cols());
  const int w = m + 1;
  std::vector<double> a(static_cast<size_t>(n + 1) * w, 0.0);
  std::vector<uint8_t> choice(static_cast<size_t>(n + 1) * w, 0);
  auto A = [&](int i, int j) -> double& { return a[static_cast<size_t>(i) * w + j]; };
  // sim(i, j) with the 1-based indices of docs/method.md.
  auto S = [&](int i, int j) { return sim(i - 1, j - 1); };
  for (int i = 1; i <= n; ++i) {
    for (int j = 1; j <= m; ++j) {
      double best = A(i, j - 1) - p;
      Op c = Op::kSkipSimple;
      auto consider = [&](double v, Op op) {
        if (v > best) {
          best = v;
          c = op;
        }
      };
      consider(A(i - 1, j) - p, Op::kSkipNormal);
      consider(A(i - 1, j - 1) + S(i, j), Op::kOneOne);
      if (j >= 2) consider(A(i - 1, j - 2) + S(i, j - 1) + S(i, j), Op::kOneTwo);
      if (i >= 2) consider(A(i - 2, j - 1) + S(i - 1, j) + S(i, j), Op::kTwoOne);
      if (i >= 2 && j >= 2) consider(A(i - 2, j - 2) + S(i - 1, j) + S(i, j - 1), Op::kTwoTwo);
      A(i, j) = best;
      choice[static_cast<size_t>(i) * w + j] = static_cast<uint8_t>(c);
    }
  }
  SentenceAlignment out;
  out.score = A(n, m);
  // Backtrace; pairs are collected per operation, last operation first.
  std::vector<std::vector<AlignedPair>> ops;
  int i = n, j = m;
  auto pair = [&](int ii, int jj, Op op) { return AlignedPair{ii - 1, jj - 1, S(ii, jj), op}; };
  while (i > 0 && j > 0) {
    Op c = static_cast<Op>(choice[static_cast<size_t>(i) * w + j]);
    switch (c) {
      case Op::kSkipSimple:
        ++out.skipped_simple;
        --j;
        break;
      case Op::kSkipNormal:
        ++out.skipped_normal;
        --i;
        break;
      case Op::kOneOne:
        ops.push_back({pair(i, j, c)});
        --i;
        --j;
        break;
      case Op::kOneTwo:
        ops.push_back({pair(i, j - 1, c), pair(i, j, c)});
        i -= 1;
        j -= 2;
        break;
      case Op::kTwoOne:
        ops.push_back({pair(i - 1, j, c), pair(i, j, c)});
        i -= 2;
        j -= 1;
        break;
      case Op::kTwoTwo:
        ops.push_back({pair(i - 1, j, c), pair(i, j - 1, c)});
        i -= 2;
        j -= 2;
        break;
    }
  }
  out.skipped_normal += i;  // sentences left before the border are skipped too
  out.skipped_simple += j;
  for (auto it = ops.rbegin(); it != ops.rend(); ++it)
    for (const auto& pr : *it) out.pairs.push_back(pr);
  return out;
}

// ------------------------------------------------------------------ paragraphs

std::vector<std::vector<uint32_t>> AssignParagraphs(
    const std::vector<std::vector<std::pair<uint32_t, double>>>& cosines, double threshold) {
  // Best simple paragraph of each normal paragraph.
  std::unordered_map<uint32_t, std::pair<size_t, double>> owner;
  for (size_t s = 0; s < cosines.size(); ++s) {
    for (auto [n, c] : cosines[s]) {
      if (!(c >= threshold)) continue;
      auto it = owner.find(n);
      if (it == owner.end())
        owner.emplace(n, std::make_pair(s, c));
      else if (c > it->second.second)
        it->second = {s, c};  // earlier s keeps ties
    }
  }
  std::vector<std::vector<uint32_t>> out(cosines.size());
  for (auto& [n, sc] : owner) out[sc.first].push_back(n);
  for (auto& v : out) std::sort(v.begin(), v.end());
  return out;
}

std::map<std::string, uint64_t> AlignSummary::AsCounts() const {
  std::map<std::string, uint64_t> c = {{"title_matches", title_matches},
                                       {"removed", removed},
                                       {"aligned", aligned},
                                       {"realigned", realigned},
                                       {"kept", kept},
                                       {"stale_removed", stale_removed},
                                       {"paragraph_pairs", paragraph_pairs},
                                       {"sentence_pairs", sentence_pairs},
                                       {"indexed_pages", indexed_pages},
                                       {"scored_pairs", scored_pairs},
                                       {"bound_skipped", bound_skipped}};
  for (auto& [k, v] : removed_by_reason) c["removed_" + k] = v;
  if (dp_skipped) c["dp_skipped"] = dp_skipped;  // only when the limit applied
  if (index_rebuilt) c["index_rebuilt"] = index_rebuilt;
  return c;
}

// ------------------------------------------------------------------ one article pair

namespace {

// The Xapian term limit: the paragraph candidates of docs/method.md (Paragraph alignment) are
// the normal paragraphs sharing a token of at most this many bytes with the simple paragraph.
constexpr size_t kMaxCandidateTokenBytes = kMaxIndexTermBytes;

// One article of the pair being aligned, tokenized once: every measure and the label rule read
// these tokens.
struct ArticleSide {
  pb::Article article;
  // Every sentence's tokens in document order: sentence k of paragraph p is flat sentence
  // f = first_sentence[p] + k, and holds tokens [sentence_begin[f], sentence_begin[f + 1]).
  TokenList tokens;
  std::vector<uint32_t> token_ids;  // the pair vocabulary's id of each token
  std::vector<uint32_t> first_sentence, sentence_begin;
  // Per paragraph: its distinct token ids and their counts.
  std::vector<std::vector<uint32_t>> paragraph_ids, paragraph_counts;
  std::vector<SparseVector> paragraph_vectors;
  std::vector<std::vector<SparseVector>> sentence_vectors;
  // Bags of tokens of each sentence, sorted (for embedding measures).
  std::vector<std::vector<Tokens>> sentence_tokens;
  // The label rule's sentences, by flat index, made when a row first needs them.
  std::vector<LabelSentence> label_sentences;
  std::vector<uint8_t> label_made;

  uint32_t Flat(uint32_t p, uint32_t k) const { return first_sentence[p] + k; }
};

// Document frequencies by token, looked up without copies.
using DfMap = std::unordered_map<std::string, int64_t, TokenHash, std::equal_to<>>;

// Aligns article pairs one at a time; one per thread. Its counters go to its own summary.
class PairAligner {
 public:
  // `df_cache_entries`: this aligner's share of the document-frequency cache (the aligners of
  // one run share kDfCacheEntries, so that memory does not grow with the thread count).
  PairAligner(Store* store, const AlignOptions& options, uint32_t normal_ed, uint32_t simple_ed,
              int64_t total_paragraphs, size_t df_cache_entries)
      : store_(store),
        options_(options),
        normal_ed_(normal_ed),
        simple_ed_(simple_ed),
        n_(total_paragraphs),
        df_cache_entries_(df_cache_entries) {}

  // Document frequencies cached by all the aligners of a run together.
  static constexpr size_t kDfCacheEntries = 4'000'000;

  AlignSummary& counts() { return summary_; }
  // Every token's document frequency (both editions summed), read once for the run: a token
  // absent from it has none. Then the store is not read for them.
  void SetAllDocumentFrequencies(const RunFrequencies* all) { all_df_ = all; }
  // Paragraph candidates from this reader of the Xapian index instead of the article's own
  // inverted index (docs/method.md, Paragraph alignment), used under `mutex` (a reader may be
  // shared by several aligners). Not owned.
  void ReadCandidatesFrom(ParagraphIndex* index, std::mutex* mutex) {
    index_ = index;
    index_mutex_ = mutex;
  }
  // The pair being aligned and its record: kept from pair to pair, so that parsing and
  // building reuse the messages' and vectors' memory instead of allocating it again.
  ArticleSide& normal_side() { return normal_; }
  ArticleSide& simple_side() { return simple_; }
  pb::AlignmentRecord& record() { return record_; }

  // Sentence similarity of normal sentence (np, ns) and simple sentence (sp, ss).
  double SentenceSim(const ArticleSide& normal, uint32_t np, uint32_t ns, const ArticleSide& simple,
                     uint32_t sp, uint32_t ss) const {
    if (!options_.scorer)
      return Cosine(normal.sentence_vectors[np][ns], simple.sentence_vectors[sp][ss]);
    return options_.scorer->Score(normal.sentence_tokens[np][ns], simple.sentence_tokens[sp][ss]);
  }

  // The all-pairs corpus mode (docs/method.md): every normal × simple sentence pair, kept at or
  // above the threshold.
  Status AlignAllPairs(ArticleSide* normal, ArticleSide* simple, pb::AlignmentRecord* record) {
    RETURN_IF_ERROR(BuildVectors(normal, simple));
    const bool wmd = options_.similarity == SimilarityMeasure::kWmd;
    for (uint32_t sp = 0; sp < simple->sentence_vectors.size(); ++sp) {
      pb::ParagraphPair* pp = nullptr;
      std::set<uint32_t> normal_paras;
      for (uint32_t ss = 0; ss < simple->sentence_vectors[sp].size(); ++ss) {
        for (uint32_t np = 0; np < normal->sentence_vectors.size(); ++np) {
          for (uint32_t ns = 0; ns < normal->sentence_vectors[np].size(); ++ns) {
            if (wmd && options_.scorer) {
              // 1 − WMD ≤ 1 − RWMD: a pair whose bound is below the threshold cannot reach it.
              double bound = 1.0 - RelaxedWordMoversDistance(*options_.scorer->vectors(),
                                                             normal->sentence_tokens[np][ns],
                                                             simple->sentence_tokens[sp][ss]);
              if (bound < options_.pair_threshold) {
                ++summary_.bound_skipped;
                continue;
              }
            }
            ++summary_.scored_pairs;
            double sim = SentenceSim(*normal, np, ns, *simple, sp, ss);
            if (sim < options_.pair_threshold) continue;
            if (!pp) {
              pp = record->add_paragraph_pairs();
              pp->set_simple_paragraph(sp);
            }
            normal_paras.insert(np);
            AddSentencePair(np, ns, sp, ss, sim, pb::OP_ALL_PAIRS,
                            normal->article.paragraphs(np).sentences(ns),
                            simple->article.paragraphs(sp).sentences(ss), pp);
          }
        }
      }
      if (pp) {
        for (uint32_t np : normal_paras) pp->add_normal_paragraphs(np);
        LabelPairs(*normal, *simple, pp);
      }
    }
    return Status::OK();
  }

  // Labels of the pairs and operations of `pp` (docs/method.md, Labels and export units), and
  // the similarity of each operation's joined sides.
  void LabelPairs(ArticleSide& normal, ArticleSide& simple, pb::ParagraphPair* pp) {
    auto joined = [&](const std::vector<SentencePos>& ns, const std::vector<SentencePos>& ss) {
      if (options_.scorer) {
        Tokens a, b;
        for (auto [p, k] : ns)
          a.insert(a.end(), normal.sentence_tokens[p][k].begin(),
                   normal.sentence_tokens[p][k].end());
        for (auto [p, k] : ss)
          b.insert(b.end(), simple.sentence_tokens[p][k].begin(),
                   simple.sentence_tokens[p][k].end());
        return options_.scorer->Score(a, b);
      }
      // One sentence's vector is its own sum (same weights, same norm, bit for bit): used as
      // it is, without a copy, for the sides of 1-1 operations.
      auto side = [](const ArticleSide& art, const std::vector<SentencePos>& pos,
                     SparseVector* sum) -> const SparseVector& {
        if (pos.size() == 1) return art.sentence_vectors[pos[0].first][pos[0].second];
        *sum = SparseVector();
        for (auto [p, k] : pos) *sum = SumVectors(*sum, art.sentence_vectors[p][k]);
        return *sum;
      };
      return Cosine(side(normal, ns, &joined_[0]), side(simple, ss, &joined_[1]));
    };
    auto row = [&](const std::vector<SentencePos>& ns, const std::vector<SentencePos>& ss) {
      for (auto& r : rows_) r.clear();
      for (auto [p, k] : ns) rows_[0].push_back(&LabelSentenceOf(&normal, p, k));
      for (auto [p, k] : ss) rows_[1].push_back(&LabelSentenceOf(&simple, p, k));
      return DecideLabel(ComputeLabelFeatures(rows_[0], rows_[1], &label_scratch_));
    };
    LabelParagraphPair(row, joined, pp);
  }

  // The label rule's sentence (p, k) of `side`. A token of the pair that some stored paragraph
  // has weighs its idf; any other, ln N.
  const LabelSentence& LabelSentenceOf(ArticleSide* side, uint32_t p, uint32_t k) {
    const uint32_t f = side->Flat(p, k);
    LabelSentence& out = side->label_sentences[f];
    if (side->label_made[f]) return out;
    if (label_idf_.size() != words_.size()) {  // once per pair that has rows
      const double unknown = std::log(static_cast<double>(n_));
      label_idf_.resize(words_.size());
      for (uint32_t id = 0; id < words_.size(); ++id)
        label_idf_[id] = df_[id] <= 0 ? unknown : idf_[id];
      label_bits_ = known_bits_;
    }
    for (uint32_t i = side->sentence_begin[f]; i < side->sentence_begin[f + 1]; ++i) {
      const uint32_t id = side->token_ids[i];
      if (label_bits_[id] == kBitsUnknown) label_bits_[id] = LabelTokenBits(words_[id]);
    }
    MakeLabelSentence(side->article.paragraphs(p).sentences(k), side->tokens,
                      side->sentence_begin[f], side->sentence_begin[f + 1], side->token_ids.data(),
                      label_idf_.data(), label_bits_.data(), LabelParams(), &out);
    side->label_made[f] = 1;
    return out;
  }

  // docs/method.md, Paragraph and Sentence alignment: paragraphs by TF-IDF cosine over their
  // candidates, then the sentence alignment of each simple paragraph against its normal
  // paragraphs.
  Status Align(ArticleSide* normal, ArticleSide* simple, pb::AlignmentRecord* record) {
    RETURN_IF_ERROR(BuildVectors(normal, simple));
    std::vector<std::vector<std::pair<uint32_t, double>>> cosines;
    RETURN_IF_ERROR(ParagraphCosines(*normal, *simple, &cosines));
    auto assigned = AssignParagraphs(cosines, options_.paragraph_threshold);
    for (size_t s = 0; s < assigned.size(); ++s) {
      if (assigned[s].empty()) continue;
      if (OverDpLimit(*normal, *simple, s, assigned[s])) {
        ++summary_.dp_skipped;
        continue;
      }
      AlignParagraph(*normal, *simple, static_cast<uint32_t>(s), assigned[s], cosines[s],
                     record->add_paragraph_pairs());
    }
    return Status::OK();
  }

 private:
  // Per simple paragraph, (normal paragraph, cosine) of its candidates: every normal paragraph
  // that shares a token with it (of at most kMaxCandidateTokenBytes), from the normal article's
  // inverted index (ArticlePostings or XapianPostings).
  Status ParagraphCosines(const ArticleSide& normal, const ArticleSide& simple,
                          std::vector<std::vector<std::pair<uint32_t, double>>>* cosines) {
    if (index_)
      RETURN_IF_ERROR(XapianPostings(normal));
    else
      ArticlePostings(normal);
    const auto& simple_paras = simple.paragraph_ids;
    cosines->assign(simple_paras.size(), {});
    std::vector<uint32_t>& candidates = candidates_;
    for (size_t s = 0; s < simple_paras.size(); ++s) {
      candidates.clear();
      for (uint32_t id : simple_paras[s])
        candidates.insert(candidates.end(), postings_.begin() + start_[id],
                          postings_.begin() + start_[id + 1]);
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
      for (uint32_t n : candidates)
        (*cosines)[s].emplace_back(
            n, Cosine(simple.paragraph_vectors[s], normal.paragraph_vectors[n]));
    }
    return Status::OK();
  }

  // The normal article's inverted index, built here from its tokens:
  // postings_[start_[id] .. start_[id + 1]) = normal paragraphs holding token id, ascending.
  void ArticlePostings(const ArticleSide& normal) {
    const auto& normal_paras = normal.paragraph_ids;
    auto candidate = [this](uint32_t id) {
      return words_[id].size() <= kMaxCandidateTokenBytes;  // tokens are never empty
    };
    start_.assign(words_.size() + 1, 0);
    for (const auto& ids : normal_paras)
      for (uint32_t id : ids)
        if (candidate(id)) ++start_[id + 1];
    for (size_t id = 0; id < words_.size(); ++id) start_[id + 1] += start_[id];
    postings_.resize(start_.back());
    fill_.assign(start_.begin(), start_.end() - 1);
    for (size_t n = 0; n < normal_paras.size(); ++n)
      for (uint32_t id : normal_paras[n])
        if (candidate(id)) postings_[fill_[id]++] = static_cast<uint32_t>(n);
  }

  // The same postings read from the Xapian index (which holds the tokens of at most
  // kMaxCandidateTokenBytes). An index that disagrees with the article (a paragraph or token it
  // does not have, or paragraphs missing) is an error, never a silently smaller candidate set.
  Status XapianPostings(const ArticleSide& normal) {
    const size_t paragraphs = normal.paragraph_ids.size();
    bool agrees = true;
    uint32_t documents = 0;
    token_paragraph_.clear();
    std::unique_lock<std::mutex> lock(*index_mutex_);
    RETURN_IF_ERROR(index_->ForEachArticleToken(
        normal_ed_, normal.article.page_id(),
        [&](uint32_t p, std::string_view token) {
          const uint32_t provisional = provisional_.Find(token);
          if (p >= paragraphs || provisional == PairVocabulary::kEmpty) {
            agrees = false;
            return;
          }
          token_paragraph_.emplace_back(final_id_[provisional], p);
        },
        &documents));
    lock.unlock();
    // The index must hold exactly the article's postings: each paragraph's tokens (of at most
    // kMaxCandidateTokenBytes), no more, no fewer. Compared paragraph by paragraph, in (paragraph,
    // token) order, which is also the order the postings below need (paragraphs ascending).
    std::sort(token_paragraph_.begin(), token_paragraph_.end(), [](auto a, auto b) {
      return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    size_t k = 0;
    for (uint32_t p = 0; agrees && p < paragraphs; ++p) {
      expected_.clear();
      for (uint32_t id : normal.paragraph_ids[p])
        if (words_[id].size() <= kMaxCandidateTokenBytes) expected_.push_back(id);
      std::sort(expected_.begin(), expected_.end());
      for (uint32_t id : expected_) {
        if (k == token_paragraph_.size() || token_paragraph_[k] != std::make_pair(id, p)) {
          agrees = false;
          break;
        }
        ++k;
      }
    }
    if (k != token_paragraph_.size()) agrees = false;
    if (!agrees || documents != paragraphs)
      return Status::IOError(IndexDir(store_->dir()) +
                             ": the paragraph index disagrees with the store on normal page " +
                             std::to_string(normal.article.page_id()) +
                             " (remove the directory: align rebuilds it)");
    start_.assign(words_.size() + 1, 0);
    for (auto [id, p] : token_paragraph_) ++start_[id + 1];
    for (size_t id = 0; id < words_.size(); ++id) start_[id + 1] += start_[id];
    postings_.resize(start_.back());
    fill_.assign(start_.begin(), start_.end() - 1);
    for (auto [id, p] : token_paragraph_) postings_[fill_[id]++] = p;
    return Status::OK();
  }

  // Whether the dynamic program of simple paragraph `s` against its normal paragraphs would
  // have more cells than options_.max_dp_cells (its memory and time are O(n·m)).
  bool OverDpLimit(const ArticleSide& normal, const ArticleSide& simple, size_t s,
                   const std::vector<uint32_t>& assigned) const {
    if (options_.max_dp_cells == 0) return false;
    uint64_t n = 0;
    for (uint32_t p : assigned) n += normal.sentence_vectors[p].size();
    uint64_t m = simple.sentence_vectors[s].size();
    return m > 0 && n > options_.max_dp_cells / m;
  }

  // The sentence alignment of simple paragraph `s` against its assigned normal paragraphs
  // (their sentences concatenated in order), into `pp`.
  void AlignParagraph(ArticleSide& normal, ArticleSide& simple, uint32_t s,
                      const std::vector<uint32_t>& assigned,
                      const std::vector<std::pair<uint32_t, double>>& cosines,
                      pb::ParagraphPair* pp) {
    pp->set_simple_paragraph(s);
    std::vector<std::pair<uint32_t, uint32_t>> normal_pos;
    std::vector<const SparseVector*> normal_vecs, simple_vecs;
    for (uint32_t n : assigned) {
      pp->add_normal_paragraphs(n);
      for (auto& [nn, c] : cosines)
        if (nn == n) pp->add_cosines(c);
      for (size_t k = 0; k < normal.sentence_vectors[n].size(); ++k) {
        normal_pos.emplace_back(n, static_cast<uint32_t>(k));
        normal_vecs.push_back(&normal.sentence_vectors[n][k]);
      }
    }
    for (const auto& v : simple.sentence_vectors[s]) simple_vecs.push_back(&v);
    Eigen::MatrixXd sim;
    if (!options_.scorer) {
      sim = CosineMatrix(normal_vecs, simple_vecs);
    } else {
      sim.resize(static_cast<Eigen::Index>(normal_pos.size()), simple.sentence_vectors[s].size());
      for (size_t i = 0; i < normal_pos.size(); ++i)
        for (size_t j = 0; j < simple.sentence_vectors[s].size(); ++j)
          sim(i, j) = SentenceSim(normal, normal_pos[i].first, normal_pos[i].second, simple, s,
                                  static_cast<uint32_t>(j));
    }
    SentenceAlignment sa = AlignSentences(sim, options_.skip_penalty);
    pp->set_skipped_normal(static_cast<uint32_t>(sa.skipped_normal));
    pp->set_skipped_simple(static_cast<uint32_t>(sa.skipped_simple));
    for (const auto& ap : sa.pairs) {
      auto [np, ns] = normal_pos[ap.normal];
      AddSentencePair(np, ns, s, static_cast<uint32_t>(ap.simple), ap.similarity,
                      static_cast<pb::Operation>(ap.op),
                      normal.article.paragraphs(np).sentences(ns),
                      simple.article.paragraphs(s).sentences(ap.simple), pp);
    }
    LabelPairs(normal, simple, pp);
  }

  // The pair's vocabulary with df and idf of each token, then its TF-IDF vectors.
  Status BuildVectors(ArticleSide* normal, ArticleSide* simple) {
    TokenizeSides(normal, simple);
    RETURN_IF_ERROR(LoadDocumentFrequencies());
    idf_.resize(words_.size());
    for (uint32_t id = 0; id < words_.size(); ++id) idf_[id] = Idf(df_[id]);
    label_idf_.clear();
    for (ArticleSide* side : {normal, simple}) {
      const size_t paras = side->paragraph_ids.size();
      side->paragraph_vectors.resize(paras);
      side->sentence_vectors.resize(paras);
      side->sentence_tokens.resize(paras);
      for (size_t p = 0; p < paras; ++p) {
        entries_.clear();
        for (size_t i = 0; i < side->paragraph_ids[p].size(); ++i)
          entries_.emplace_back(side->paragraph_ids[p][i],
                                side->paragraph_counts[p][i] * idf_[side->paragraph_ids[p][i]]);
        std::sort(entries_.begin(), entries_.end());
        ToVector(&side->paragraph_vectors[p]);
        const uint32_t sentences = side->first_sentence[p + 1] - side->first_sentence[p];
        side->sentence_vectors[p].resize(sentences);
        side->sentence_tokens[p].clear();
        for (uint32_t k = 0; k < sentences; ++k) {
          const uint32_t f = side->first_sentence[p] + k;
          SentenceVector(*side, side->sentence_begin[f], side->sentence_begin[f + 1],
                         &side->sentence_vectors[p][k]);
          if (options_.scorer) side->sentence_tokens[p].push_back(SortedBag(*side, f));
        }
      }
      side->label_sentences.resize(side->sentence_begin.size() - 1);
      side->label_made.assign(side->sentence_begin.size() - 1, 0);
    }
    return Status::OK();
  }

  // Tokenizes every sentence of both articles and gives the tokens the pair's ids (words_).
  // Ids are given in order of first appearance in each paragraph's distinct tokens sorted
  // bytewise, the normal article first: the order in which the TF-IDF sums run, so vectors and
  // cosines are the same as IdfTable's, bit for bit. Tokens first get provisional ids in text
  // order (one hash lookup each), so that only each paragraph's distinct tokens are sorted.
  void TokenizeSides(ArticleSide* normal, ArticleSide* simple) {
    provisional_.Clear();
    for (ArticleSide* side : {normal, simple}) {
      side->tokens.Clear();
      side->first_sentence.clear();
      side->sentence_begin.clear();
      for (const auto& para : side->article.paragraphs()) {
        side->first_sentence.push_back(static_cast<uint32_t>(side->sentence_begin.size()));
        for (const auto& sentence : para.sentences()) {
          side->sentence_begin.push_back(static_cast<uint32_t>(side->tokens.size()));
          TokenizeInto(sentence, &side->tokens);
        }
      }
      side->first_sentence.push_back(static_cast<uint32_t>(side->sentence_begin.size()));
      side->sentence_begin.push_back(static_cast<uint32_t>(side->tokens.size()));
      side->token_ids.resize(side->tokens.size());
      for (size_t i = 0; i < side->tokens.size(); ++i)
        side->token_ids[i] = provisional_.Id(side->tokens[i]);
    }
    const size_t n = provisional_.size();
    final_id_.assign(n, PairVocabulary::kEmpty);
    stamp_.assign(n, 0);  // provisional and final ids number the same tokens
    stamp_count_ = 0;
    count_.resize(n);
    words_.clear();
    for (ArticleSide* side : {normal, simple}) {
      const size_t paras = side->first_sentence.size() - 1;
      side->paragraph_ids.resize(paras);
      side->paragraph_counts.resize(paras);
      for (size_t p = 0; p < paras; ++p) {
        const uint32_t stamp = ++stamp_count_;
        distinct_.clear();
        const uint32_t begin = side->sentence_begin[side->first_sentence[p]];
        const uint32_t end = side->sentence_begin[side->first_sentence[p + 1]];
        for (uint32_t i = begin; i < end; ++i) {
          const uint32_t id = side->token_ids[i];
          if (stamp_[id] != stamp) {
            stamp_[id] = stamp;
            count_[id] = 0;
            distinct_.push_back(id);
          }
          ++count_[id];
        }
        std::sort(distinct_.begin(), distinct_.end(), [this](uint32_t a, uint32_t b) {
          // Prefixes first: the bytewise comparison of the texts is needed only between
          // tokens with the same 8 first bytes.
          const uint64_t pa = provisional_.prefix(a), pb = provisional_.prefix(b);
          return pa != pb ? pa < pb : provisional_.token(a) < provisional_.token(b);
        });
        auto& ids = side->paragraph_ids[p];
        auto& counts = side->paragraph_counts[p];
        ids.clear();
        counts.clear();
        for (uint32_t id : distinct_) {
          if (final_id_[id] == PairVocabulary::kEmpty) {
            final_id_[id] = static_cast<uint32_t>(words_.size());
            words_.push_back(provisional_.token(id));
          }
          ids.push_back(final_id_[id]);
          counts.push_back(count_[id]);
        }
      }
    }
    for (ArticleSide* side : {normal, simple})
      for (uint32_t& id : side->token_ids) id = final_id_[id];
  }

  // ln(N / df), or 0 when no paragraph has the token. Most tokens' document frequencies are
  // small, and N is fixed for the run: those logarithms are computed once.
  double Idf(int64_t df) {
    if (df <= 0 || n_ <= 0) return 0.0;
    auto compute = [&] { return std::log(static_cast<double>(n_) / static_cast<double>(df)); };
    if (df >= kIdfCached) return compute();
    if (idf_by_df_.empty()) idf_by_df_.assign(kIdfCached, std::nan(""));
    double& idf = idf_by_df_[static_cast<size_t>(df)];
    if (std::isnan(idf)) idf = compute();
    return idf;
  }
  static constexpr int64_t kIdfCached = 1 << 16;

  // TF-IDF vector of tokens [begin, end) of `side`: weight = count · idf, ids ascending, zero
  // weights left out (as IdfTable::Vector).
  void SentenceVector(const ArticleSide& side, uint32_t begin, uint32_t end, SparseVector* v) {
    const uint32_t stamp = ++stamp_count_;
    distinct_.clear();
    for (uint32_t i = begin; i < end; ++i) {
      const uint32_t id = side.token_ids[i];
      if (stamp_[id] != stamp) {
        stamp_[id] = stamp;
        count_[id] = 0;
        distinct_.push_back(id);
      }
      ++count_[id];
    }
    std::sort(distinct_.begin(), distinct_.end());
    entries_.clear();
    for (uint32_t id : distinct_) entries_.emplace_back(id, count_[id] * idf_[id]);
    ToVector(v);
  }

  // entries_ (ids ascending) as a vector, zero weights left out.
  void ToVector(SparseVector* v) {
    v->ids.clear();
    v->weights.clear();
    double sq = 0;
    for (auto& [id, w] : entries_) {
      if (w == 0) continue;
      v->ids.push_back(id);
      v->weights.push_back(w);
      sq += w * w;
    }
    v->norm = std::sqrt(sq);
  }

  // The tokens of flat sentence f, sorted bytewise, each as often as it occurs.
  static Tokens SortedBag(const ArticleSide& side, uint32_t f) {
    Tokens bag;
    for (uint32_t i = side.sentence_begin[f]; i < side.sentence_begin[f + 1]; ++i)
      bag.emplace_back(side.tokens[i]);
    std::sort(bag.begin(), bag.end());
    return bag;
  }

  // df_[id] for every token of the pair (both editions summed); the store is read only for
  // tokens not met in earlier pairs (document frequencies do not change while aligning).
  Status LoadDocumentFrequencies() {
    df_.resize(words_.size());
    known_bits_.assign(words_.size(), kBitsUnknown);
    if (all_df_) {
      for (uint32_t id = 0; id < words_.size(); ++id) {
        const RunFrequencies::Entry* e = all_df_->Find(words_[id]);
        df_[id] = e ? e->df : 0;
        if (e) known_bits_[id] = e->bits;
      }
      return Status::OK();
    }
    missing_.clear();
    missing_ids_.clear();
    for (uint32_t id = 0; id < words_.size(); ++id) {
      auto it = df_cache_.find(words_[id]);
      if (it != df_cache_.end()) {
        df_[id] = it->second;
      } else {
        missing_.emplace_back(words_[id]);
        missing_ids_.push_back(id);
      }
    }
    if (missing_.empty()) return Status::OK();
    RETURN_IF_ERROR(store_->DocumentFrequencies(normal_ed_, missing_, &df_normal_));
    RETURN_IF_ERROR(store_->DocumentFrequencies(simple_ed_, missing_, &df_simple_));
    if (df_cache_.size() + missing_.size() > df_cache_entries_) df_cache_.clear();  // bounded
    for (size_t k = 0; k < missing_.size(); ++k) {
      df_[missing_ids_[k]] = df_normal_[k] + df_simple_[k];
      df_cache_.emplace(std::move(missing_[k]), df_[missing_ids_[k]]);
    }
    return Status::OK();
  }

  Store* store_;
  const AlignOptions& options_;
  uint32_t normal_ed_, simple_ed_;
  int64_t n_;
  AlignSummary summary_;
  // Document frequencies (both editions summed) of tokens met so far by this aligner.
  size_t df_cache_entries_;
  DfMap df_cache_;
  const RunFrequencies* all_df_ = nullptr;  // every document frequency, when the run read them all
  // The pair being aligned, and buffers reused from pair to pair.
  PairVocabulary provisional_;           // the pair's tokens, in text order
  std::vector<std::string_view> words_;  // the pair's tokens by final id
  // stamp_[id] == a stamp: id was met in the paragraph or sentence being counted.
  std::vector<uint32_t> final_id_, stamp_, count_, distinct_;
  uint32_t stamp_count_ = 0;
  std::vector<uint8_t> label_bits_;  // LabelTokenBits by id, or kBitsUnknown
  std::vector<uint8_t> known_bits_;  // the same, as far as the run's frequencies hold them
  static constexpr uint8_t kBitsUnknown = 0x80;
  std::vector<int64_t> df_, df_normal_, df_simple_;
  std::vector<double> idf_, label_idf_;
  std::vector<double> idf_by_df_;  // Idf's values by df, NaN until computed
  std::vector<std::string> missing_;
  std::vector<uint32_t> missing_ids_;
  std::vector<std::pair<uint32_t, double>> entries_;
  std::vector<uint32_t> start_, fill_, postings_, candidates_;
  ParagraphIndex* index_ = nullptr;  // see ReadCandidatesFrom
  std::mutex* index_mutex_ = nullptr;
  std::vector<std::pair<uint32_t, uint32_t>> token_paragraph_;  // (token id, paragraph)
  std::vector<uint32_t> expected_;  // a normal paragraph's token ids, to check the index
  std::vector<const LabelSentence*> rows_[2];
  SparseVector joined_[2];  // the joined sides of an operation (LabelPairs)
  LabelScratch label_scratch_;
  ArticleSide normal_, simple_;
  pb::AlignmentRecord record_;
};

Status CheckOptions(const AlignOptions& options) {
  if (options.normal == options.simple)
    return Status::InvalidArgument("--normal and --simple name the same edition");
  if (!(options.paragraph_threshold >= 0 && options.paragraph_threshold <= 1))
    return Status::InvalidArgument("--paragraph-threshold must be in [0, 1]");
  if (!(options.skip_penalty >= 0)) return Status::InvalidArgument("--skip-penalty must be ≥ 0");
  if (!(options.max_idf_drift >= 0)) return Status::InvalidArgument("--max-idf-drift must be ≥ 0");
  if (options.threads < 0) return Status::InvalidArgument("--threads must be ≥ 0");
  if (options.similarity != SimilarityMeasure::kTfidf && !options.scorer)
    return Status::InvalidArgument(std::string("--similarity ") +
                                   SimilarityMeasureName(options.similarity) +
                                   " needs --vectors FILE");
  return Status::OK();
}

// A simple title and the two articles it pairs.
struct TitlePair {
  std::string title;  // normalized: the record's name
  uint64_t normal_id, simple_id;
};

// Title pairs: each simple title looked up among the normal titles. Memory holds the pairs,
// not the normal edition's titles (millions for English Wikipedia).
Status PairTitles(Store* store, const AlignOptions& options, uint32_t normal_ed, uint32_t simple_ed,
                  std::vector<TitlePair>* pairs) {
  return store->MatchTitles(simple_ed, normal_ed,
                            [&](const std::string& t, uint64_t id, const uint64_t* normal) {
                              uint64_t normal_id = normal ? *normal : 0;
                              Status found = normal ? Status::OK() : Status::NotFound("");
                              if (found.IsNotFound() && options.follow_redirects) {
                                // The simple title redirects, in the normal edition, to a
                                // differently named article.
                                pb::Redirect r;
                                if (store->GetRedirect(normal_ed, t, &r).ok())
                                  found = store->FindArticle(normal_ed, r.target(), &normal_id);
                              }
                              if (found.ok())
                                pairs->push_back({t, normal_id, id});
                              else if (!found.IsNotFound())
                                return found;
                              return Status::OK();
                            });
}

pb::AlignParams ParamsOf(const AlignOptions& options) {
  pb::AlignParams params;
  params.set_mode(AlignModeName(options.mode));
  params.set_follow_redirects(options.follow_redirects);
  params.set_similarity(SimilarityMeasureName(options.similarity));
  if (options.mode == AlignMode::kCosterKauchak) {
    params.set_paragraph_threshold(options.paragraph_threshold);
    params.set_skip_penalty(options.skip_penalty);
  } else {
    params.set_pair_threshold(options.pair_threshold);
  }
  if (options.similarity != SimilarityMeasure::kTfidf) {
    params.set_theta(options.theta);
    params.set_vectors(options.vectors);
    params.set_lexicon(options.lexicon);
  }
  return params;
}

// What became of one title pair; computed on any thread, applied in title order.
struct PairOutcome {
  enum class Kind { kKept, kRemoved, kAligned };
  Status status;
  Kind kind = Kind::kAligned;
  uint32_t flags = 0;  // kRemoved: the article flags
  // kAligned: the serialized record and keep record; kKept: the keep record to add, when the
  // record has none yet (an older database gains them as its records are kept).
  std::string record, keep;
  uint64_t paragraph_pairs = 0, sentence_pairs = 0;  // kKept, kAligned: the record's counts
};

// What decides whether a later run may keep a record (pb::AlignmentKeep), from the record.
pb::AlignmentKeep KeepOf(const pb::AlignmentRecord& r, const std::string& params_bytes,
                         uint64_t paragraph_pairs, uint64_t sentence_pairs) {
  pb::AlignmentKeep k;
  k.set_version(kAlignmentKeepVersion);
  k.set_record_version(r.version());
  k.set_normal_page_id(r.normal_page_id());
  k.set_simple_page_id(r.simple_page_id());
  k.set_normal_revision(r.normal_revision());
  k.set_simple_revision(r.simple_revision());
  k.set_normal_content_hash(r.normal_content_hash());
  k.set_simple_content_hash(r.simple_content_hash());
  k.set_params(params_bytes);
  k.set_paragraphs_total(r.paragraphs_total());
  k.set_paragraph_pairs(paragraph_pairs);
  k.set_sentence_pairs(sentence_pairs);
  return k;
}

// One align run over the title pairs of an edition pair: pairs are decided (kept, removed or
// aligned) on `threads` threads in rounds, and their outcomes applied in title order, so the
// records, the summary and the writes are those of one thread.
class AlignRun {
 public:
  AlignRun(Store* store, const AlignOptions& options, uint32_t normal_ed, uint32_t simple_ed,
           int64_t total_paragraphs, uint64_t run_id, AlignSummary* summary)
      : store_(store),
        options_(options),
        normal_ed_(normal_ed),
        simple_ed_(simple_ed),
        total_paragraphs_(total_paragraphs),
        run_id_(run_id),
        summary_(summary),
        params_(ParamsOf(options)),
        params_bytes_(params_.SerializeAsString()),
        writer_(store->NewAlignmentWriter(normal_ed, simple_ed)),
        articles_fit_cache_(store->ArticlesFitInBlockCache()) {
    size_t threads = options.threads > 0 ? static_cast<size_t>(options.threads)
                                         : std::max(1u, std::thread::hardware_concurrency());
    for (size_t t = 0; t < threads; ++t)
      aligners_.push_back(std::make_unique<PairAligner>(store, options, normal_ed, simple_ed,
                                                        total_paragraphs,
                                                        PairAligner::kDfCacheEntries / threads));
  }

  // The aligners read paragraph candidates from readers of `index`, one per aligner up to
  // kMaxIndexReaders (each holds open files), then shared in turn under a mutex: a Xapian
  // database object is not safe to use from two threads at once.
  Status ReadCandidatesFrom(ParagraphIndex* index) {
    const size_t n = std::min(aligners_.size(), kMaxIndexReaders);
    readers_.resize(n);
    reader_mutexes_ = std::make_unique<std::mutex[]>(n);
    for (auto& reader : readers_) RETURN_IF_ERROR(index->NewReader(&reader));
    for (size_t k = 0; k < aligners_.size(); ++k)
      aligners_[k]->ReadCandidatesFrom(readers_[k % n].get(), &reader_mutexes_[k % n]);
    return Status::OK();
  }

  ~AlignRun() {
    if (df_reader_.joinable()) df_reader_.join();
  }

  // Before the title pairs are known (at most `max_pairs`, the simple edition's articles):
  // whether stored records may be kept, and, when every pair will be aligned, the reading of
  // every document frequency started on a thread of its own, beside the pairing of titles (the
  // two take about as long; Run uses what was read only if the pairs are many enough).
  Status Prepare(uint64_t max_pairs) {
    // A first align of the edition pair (no pairing summary yet) has no records to keep, but
    // those of a run killed before its summary, which are aligned again alike.
    pb::PairingSummary before;
    Status bs = store_->GetPairingSummary(options_.normal, options_.simple, &before);
    if (!bs.ok() && !bs.IsNotFound() && bs.code() != Status::Code::kCorruption) return bs;
    keep_records_ = !options_.all && !bs.IsNotFound();
    // This run gives every record it writes or keeps a keep record; so did the one before when
    // its summary says so (older ones left records without).
    every_record_has_keep_ = bs.ok() && before.every_record_has_keep();
    if (keep_records_) return Status::OK();
    RETURN_IF_ERROR(store_->EstimateCountKeys(&df_keys_));
    if (df_keys_ > kMaxDfRead || df_keys_ > 1000 * max_pairs) return Status::OK();
    df_read_ = true;
    if (aligners_.size() > 1) {  // --threads 1 starts no other thread
      try {
        df_reader_ = std::thread([this] { df_status_ = ReadAllDocumentFrequenciesNoThrow(); });
        return Status::OK();
      } catch (const std::system_error&) {  // no thread: read here
      }
    }
    df_status_ = ReadAllDocumentFrequenciesNoThrow();
    return Status::OK();
  }

  Status Run(const std::vector<TitlePair>& pairs) {
    if (df_reader_.joinable()) df_reader_.join();
    RETURN_IF_ERROR(df_status_);
    // When the document frequencies are few against the pairs (each pair looks up a few hundred
    // tokens), having read them all costs less than looking them up pair by pair.
    if (df_read_ && df_keys_ <= 1000 * static_cast<uint64_t>(pairs.size()))
      for (auto& a : aligners_) a->SetAllDocumentFrequencies(&all_df_);
    RETURN_IF_ERROR(aligners_.size() > 1 ? RunOnWorkers(pairs) : RunHere(pairs));
    for (auto& a : aligners_) {
      summary_->dp_skipped += a->counts().dp_skipped;
      summary_->scored_pairs += a->counts().scored_pairs;
      summary_->bound_skipped += a->counts().bound_skipped;
    }
    RETURN_IF_ERROR(writer_->Flush());
    if (options_.progress) options_.progress(pairs.size(), pairs.size());
    // Records of pairs that no longer exist (a page deleted, renamed or now filtered).
    RETURN_IF_ERROR(writer_->DeleteExcept("", names_, &summary_->stale_removed,
                                          /*scan_keep_records=*/every_record_has_keep_));
    pb::PairingSummary ps = NewPairingSummary(options_.normal, options_.simple, params_, run_id_);
    ps.set_title_matches(summary_->title_matches);
    ps.set_removed(summary_->removed);
    for (auto& [k, v] : summary_->removed_by_reason) (*ps.mutable_removed_by_reason())[k] = v;
    ps.set_aligned(summary_->aligned);
    ps.set_finished_unix_ms(NowUnixMs());
    ps.set_every_record_has_keep(true);
    return writer_->PutPairingSummary(ps);
  }

 private:
  // Outcomes decided ahead of the one being applied, per worker thread: bounds the memory of
  // records waiting to be written.
  static constexpr size_t kWindowPerThread = 64;
  // At most this many document-frequency keys are read whole for a run (about 150 MB).
  static constexpr uint64_t kMaxDfRead = 2'000'000;

  Status ReadAllDocumentFrequenciesNoThrow() {
    try {
      for (uint32_t edition : {normal_ed_, simple_ed_})
        RETURN_IF_ERROR(store_->ForEachDocumentFrequency(
            edition, [this](const std::string& token, int64_t df) {
              all_df_.Add(token, df);
              return Status::OK();
            }));
      return Status::OK();
    } catch (const std::bad_alloc&) {
      return Status::IOError("out of memory reading the document frequencies");
    } catch (const std::exception& e) {  // nothing thrown may leave the reader's thread
      return Status::Internal(std::string("reading the document frequencies: ") + e.what());
    }
  }

  // Nothing thrown may leave a worker (it would abort the process): a pair that throws gets an
  // error status, out of memory as a resource error.
  void DecideNoThrow(PairAligner* aligner, const TitlePair& pair, PairOutcome* out) {
    try {
      out->status = DecidePair(aligner, pair, out);
    } catch (const std::bad_alloc&) {
      out->status = Status::IOError("out of memory aligning \"" + pair.title + "\"");
    } catch (const std::exception& e) {
      out->status = Status::Internal("aligning \"" + pair.title + "\": " + e.what());
    }
  }

  void Progress(size_t done, size_t total) {
    if (options_.progress && done % 256 == 0) options_.progress(done, total);
  }

  // One thread decides and applies each pair in turn.
  Status RunHere(const std::vector<TitlePair>& pairs) {
    PairOutcome out;
    for (size_t k = 0; k < pairs.size(); ++k) {
      out = PairOutcome();
      DecideNoThrow(aligners_[0].get(), pairs[k], &out);
      RETURN_IF_ERROR(Apply(pairs[k], &out));
      Progress(k + 1, pairs.size());
    }
    return Status::OK();
  }

  // Worker threads (one per aligner) decide the pairs in order, at most a window ahead of this
  // thread, which applies their outcomes in title order: the records, the summary and the
  // writes are those of one thread. When no worker can be started, this thread does it all.
  Status RunOnWorkers(const std::vector<TitlePair>& pairs) {
    const size_t n = pairs.size(), window = kWindowPerThread * aligners_.size();
    std::vector<PairOutcome> outcomes(window);       // pair k's in slot k % window
    std::vector<std::atomic<size_t>> ready(window);  // k + 1 once pair k's outcome is in
    std::atomic<size_t> next{0}, applied{0};
    std::atomic<bool> stop{false};
    auto work = [&](PairAligner* aligner) {
      for (size_t k; (k = next.fetch_add(1)) < n;) {
        for (size_t a = applied.load(); k >= a + window; a = applied.load()) applied.wait(a);
        if (stop.load()) return;
        PairOutcome& out = outcomes[k % window];
        out = PairOutcome();
        DecideNoThrow(aligner, pairs[k], &out);
        ready[k % window].store(k + 1, std::memory_order_release);
        ready[k % window].notify_one();
      }
    };
    std::vector<std::thread> threads;
    for (auto& aligner : aligners_) {
      try {
        threads.emplace_back(work, aligner.get());
      } catch (const std::exception&) {  // std::system_error, or bad_alloc growing the vector
        break;
      }
    }
    if (threads.empty()) return RunHere(pairs);
    Status s;
    // The workers must be joined whatever happens here: what Apply throws becomes a status.
    try {
      for (size_t k = 0; k < n && s.ok(); ++k) {
        std::atomic<size_t>& r = ready[k % window];
        for (size_t v = r.load(std::memory_order_acquire); v != k + 1;
             v = r.load(std::memory_order_acquire))
          r.wait(v, std::memory_order_acquire);
        s = Apply(pairs[k], &outcomes[k % window]);
        if (!s.ok()) break;
        applied.store(k + 1);
        applied.notify_all();
        Progress(k + 1, n);
      }
    } catch (const std::bad_alloc&) {
      s = Status::IOError("out of memory writing alignment records");
    } catch (const std::exception& e) {
      s = Status::Internal(std::string("writing alignment records: ") + e.what());
    }
    if (!s.ok()) {  // every worker stops
      stop.store(true);
      applied.store(SIZE_MAX / 2);
      applied.notify_all();
    }
    for (auto& t : threads) t.join();
    return s;
  }

  Status DecidePair(PairAligner* aligner, const TitlePair& pair, PairOutcome* out) {
    if (keep_records_) {
      bool kept = false;
      RETURN_IF_ERROR(KeepStored(pair, &kept, out));
      if (kept) {
        out->kind = PairOutcome::Kind::kKept;
        return Status::OK();
      }
    }
    return AlignPair(aligner, pair, out);
  }

  // Applies one decided pair: summary counts, the record written, its name kept.
  Status Apply(const TitlePair& pair, PairOutcome* out) {
    RETURN_IF_ERROR(out->status);
    if (out->kind == PairOutcome::Kind::kRemoved) {
      ++summary_->removed;
      for (const auto& reason : FlagNames(out->flags)) ++summary_->removed_by_reason[reason];
      return Status::OK();
    }
    ++(out->kind == PairOutcome::Kind::kKept ? summary_->kept : summary_->realigned);
    ++summary_->aligned;
    summary_->paragraph_pairs += out->paragraph_pairs;
    summary_->sentence_pairs += out->sentence_pairs;
    names_.insert(pair.title);
    if (out->kind == PairOutcome::Kind::kKept)
      return out->keep.empty() ? Status::OK() : writer_->PutKeep(pair.title, out->keep);
    Status s = writer_->PutWithKeep(pair.title, out->record, out->keep);
    std::string().swap(out->record);  // the round's memory goes as it is written
    return s;
  }

  // Keeps the stored record when both pages and the parameters are what it was computed from,
  // and the idf's N has not drifted. Reads the record's keep record (docs/storage.md, "Keep
  // records"); a record written without one is read whole.
  Status KeepStored(const TitlePair& pair, bool* kept, PairOutcome* out) {
    pb::AlignmentKeep k;
    Status ks = store_->GetAlignmentKeep(normal_ed_, simple_ed_, pair.title, &k);
    if (ks.IsNotFound() || ks.code() == Status::Code::kCorruption) {
      pb::AlignmentRecord old;
      Status gs = store_->GetAlignment(normal_ed_, simple_ed_, pair.title, &old);
      if (gs.IsNotFound() || gs.code() == Status::Code::kCorruption)
        return Status::OK();  // recomputed
      RETURN_IF_ERROR(gs);
      uint64_t sentence_pairs = 0;
      for (const auto& pp : old.paragraph_pairs()) sentence_pairs += pp.sentence_pairs_size();
      k = KeepOf(old, old.params().SerializeAsString(), old.paragraph_pairs_size(), sentence_pairs);
      out->keep = k.SerializeAsString();
    } else {
      RETURN_IF_ERROR(ks);
    }
    pb::PageState ns, ss;
    RETURN_IF_ERROR(store_->GetPageState(normal_ed_, pair.normal_id, &ns));
    RETURN_IF_ERROR(store_->GetPageState(simple_ed_, pair.simple_id, &ss));
    const double n = static_cast<double>(total_paragraphs_);
    const double old_n = static_cast<double>(k.paragraphs_total());
    // A record older than the rename of the mode field reads alike (same field number), so its
    // parameters compare equal byte for byte.
    if (k.normal_page_id() != pair.normal_id || k.simple_page_id() != pair.simple_id ||
        k.normal_revision() != ns.revision_id() || k.simple_revision() != ss.revision_id() ||
        k.normal_content_hash() != ns.content_hash() ||
        k.simple_content_hash() != ss.content_hash() || k.params() != params_bytes_ ||
        k.record_version() < kAlignmentRecordVersion ||  // no labels yet
        k.paragraphs_total() == 0 || !(std::fabs(n - old_n) <= options_.max_idf_drift * old_n))
      return Status::OK();
    *kept = true;
    if (ks.ok()) out->keep.clear();  // it has one
    out->paragraph_pairs = k.paragraph_pairs();
    out->sentence_pairs = k.sentence_pairs();
    return Status::OK();
  }

  Status AlignPair(PairAligner* aligner, const TitlePair& pair, PairOutcome* out) {
    ArticleSide& normal = aligner->normal_side();
    ArticleSide& simple = aligner->simple_side();
    // Each article is read once a run; its block is kept in the block cache only when all of
    // them fit, for the other articles of the block (Store::ArticlesFitInBlockCache).
    RETURN_IF_ERROR(store_->GetArticle(normal_ed_, pair.normal_id, &normal.article, nullptr,
                                       articles_fit_cache_));
    RETURN_IF_ERROR(store_->GetArticle(simple_ed_, pair.simple_id, &simple.article, nullptr,
                                       articles_fit_cache_));
    uint32_t flags = normal.article.flags() | simple.article.flags();
    if (flags) {
      out->kind = PairOutcome::Kind::kRemoved;
      out->flags = flags;
      return Status::OK();
    }
    pb::AlignmentRecord& record = aligner->record();
    record.Clear();
    const pb::Article& na = normal.article;
    const pb::Article& sa = simple.article;
    SetRecordHeader({options_.normal, na.title(), pair.normal_id, na.revision_id()},
                    {options_.simple, sa.title(), pair.simple_id, sa.revision_id()}, params_,
                    run_id_, &record);
    record.set_normal_paragraphs(static_cast<uint32_t>(na.paragraphs_size()));
    record.set_simple_paragraphs(static_cast<uint32_t>(sa.paragraphs_size()));
    record.set_normal_content_hash(na.content_hash());
    record.set_simple_content_hash(sa.content_hash());
    record.set_paragraphs_total(static_cast<uint64_t>(total_paragraphs_));
    if (options_.mode == AlignMode::kAllPairs)
      RETURN_IF_ERROR(aligner->AlignAllPairs(&normal, &simple, &record));
    else
      RETURN_IF_ERROR(aligner->Align(&normal, &simple, &record));
    out->kind = PairOutcome::Kind::kAligned;
    out->paragraph_pairs = record.paragraph_pairs_size();
    for (const auto& pp : record.paragraph_pairs()) out->sentence_pairs += pp.sentence_pairs_size();
    out->record = record.SerializeAsString();
    out->keep = KeepOf(record, params_bytes_, out->paragraph_pairs, out->sentence_pairs)
                    .SerializeAsString();
    return Status::OK();
  }

  Store* store_;
  const AlignOptions& options_;
  uint32_t normal_ed_, simple_ed_;
  int64_t total_paragraphs_;
  uint64_t run_id_;
  AlignSummary* summary_;
  const pb::AlignParams params_;
  const std::string params_bytes_;
  std::vector<std::unique_ptr<PairAligner>> aligners_;  // one per thread
  static constexpr size_t kMaxIndexReaders = 16;
  std::vector<std::unique_ptr<ParagraphIndex>> readers_;  // with kXapian
  std::unique_ptr<std::mutex[]> reader_mutexes_;          // one per reader
  std::unique_ptr<AlignmentWriter> writer_;
  const bool articles_fit_cache_;
  std::unordered_set<std::string> names_;  // records written or kept by this run
  // Every document frequency, read on `df_reader_` (Prepare) when every pair is aligned.
  RunFrequencies all_df_;
  std::thread df_reader_;
  Status df_status_;
  uint64_t df_keys_ = 0;
  bool df_read_ = false;
  bool keep_records_ = false;           // stored records may be kept: not --all, not a first align
  bool every_record_has_keep_ = false;  // see pb::PairingSummary.every_record_has_keep
};

}  // namespace

// ------------------------------------------------------------------ the run

Status Align(Store* store, ParagraphIndex* index, const AlignOptions& options, uint64_t run_id,
             AlignSummary* summary) {
  RETURN_IF_ERROR(CheckOptions(options));
  uint32_t normal_ed, simple_ed;
  RETURN_IF_ERROR(
      store->EditionId(options.normal, false, &normal_ed)
          .WithPrefix("normal edition (ingest it first, or name another with --normal)"));
  RETURN_IF_ERROR(
      store->EditionId(options.simple, false, &simple_ed)
          .WithPrefix("simple edition (ingest it first, or name another with --simple)"));

  if (options.candidates == CandidateSource::kXapian && !index)
    return Status::InvalidArgument("--candidates xapian needs the paragraph index");
  if (index) {
    RETURN_IF_ERROR(index->Apply(store, normal_ed, &summary->indexed_pages));
    summary->index_rebuilt = index->rebuilt() ? 1 : 0;
  }

  EditionCounts nc, sc;
  RETURN_IF_ERROR(store->GetEditionCounts(normal_ed, &nc));
  RETURN_IF_ERROR(store->GetEditionCounts(simple_ed, &sc));
  const int64_t total_paragraphs = nc.paragraphs + sc.paragraphs;

  AlignRun run(store, options, normal_ed, simple_ed, total_paragraphs, run_id, summary);
  RETURN_IF_ERROR(run.Prepare(static_cast<uint64_t>(std::max<int64_t>(sc.articles, 0))));
  std::vector<TitlePair> pairs;
  RETURN_IF_ERROR(PairTitles(store, options, normal_ed, simple_ed, &pairs));
  summary->title_matches = pairs.size();
  if (options.candidates == CandidateSource::kXapian)
    RETURN_IF_ERROR(run.ReadCandidatesFrom(index));
  return run.Run(pairs);
}

}  // namespace aligndb
