// Alignment (SPEC §4): pairing, paragraph alignment, sentence alignment, records.
#include "align/align.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <unordered_set>

#include "aligndb.pb.h"
#include "align/similarity.h"
#include "text/text.h"
#include "util/fault.h"
#include "storage/store_internal.h"

namespace aligndb {

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
  // sim(i, j) with SPEC's 1-based indices.
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

std::string AlignmentKey(uint32_t normal_edition, uint32_t simple_edition,
                         const std::string& title) {
  std::string k = EncodeEditionKey(normal_edition);
  AppendBigEndian32(&k, simple_edition);
  k.append(title);
  return k;
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

  // SPEC §5's corpus mode: every normal × simple sentence pair, kept at or above the threshold.
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
            pb::SentencePair* p = pp->add_sentence_pairs();
            p->set_normal_paragraph(np);
            p->set_normal_sentence(ns);
            p->set_simple_paragraph(sp);
            p->set_simple_sentence(ss);
            p->set_similarity(sim);
            p->set_op(pb::OP_ALL_PAIRS);
            const std::string& nt = normal->article.paragraphs(np).sentences(ns);
            const std::string& st = simple->article.paragraphs(sp).sentences(ss);
            p->set_identical(nt == st);
            p->set_normal_text(nt);
            p->set_simple_text(st);
          }
        }
      }
      if (pp)
        for (uint32_t np : normal_paras) pp->add_normal_paragraphs(np);
    }
    return Status::OK();
  }

  Status Align(ArticleSide* normal, ArticleSide* simple, pb::AlignmentRecord* record) {
    RETURN_IF_ERROR(BuildVectors(normal, simple));
    const auto& simple_paras = simple->terms.paragraphs();
    std::vector<std::vector<std::pair<uint32_t, double>>> cosines(simple_paras.size());
    std::vector<uint32_t> candidates;
    // The normal article's paragraphs by token, from the Xapian index: every normal paragraph
    // that shares a token with a simple paragraph is its candidate.
    std::unordered_map<std::string, std::vector<uint32_t>> by_token;
    RETURN_IF_ERROR(index_->ArticleIndex(normal_ed_, normal->article.page_id(), &by_token));
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
        if (n >= normal->paragraph_vectors.size())
          return Status::Corruption(store_->dir() + ": paragraph index is out of date for \"" +
                                    normal->article.title() +
                                    "\" (rebuild it with `aligndb reindex`)");
        cosines[s].emplace_back(n,
                                Cosine(simple->paragraph_vectors[s], normal->paragraph_vectors[n]));
      }
    }
    auto assigned = AssignParagraphs(cosines, options_.paragraph_threshold);
    for (int s = 0; s < simple_paras.size(); ++s) {
      if (assigned[s].empty()) continue;
      pb::ParagraphPair* pp = record->add_paragraph_pairs();
      pp->set_simple_paragraph(static_cast<uint32_t>(s));
      // Normal sentences: the assigned paragraphs' sentences, concatenated in order.
      std::vector<std::pair<uint32_t, uint32_t>> normal_pos;
      std::vector<const SparseVector*> normal_vecs, simple_vecs;
      for (uint32_t n : assigned[s]) {
        pp->add_normal_paragraphs(n);
        for (auto& [nn, c] : cosines[s])
          if (nn == n) pp->add_cosines(c);
        for (size_t k = 0; k < normal->sentence_vectors[n].size(); ++k) {
          normal_pos.emplace_back(n, static_cast<uint32_t>(k));
          normal_vecs.push_back(&normal->sentence_vectors[n][k]);
        }
      }
      for (const auto& v : simple->sentence_vectors[s]) simple_vecs.push_back(&v);
      Eigen::MatrixXd sim;
      if (!options_.scorer) {
        sim = CosineMatrix(normal_vecs, simple_vecs);
      } else {
        sim.resize(static_cast<Eigen::Index>(normal_pos.size()),
                   simple->sentence_vectors[s].size());
        for (size_t i = 0; i < normal_pos.size(); ++i)
          for (size_t j = 0; j < simple->sentence_vectors[s].size(); ++j)
            sim(i, j) = SentenceSim(*normal, normal_pos[i].first, normal_pos[i].second, *simple, s,
                                    static_cast<uint32_t>(j));
      }
      SentenceAlignment sa = AlignSentences(sim, options_.skip_penalty);
      pp->set_skipped_normal(static_cast<uint32_t>(sa.skipped_normal));
      pp->set_skipped_simple(static_cast<uint32_t>(sa.skipped_simple));
      for (const auto& ap : sa.pairs) {
        pb::SentencePair* sp = pp->add_sentence_pairs();
        auto [np, ns] = normal_pos[ap.normal];
        sp->set_normal_paragraph(np);
        sp->set_normal_sentence(ns);
        sp->set_simple_paragraph(static_cast<uint32_t>(s));
        sp->set_simple_sentence(static_cast<uint32_t>(ap.simple));
        sp->set_similarity(ap.similarity);
        sp->set_op(static_cast<pb::Operation>(ap.op));
        const std::string& nt = normal->article.paragraphs(np).sentences(ns);
        const std::string& st = simple->article.paragraphs(s).sentences(ap.simple);
        sp->set_identical(nt == st);
        sp->set_normal_text(nt);
        sp->set_simple_text(st);
      }
    }
    return Status::OK();
  }

 private:
  Status BuildVectors(ArticleSide* normal, ArticleSide* simple) {
    IdfTable idf;
    for (ArticleSide* side : {normal, simple})
      for (const auto& p : side->terms.paragraphs())
        for (const auto& t : p.paragraph().tokens()) idf.Id(t);
    // df(t) of both editions; the store is read only for tokens not seen in earlier pairs of
    // this run (document frequencies do not change while aligning).
    std::vector<std::string> missing;
    std::vector<uint32_t> missing_ids;
    for (uint32_t id = 0; id < idf.size(); ++id) {
      auto it = df_cache_.find(idf.tokens()[id]);
      if (it != df_cache_.end()) {
        idf.SetIdf(id, n_, it->second);
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
};

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// ------------------------------------------------------------------ the run

Status Align(Store* store, ParagraphIndex* index, const AlignOptions& options, uint64_t run_id,
             AlignSummary* summary) {
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

  // Title pairs: each simple title looked up among the normal titles. Memory holds the pairs,
  // not the normal edition's titles (millions for English Wikipedia).
  std::vector<std::tuple<std::string, uint64_t, uint64_t>> pairs;
  RETURN_IF_ERROR(store->ForEachTitle(simple_ed, [&](const std::string& t, uint64_t id) {
    uint64_t normal_id = 0;
    Status found = store->FindArticle(normal_ed, t, &normal_id);
    if (found.IsNotFound() && options.follow_redirects) {
      // The simple title redirects, in the normal edition, to a differently named article.
      pb::Redirect r;
      if (store->GetRedirect(normal_ed, t, &r).ok())
        found = store->FindArticle(normal_ed, r.target(), &normal_id);
    }
    if (found.ok())
      pairs.emplace_back(t, normal_id, id);
    else if (!found.IsNotFound())
      return found;
    return Status::OK();
  }));
  summary->title_matches = pairs.size();

  pb::AlignParams params;
  params.set_method(AlignModeName(options.mode));
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

  PairAligner aligner(store, index, options, normal_ed, simple_ed, total_paragraphs, summary);
  std::unordered_set<std::string> kept_keys;
  rocksdb::WriteBatch batch;
  auto flush = [&]() -> Status {
    if (batch.Count() == 0) return Status::OK();
    CrashPoint();
    Status s =
        FromRocks(store->db()->Write(WriteOpts(), &batch), store->dir() + ": write alignments");
    batch.Clear();
    CrashPoint();
    return s;
  };
  uint64_t done = 0;
  const std::string params_bytes = params.SerializeAsString();
  for (const auto& [title, normal_id, simple_id] : pairs) {
    if (options.progress && ++done % 200 == 0) options.progress(done, pairs.size());
    std::string key = AlignmentKey(normal_ed, simple_ed, title);
    if (!options.all) {
      // Keep the record when both pages and the parameters are what it was computed from.
      pb::AlignmentRecord old;
      rocksdb::PinnableSlice v;
      rocksdb::Status gs =
          store->db()->Get(rocksdb::ReadOptions(), store->cf(Cf::kAlignments), key, &v);
      if (gs.ok() && old.ParseFromArray(v.data(), static_cast<int>(v.size()))) {
        pb::PageState ns, ss;
        RETURN_IF_ERROR(store->GetPageState(normal_ed, normal_id, &ns));
        RETURN_IF_ERROR(store->GetPageState(simple_ed, simple_id, &ss));
        if (old.normal_page_id() == normal_id && old.simple_page_id() == simple_id &&
            old.normal_revision() == ns.revision_id() &&
            old.simple_revision() == ss.revision_id() &&
            old.normal_content_hash() == ns.content_hash() &&
            old.simple_content_hash() == ss.content_hash() &&
            old.params().SerializeAsString() == params_bytes && old.paragraphs_total() > 0 &&
            std::fabs(static_cast<double>(total_paragraphs) -
                      static_cast<double>(old.paragraphs_total())) <=
                options.max_idf_drift * static_cast<double>(old.paragraphs_total())) {
          ++summary->kept;
          ++summary->aligned;
          summary->paragraph_pairs += old.paragraph_pairs_size();
          for (const auto& pp : old.paragraph_pairs())
            summary->sentence_pairs += pp.sentence_pairs_size();
          kept_keys.insert(key);
          continue;
        }
      } else if (!gs.ok() && !gs.IsNotFound()) {
        return FromRocks(gs, store->dir() + ": alignments");
      }
    }
    ArticleSide normal, simple;
    RETURN_IF_ERROR(store->GetArticle(normal_ed, normal_id, &normal.article));
    RETURN_IF_ERROR(store->GetArticle(simple_ed, simple_id, &simple.article));
    uint32_t flags = normal.article.flags() | simple.article.flags();
    if (flags) {
      ++summary->removed;
      for (const auto& reason : FlagNames(flags)) ++summary->removed_by_reason[reason];
      continue;
    }
    RETURN_IF_ERROR(store->GetTerms(normal_ed, normal_id, &normal.terms));
    RETURN_IF_ERROR(store->GetTerms(simple_ed, simple_id, &simple.terms));
    pb::AlignmentRecord record;
    record.set_version(1);
    record.set_normal_edition(options.normal);
    record.set_simple_edition(options.simple);
    record.set_normal_title(normal.article.title());
    record.set_simple_title(simple.article.title());
    record.set_normal_page_id(normal_id);
    record.set_simple_page_id(simple_id);
    record.set_normal_revision(normal.article.revision_id());
    record.set_simple_revision(simple.article.revision_id());
    *record.mutable_params() = params;
    record.set_normal_paragraphs(static_cast<uint32_t>(normal.article.paragraphs_size()));
    record.set_simple_paragraphs(static_cast<uint32_t>(simple.article.paragraphs_size()));
    record.set_run_id(run_id);
    record.set_normal_content_hash(normal.article.content_hash());
    record.set_simple_content_hash(simple.article.content_hash());
    record.set_paragraphs_total(static_cast<uint64_t>(total_paragraphs));
    if (options.mode == AlignMode::kAllPairs)
      RETURN_IF_ERROR(aligner.AlignAllPairs(&normal, &simple, &record));
    else
      RETURN_IF_ERROR(aligner.Align(&normal, &simple, &record));
    ++summary->aligned;
    ++summary->realigned;
    summary->paragraph_pairs += record.paragraph_pairs_size();
    for (const auto& pp : record.paragraph_pairs())
      summary->sentence_pairs += pp.sentence_pairs_size();
    batch.Put(store->cf(Cf::kAlignments), key, record.SerializeAsString());
    kept_keys.insert(key);
    if (batch.GetDataSize() > (8u << 20) || (SmallBatches() && batch.Count() >= 4))
      RETURN_IF_ERROR(flush());
  }
  RETURN_IF_ERROR(flush());
  if (options.progress) options.progress(pairs.size(), pairs.size());

  // Records of pairs that no longer exist (a page deleted, renamed or now filtered).
  std::string prefix = AlignmentKey(normal_ed, simple_ed, "");
  {
    std::unique_ptr<rocksdb::Iterator> it(
        store->db()->NewIterator(rocksdb::ReadOptions(), store->cf(Cf::kAlignments)));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      if (!kept_keys.count(it->key().ToString())) {
        batch.Delete(store->cf(Cf::kAlignments), it->key());
        ++summary->stale_removed;
      }
    }
    RETURN_IF_ERROR(FromRocks(it->status(), store->dir() + ": scan alignments"));
  }
  RETURN_IF_ERROR(flush());

  pb::PairingSummary ps;
  ps.set_version(1);
  ps.set_normal_edition(options.normal);
  ps.set_simple_edition(options.simple);
  ps.set_title_matches(summary->title_matches);
  ps.set_removed(summary->removed);
  for (auto& [k, v] : summary->removed_by_reason) (*ps.mutable_removed_by_reason())[k] = v;
  ps.set_aligned(summary->aligned);
  *ps.mutable_params() = params;
  ps.set_run_id(run_id);
  ps.set_finished_unix_ms(NowMs());
  return store->PutMeta("pairing/" + options.normal + "/" + options.simple, ps.SerializeAsString());
}

}  // namespace aligndb
