#include "paraphrase/paraphrase.h"

#include <unicode/utf8.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "align/align.h"
#include "aligndb.pb.h"
#include "eval/eval.h"
#include "storage/records.h"
#include "text/text.h"

namespace aligndb {

void ParaphraseCounts::Add(const ParaphraseCounts& o) {
  candidates += o.candidates;
  identical += o.identical;
  length_ratio += o.length_ratio;
  duplicate += o.duplicate;
  too_distant += o.too_distant;
  few_shared_words += o.few_shared_words;
  kept += o.kept;
  capped_clusters += o.capped_clusters;
  skipped_sentences += o.skipped_sentences;
}

std::vector<std::string> ParaphraseWords(const std::string& sentence) {
  std::vector<std::string> w;
  Tokenize(sentence, &w);
  return w;
}

namespace {

std::string Joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += w + ' ';
  return s;
}

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Dense ids of distinct word sequences: a seen pair is then two integers rather than two copies
// of the sentences, so the seen set of a capped cluster stays small.
class SequenceIds {
 public:
  uint32_t Of(const std::vector<std::string>& words) {
    return ids_.try_emplace(Joined(words), static_cast<uint32_t>(ids_.size())).first->second;
  }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
};

// Either-order key of a pair of sequence ids.
uint64_t PairKey(uint32_t a, uint32_t b) {
  if (a > b) std::swap(a, b);
  return (static_cast<uint64_t>(a) << 32) | b;
}

// One sentence to compare: where it comes from, its words and the id of its word sequence.
struct Flat {
  size_t doc, sent;
  std::vector<std::string> words;
  uint32_t id;
};

void CountCap(size_t total, size_t kept, ParaphraseCounts* c) {
  if (kept >= total) return;
  ++c->capped_clusters;
  c->skipped_sentences += total - kept;
}

}  // namespace

std::vector<ParaphrasePair> L12Pairs(const std::vector<ClusterDocument>& docs, int max_distance,
                                     ParaphraseCounts* c, size_t max_sentences) {
  std::vector<Flat> all;
  SequenceIds ids;
  size_t total = 0;
  for (size_t d = 0; d < docs.size(); ++d)
    for (size_t s = 0; s < docs[d].sentences.size(); ++s, ++total) {
      if (max_sentences > 0 && all.size() >= max_sentences) continue;
      auto w = ParaphraseWords(docs[d].sentences[s]);
      uint32_t id = ids.Of(w);
      all.push_back({d, s, std::move(w), id});
    }
  CountCap(total, all.size(), c);
  std::vector<ParaphrasePair> out;
  std::unordered_set<uint64_t> seen;
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = i + 1; j < all.size(); ++j) {
      ++c->candidates;
      const Flat& a = all[i];
      const Flat& b = all[j];
      if (a.id == b.id) {
        ++c->identical;
        continue;
      }
      size_t shorter = std::min(a.words.size(), b.words.size()),
             longer = std::max(a.words.size(), b.words.size());
      if (3 * shorter < 2 * longer) {
        ++c->length_ratio;
        continue;
      }
      if (!seen.insert(PairKey(a.id, b.id)).second) {
        ++c->duplicate;
        continue;
      }
      size_t dist = WordEditDistance(a.words, b.words);
      if (dist > static_cast<size_t>(max_distance)) {
        ++c->too_distant;
        continue;
      }
      ++c->kept;
      out.push_back({a.doc, b.doc, a.sent, b.sent, static_cast<double>(dist)});
    }
  }
  return out;
}

namespace {

// An F2 sentence: its words, its distinct words of at least 4 code points, its sequence id.
struct F2Sentence {
  std::vector<std::string> words;
  std::set<std::string> long_words;
  uint32_t id;
};

// The first two sentences of each document, at most max_sentences in all (0: no cap).
std::vector<std::vector<F2Sentence>> F2Sentences(const std::vector<ClusterDocument>& docs,
                                                 size_t max_sentences, ParaphraseCounts* c) {
  std::vector<std::vector<F2Sentence>> out(docs.size());
  SequenceIds ids;
  size_t total = 0, kept = 0;
  for (size_t d = 0; d < docs.size(); ++d)
    for (size_t s = 0; s < std::min<size_t>(2, docs[d].sentences.size()); ++s, ++total) {
      if (max_sentences > 0 && kept >= max_sentences) continue;
      F2Sentence f;
      f.words = ParaphraseWords(docs[d].sentences[s]);
      for (auto& w : f.words)
        if (CodePoints(w) >= 4) f.long_words.insert(w);
      f.id = ids.Of(f.words);
      out[d].push_back(std::move(f));
      ++kept;
    }
  CountCap(total, kept, c);
  return out;
}

}  // namespace

std::vector<ParaphrasePair> F2Pairs(const std::vector<ClusterDocument>& docs, ParaphraseCounts* c,
                                    size_t max_sentences) {
  const auto sents = F2Sentences(docs, max_sentences, c);
  std::vector<ParaphrasePair> out;
  std::unordered_set<uint64_t> seen;
  for (size_t da = 0; da < docs.size(); ++da) {
    for (size_t db = da + 1; db < docs.size(); ++db) {
      for (size_t sa = 0; sa < sents[da].size(); ++sa) {
        for (size_t sb = 0; sb < sents[db].size(); ++sb) {
          ++c->candidates;
          const F2Sentence& a = sents[da][sa];
          const F2Sentence& b = sents[db][sb];
          size_t shared = 0;
          for (auto& w : a.long_words) shared += b.long_words.count(w);
          if (shared < 3) {
            ++c->few_shared_words;
            continue;
          }
          size_t shorter = std::min(a.words.size(), b.words.size()),
                 longer = std::max(a.words.size(), b.words.size());
          if (2 * shorter < longer) {
            ++c->length_ratio;
            continue;
          }
          if (!seen.insert(PairKey(a.id, b.id)).second) {
            ++c->duplicate;
            continue;
          }
          ++c->kept;
          out.push_back({da, db, sa, sb, static_cast<double>(shared)});
        }
      }
    }
  }
  return out;
}

std::map<std::string, uint64_t> ParaphraseSummary::AsCounts() const {
  std::map<std::string, uint64_t> m{{"clusters", clusters},
                                    {"documents", documents},
                                    {"records", records},
                                    {"candidates", counts.candidates},
                                    {"dropped_identical", counts.identical},
                                    {"dropped_length_ratio", counts.length_ratio},
                                    {"dropped_duplicate", counts.duplicate},
                                    {"dropped_too_distant", counts.too_distant},
                                    {"dropped_few_shared_words", counts.few_shared_words},
                                    {"pairs", counts.kept}};
  // The cap's counts appear only when it applied.
  if (counts.capped_clusters > 0) {
    m["capped_clusters"] = counts.capped_clusters;
    m["skipped_sentences"] = counts.skipped_sentences;
  }
  return m;
}

namespace {

// Clusters of one collection, documents in page-id order.
using Clusters = std::map<std::string, std::vector<ClusterDocument>>;

Status LoadClusters(Store* store, uint32_t edition, Clusters* clusters) {
  clusters->clear();
  return store->ForEachArticle(edition, [&](const pb::Article& a) {
    if (a.cluster().empty()) return Status::OK();
    ClusterDocument d;
    d.title = a.title();
    d.page_id = a.page_id();
    d.revision = a.revision_id();
    for (int p = 0; p < a.paragraphs_size(); ++p)
      for (int s = 0; s < a.paragraphs(p).sentences_size(); ++s) {
        d.sentences.push_back(a.paragraphs(p).sentences(s));
        d.positions.emplace_back(p, s);
      }
    (*clusters)[a.cluster()].push_back(std::move(d));
    return Status::OK();
  });
}

// The collection: `name` when given, or the only edition whose articles have clusters.
Status FindCollection(Store* store, std::string* name, uint32_t* edition, Clusters* clusters) {
  if (!name->empty()) {
    RETURN_IF_ERROR(store->EditionId(*name, false, edition));
    RETURN_IF_ERROR(LoadClusters(store, *edition, clusters));
    if (clusters->empty())
      return Status::InvalidArgument("edition \"" + *name + "\" holds no news clusters");
    return Status::OK();
  }
  std::map<std::string, uint32_t> editions;
  RETURN_IF_ERROR(store->Editions(&editions));
  for (auto& [n, e] : editions) {
    RETURN_IF_ERROR(LoadClusters(store, e, clusters));
    if (clusters->empty()) continue;
    if (!name->empty())
      return Status::InvalidArgument(
          "several collections hold clusters: choose one with --collection");
    *name = n;
    *edition = e;
  }
  if (name->empty())
    return Status::NotFound(store->dir() +
                            ": no news clusters stored (ingest cluster JSON lines first)");
  return LoadClusters(store, *edition, clusters);
}

// One record per document pair of a cluster, named method 0x1f cluster 0x1f title A 0x1f
// title B.
std::map<std::string, pb::AlignmentRecord> ClusterRecords(
    const std::string& collection, const std::string& cluster,
    const std::vector<ClusterDocument>& docs, const std::vector<ParaphrasePair>& pairs,
    const std::string& method, const pb::AlignParams& params, uint64_t run_id) {
  const pb::Operation op = method == "l12" ? pb::OP_L12 : pb::OP_F2;
  std::map<std::pair<size_t, size_t>, pb::AlignmentRecord> by_docs;
  for (const auto& p : pairs) {
    const auto& a = docs[p.doc_a];
    const auto& b = docs[p.doc_b];
    auto& r = by_docs[{p.doc_a, p.doc_b}];
    if (r.paragraph_pairs_size() == 0) {
      SetRecordHeader({collection, a.title, a.page_id, a.revision},
                      {collection, b.title, b.page_id, b.revision}, params, run_id, &r);
      r.add_paragraph_pairs();
    }
    AddSentencePair(a.positions[p.sent_a].first, a.positions[p.sent_a].second,
                    b.positions[p.sent_b].first, b.positions[p.sent_b].second, p.score, op,
                    a.sentences[p.sent_a], b.sentences[p.sent_b], r.mutable_paragraph_pairs(0));
  }
  std::map<std::string, pb::AlignmentRecord> named;
  for (auto& [k, r] : by_docs)
    named[method + '\x1f' + cluster + '\x1f' + r.normal_title() + '\x1f' + r.simple_title()] =
        std::move(r);
  return named;
}

}  // namespace

Status ExtractParaphrases(Store* store, const ParaphraseOptions& options, uint64_t run_id,
                          ParaphraseSummary* summary) {
  if (options.method != "l12" && options.method != "f2")
    return Status::InvalidArgument("--method must be l12 or f2");
  if (options.max_distance < 0) return Status::InvalidArgument("--max-distance must be ≥ 0");
  std::string name = options.collection;
  uint32_t ed = 0;
  Clusters clusters;
  RETURN_IF_ERROR(FindCollection(store, &name, &ed, &clusters));

  pb::AlignParams params;
  params.set_mode(options.method);
  if (options.method == "l12") params.set_pair_threshold(options.max_distance);
  auto writer = store->NewAlignmentWriter(ed, ed);
  // This method's earlier records go; the new ones replace them in the same batches.
  RETURN_IF_ERROR(writer->DeleteExcept(options.method + '\x1f', {}, nullptr));
  for (auto& [cluster, docs] : clusters) {
    ++summary->clusters;
    summary->documents += docs.size();
    ParaphraseCounts c;
    auto pairs = options.method == "l12"
                     ? L12Pairs(docs, options.max_distance, &c, options.max_cluster_sentences)
                     : F2Pairs(docs, &c, options.max_cluster_sentences);
    summary->counts.Add(c);
    for (auto& [record_name, r] :
         ClusterRecords(name, cluster, docs, pairs, options.method, params, run_id)) {
      RETURN_IF_ERROR(writer->Put(record_name, r));
      ++summary->records;
    }
  }
  pb::PairingSummary ps = NewPairingSummary(name, name, params, run_id);
  ps.set_title_matches(summary->clusters);
  ps.set_aligned(summary->records);
  return writer->PutPairingSummary(ps);
}

}  // namespace aligndb
