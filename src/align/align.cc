// Alignment (docs/method.md, Pairing to Filter): pairing, paragraph alignment, sentence alignment,
// records.
#include "align/align.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <unordered_set>

#include "align/label.h"
#include "align/operations.h"
#include "align/similarity.h"
#include "aligndb.pb.h"
#include "storage/records.h"
#include "text/text.h"
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
  return c;
}

// ------------------------------------------------------------------ one article pair

namespace {

struct ArticleSide {
  pb::Article article;
  pb::ArticleTerms terms;
  std::vector<SparseVector> paragraph_vectors;
  std::vector<std::vector<SparseVector>> sentence_vectors;
  // Bags of tokens of each sentence (for embedding measures), from the stored counts.
  std::vector<std::vector<Tokens>> sentence_tokens;
};

Tokens BagOf(const pb::TermVector& tv) {
  Tokens t;
  for (int k = 0; k < tv.tokens_size(); ++k)
    for (uint32_t c = 0; c < tv.counts(k); ++c) t.push_back(tv.tokens(k));
  return t;
}

class PairAligner {
 public:
  PairAligner(Store* store, ParagraphIndex* index, const AlignOptions& options, uint32_t normal_ed,
              uint32_t simple_ed, int64_t total_paragraphs, AlignSummary* summary)
      : store_(store),
        index_(index),
        options_(options),
        normal_ed_(normal_ed),
        simple_ed_(simple_ed),
        n_(total_paragraphs),
        summary_(summary) {}

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
                ++summary_->bound_skipped;
                continue;
              }
            }
            ++summary_->scored_pairs;
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
  void LabelPairs(const ArticleSide& normal, const ArticleSide& simple,
                  pb::ParagraphPair* pp) const {
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
      SparseVector a, b;
      for (auto [p, k] : ns) a = SumVectors(a, normal.sentence_vectors[p][k]);
      for (auto [p, k] : ss) b = SumVectors(b, simple.sentence_vectors[p][k]);
      return Cosine(a, b);
    };
    LabelParagraphPair(
        [this](const std::string& t) {
          auto it = label_idf_.find(t);
          return it == label_idf_.end() ? std::log(static_cast<double>(n_)) : it->second;
        },
        joined, pp);
  }

  // docs/method.md, Paragraph and Sentence alignment: paragraphs by TF-IDF cosine over the index's
  // candidates, then the sentence alignment of each simple paragraph against its normal paragraphs.
  Status Align(ArticleSide* normal, ArticleSide* simple, pb::AlignmentRecord* record) {
    RETURN_IF_ERROR(BuildVectors(normal, simple));
    std::vector<std::vector<std::pair<uint32_t, double>>> cosines;
    RETURN_IF_ERROR(ParagraphCosines(*normal, *simple, &cosines));
    auto assigned = AssignParagraphs(cosines, options_.paragraph_threshold);
    for (size_t s = 0; s < assigned.size(); ++s) {
      if (assigned[s].empty()) continue;
      if (OverDpLimit(*normal, *simple, s, assigned[s])) {
        ++summary_->dp_skipped;
        continue;
      }
      AlignParagraph(*normal, *simple, static_cast<uint32_t>(s), assigned[s], cosines[s],
                     record->add_paragraph_pairs());
    }
    return Status::OK();
  }

 private:
  // Per simple paragraph, (normal paragraph, cosine) of its candidates: every normal paragraph
  // that shares a token with it, read from the Xapian index.
  Status ParagraphCosines(const ArticleSide& normal, const ArticleSide& simple,
                          std::vector<std::vector<std::pair<uint32_t, double>>>* cosines) {
    const auto& simple_paras = simple.terms.paragraphs();
    cosines->assign(simple_paras.size(), {});
    std::vector<uint32_t> candidates;
    std::unordered_map<std::string, std::vector<uint32_t>> by_token;
    RETURN_IF_ERROR(index_->ArticleIndex(normal_ed_, normal.article.page_id(), &by_token));
    for (int s = 0; s < simple_paras.size(); ++s) {
      candidates.clear();
      for (const auto& tok : simple_paras[s].paragraph().tokens()) {
        auto it = by_token.find(tok);
        if (it != by_token.end())
          candidates.insert(candidates.end(), it->second.begin(), it->second.end());
      }
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
      for (uint32_t n : candidates) {
        if (n >= normal.paragraph_vectors.size())
          return Status::Corruption(store_->dir() + ": paragraph index is out of date for \"" +
                                    normal.article.title() +
                                    "\" (run `aligndb align --all` to rebuild it)");
        (*cosines)[s].emplace_back(
            n, Cosine(simple.paragraph_vectors[s], normal.paragraph_vectors[n]));
      }
    }
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
  void AlignParagraph(const ArticleSide& normal, const ArticleSide& simple, uint32_t s,
                      const std::vector<uint32_t>& assigned,
                      const std::vector<std::pair<uint32_t, double>>& cosines,
                      pb::ParagraphPair* pp) const {
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

  Status BuildVectors(ArticleSide* normal, ArticleSide* simple) {
    IdfTable idf;
    for (ArticleSide* side : {normal, simple})
      for (const auto& p : side->terms.paragraphs())
        for (const auto& t : p.paragraph().tokens()) idf.Id(t);
    // df(t) of both editions; the store is read only for tokens not seen in earlier pairs of
    // this run (document frequencies do not change while aligning).
    std::vector<std::string> missing;
    std::vector<uint32_t> missing_ids;
    label_idf_.clear();
    for (uint32_t id = 0; id < idf.size(); ++id) {
      auto it = df_cache_.find(idf.tokens()[id]);
      if (it != df_cache_.end()) {
        idf.SetIdf(id, n_, it->second);
        if (it->second > 0) label_idf_[idf.tokens()[id]] = idf.idf(id);
      } else {
        missing.push_back(idf.tokens()[id]);
        missing_ids.push_back(id);
      }
    }
    if (!missing.empty()) {
      std::vector<int64_t> df_normal, df_simple;
      RETURN_IF_ERROR(store_->DocumentFrequencies(normal_ed_, missing, &df_normal));
      RETURN_IF_ERROR(store_->DocumentFrequencies(simple_ed_, missing, &df_simple));
      if (df_cache_.size() + missing.size() > kDfCacheEntries) df_cache_.clear();  // bounded memory
      for (size_t k = 0; k < missing.size(); ++k) {
        int64_t df = df_normal[k] + df_simple[k];
        idf.SetIdf(missing_ids[k], n_, df);
        if (df > 0) label_idf_[missing[k]] = idf.idf(missing_ids[k]);
        df_cache_.emplace(std::move(missing[k]), df);
      }
    }
    for (ArticleSide* side : {normal, simple}) {
      side->paragraph_vectors.clear();
      side->sentence_vectors.clear();
      side->sentence_tokens.clear();
      for (const auto& p : side->terms.paragraphs()) {
        side->paragraph_vectors.push_back(Vec(&idf, p.paragraph()));
        std::vector<SparseVector> sv;
        std::vector<Tokens> st;
        for (const auto& s : p.sentences()) {
          sv.push_back(Vec(&idf, s));
          if (options_.scorer) st.push_back(BagOf(s));
        }
        side->sentence_vectors.push_back(std::move(sv));
        side->sentence_tokens.push_back(std::move(st));
      }
      if (side->terms.paragraphs_size() != side->article.paragraphs_size())
        return Status::Corruption(store_->dir() + ": postings do not match article \"" +
                                  side->article.title() + "\"");
    }
    return Status::OK();
  }

  static SparseVector Vec(IdfTable* idf, const pb::TermVector& tv) {
    return idf->Vector(std::vector<std::string>(tv.tokens().begin(), tv.tokens().end()),
                       std::vector<uint32_t>(tv.counts().begin(), tv.counts().end()));
  }

  Store* store_;
  ParagraphIndex* index_;
  const AlignOptions& options_;
  uint32_t normal_ed_, simple_ed_;
  int64_t n_;
  AlignSummary* summary_;
  // Document frequencies (both editions summed) of tokens met so far in this run.
  static constexpr size_t kDfCacheEntries = 4'000'000;
  std::unordered_map<std::string, int64_t> df_cache_;
  // idf of the tokens of the article pair being aligned that some stored paragraph has, for
  // the labels (a token without one weighs ln N).
  std::unordered_map<std::string, double> label_idf_;
};

Status CheckOptions(const AlignOptions& options) {
  if (options.normal == options.simple)
    return Status::InvalidArgument("--normal and --simple name the same edition");
  if (!(options.paragraph_threshold >= 0 && options.paragraph_threshold <= 1))
    return Status::InvalidArgument("--paragraph-threshold must be in [0, 1]");
  if (!(options.skip_penalty >= 0)) return Status::InvalidArgument("--skip-penalty must be ≥ 0");
  if (!(options.max_idf_drift >= 0)) return Status::InvalidArgument("--max-idf-drift must be ≥ 0");
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
  return store->ForEachTitle(simple_ed, [&](const std::string& t, uint64_t id) {
    uint64_t normal_id = 0;
    Status found = store->FindArticle(normal_ed, t, &normal_id);
    if (found.IsNotFound() && options.follow_redirects) {
      // The simple title redirects, in the normal edition, to a differently named article.
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
  }
  return params;
}

// One align run over the title pairs of an edition pair.
class AlignRun {
 public:
  AlignRun(Store* store, ParagraphIndex* index, const AlignOptions& options, uint32_t normal_ed,
           uint32_t simple_ed, int64_t total_paragraphs, uint64_t run_id, AlignSummary* summary)
      : store_(store),
        options_(options),
        normal_ed_(normal_ed),
        simple_ed_(simple_ed),
        total_paragraphs_(total_paragraphs),
        run_id_(run_id),
        summary_(summary),
        params_(ParamsOf(options)),
        params_bytes_(params_.SerializeAsString()),
        aligner_(store, index, options, normal_ed, simple_ed, total_paragraphs, summary),
        writer_(store->NewAlignmentWriter(normal_ed, simple_ed)) {}

  Status Run(const std::vector<TitlePair>& pairs) {
    uint64_t done = 0;
    for (const TitlePair& pair : pairs) {
      if (options_.progress && ++done % 200 == 0) options_.progress(done, pairs.size());
      bool kept = false;
      if (!options_.all) RETURN_IF_ERROR(KeepStored(pair, &kept));
      if (!kept) RETURN_IF_ERROR(AlignPair(pair));
    }
    RETURN_IF_ERROR(writer_->Flush());
    if (options_.progress) options_.progress(pairs.size(), pairs.size());
    // Records of pairs that no longer exist (a page deleted, renamed or now filtered).
    RETURN_IF_ERROR(writer_->DeleteExcept("", names_, &summary_->stale_removed));
    pb::PairingSummary ps = NewPairingSummary(options_.normal, options_.simple, params_, run_id_);
    ps.set_title_matches(summary_->title_matches);
    ps.set_removed(summary_->removed);
    for (auto& [k, v] : summary_->removed_by_reason) (*ps.mutable_removed_by_reason())[k] = v;
    ps.set_aligned(summary_->aligned);
    ps.set_finished_unix_ms(NowUnixMs());
    return writer_->PutPairingSummary(ps);
  }

 private:
  // Keeps the stored record when both pages and the parameters are what it was computed from,
  // and the idf's N has not drifted.
  Status KeepStored(const TitlePair& pair, bool* kept) {
    pb::AlignmentRecord old;
    Status gs = store_->GetAlignment(normal_ed_, simple_ed_, pair.title, &old);
    if (gs.IsNotFound() || gs.code() == Status::Code::kCorruption)
      return Status::OK();  // recomputed
    RETURN_IF_ERROR(gs);
    pb::PageState ns, ss;
    RETURN_IF_ERROR(store_->GetPageState(normal_ed_, pair.normal_id, &ns));
    RETURN_IF_ERROR(store_->GetPageState(simple_ed_, pair.simple_id, &ss));
    const double n = static_cast<double>(total_paragraphs_);
    const double old_n = static_cast<double>(old.paragraphs_total());
    if (old.normal_page_id() != pair.normal_id || old.simple_page_id() != pair.simple_id ||
        old.normal_revision() != ns.revision_id() || old.simple_revision() != ss.revision_id() ||
        old.normal_content_hash() != ns.content_hash() ||
        old.simple_content_hash() != ss.content_hash() || !SameParams(old) ||
        old.version() < kAlignmentRecordVersion ||  // no labels yet
        old.paragraphs_total() == 0 || !(std::fabs(n - old_n) <= options_.max_idf_drift * old_n))
      return Status::OK();
    *kept = true;
    ++summary_->kept;
    Count(old);
    names_.insert(pair.title);
    return Status::OK();
  }

  // Whether `old` was computed with this run's parameters. A record older than the rename of
  // the mode field reads alike (same field number), so it compares equal byte for byte.
  bool SameParams(const pb::AlignmentRecord& old) const {
    return old.params().SerializeAsString() == params_bytes_;
  }

  void Count(const pb::AlignmentRecord& r) {
    ++summary_->aligned;
    summary_->paragraph_pairs += r.paragraph_pairs_size();
    for (const auto& pp : r.paragraph_pairs()) summary_->sentence_pairs += pp.sentence_pairs_size();
  }

  Status AlignPair(const TitlePair& pair) {
    ArticleSide normal, simple;
    RETURN_IF_ERROR(store_->GetArticle(normal_ed_, pair.normal_id, &normal.article));
    RETURN_IF_ERROR(store_->GetArticle(simple_ed_, pair.simple_id, &simple.article));
    uint32_t flags = normal.article.flags() | simple.article.flags();
    if (flags) {
      ++summary_->removed;
      for (const auto& reason : FlagNames(flags)) ++summary_->removed_by_reason[reason];
      return Status::OK();
    }
    RETURN_IF_ERROR(store_->GetTerms(normal_ed_, pair.normal_id, &normal.terms));
    RETURN_IF_ERROR(store_->GetTerms(simple_ed_, pair.simple_id, &simple.terms));
    pb::AlignmentRecord record;
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
      RETURN_IF_ERROR(aligner_.AlignAllPairs(&normal, &simple, &record));
    else
      RETURN_IF_ERROR(aligner_.Align(&normal, &simple, &record));
    ++summary_->realigned;
    Count(record);
    names_.insert(pair.title);
    return writer_->Put(pair.title, record);
  }

  Store* store_;
  const AlignOptions& options_;
  uint32_t normal_ed_, simple_ed_;
  int64_t total_paragraphs_;
  uint64_t run_id_;
  AlignSummary* summary_;
  const pb::AlignParams params_;
  const std::string params_bytes_;
  PairAligner aligner_;
  std::unique_ptr<AlignmentWriter> writer_;
  std::unordered_set<std::string> names_;  // records written or kept by this run
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

  RETURN_IF_ERROR(index->Apply(store, normal_ed, &summary->indexed_pages));

  EditionCounts nc, sc;
  RETURN_IF_ERROR(store->GetEditionCounts(normal_ed, &nc));
  RETURN_IF_ERROR(store->GetEditionCounts(simple_ed, &sc));
  const int64_t total_paragraphs = nc.paragraphs + sc.paragraphs;

  std::vector<TitlePair> pairs;
  RETURN_IF_ERROR(PairTitles(store, options, normal_ed, simple_ed, &pairs));
  summary->title_matches = pairs.size();
  AlignRun run(store, index, options, normal_ed, simple_ed, total_paragraphs, run_id, summary);
  return run.Run(pairs);
}

}  // namespace aligndb
