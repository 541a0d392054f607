#include "paraphrase/paraphrase.h"

#include <unicode/utf8.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include "aligndb.pb.h"
#include "align/align.h"
#include "eval/eval.h"
#include "text/text.h"
#include "storage/store_internal.h"

namespace aligndb {

void ParaphraseCounts::Add(const ParaphraseCounts& o) {
  candidates += o.candidates;
  identical += o.identical;
  length_ratio += o.length_ratio;
  duplicate += o.duplicate;
  too_distant += o.too_distant;
  few_shared_words += o.few_shared_words;
  kept += o.kept;
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

// Either-order key of a sentence pair, by their words.
std::string PairKey(const std::string& a, const std::string& b) {
  return a < b ? a + '\x1f' + b : b + '\x1f' + a;
}

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

struct Flat {
  size_t doc, sent;
  std::vector<std::string> words;
  std::string joined;
};

}  // namespace

std::vector<ParaphrasePair> L12Pairs(const std::vector<ClusterDocument>& docs, int max_distance,
                                     ParaphraseCounts* c) {
  std::vector<Flat> all;
  for (size_t d = 0; d < docs.size(); ++d)
    for (size_t s = 0; s < docs[d].sentences.size(); ++s) {
      auto w = ParaphraseWords(docs[d].sentences[s]);
      all.push_back({d, s, w, Joined(w)});
    }
  std::vector<ParaphrasePair> out;
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = i + 1; j < all.size(); ++j) {
      ++c->candidates;
      const Flat& a = all[i];
      const Flat& b = all[j];
      if (a.joined == b.joined) {
        ++c->identical;
        continue;
      }
      size_t shorter = std::min(a.words.size(), b.words.size()),
             longer = std::max(a.words.size(), b.words.size());
      if (3 * shorter < 2 * longer) {
        ++c->length_ratio;
        continue;
      }
      if (!seen.insert(PairKey(a.joined, b.joined)).second) {
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

std::vector<ParaphrasePair> F2Pairs(const std::vector<ClusterDocument>& docs, ParaphraseCounts* c) {
  std::vector<ParaphrasePair> out;
  std::unordered_set<std::string> seen;
  for (size_t da = 0; da < docs.size(); ++da) {
    for (size_t db = da + 1; db < docs.size(); ++db) {
      for (size_t sa = 0; sa < std::min<size_t>(2, docs[da].sentences.size()); ++sa) {
        for (size_t sb = 0; sb < std::min<size_t>(2, docs[db].sentences.size()); ++sb) {
          ++c->candidates;
          auto wa = ParaphraseWords(docs[da].sentences[sa]);
          auto wb = ParaphraseWords(docs[db].sentences[sb]);
          std::set<std::string> la, lb;
          for (auto& w : wa)
            if (CodePoints(w) >= 4) la.insert(w);
          for (auto& w : wb)
            if (CodePoints(w) >= 4) lb.insert(w);
          size_t shared = 0;
          for (auto& w : la) shared += lb.count(w);
          if (shared < 3) {
            ++c->few_shared_words;
            continue;
          }
          size_t shorter = std::min(wa.size(), wb.size()), longer = std::max(wa.size(), wb.size());
          if (2 * shorter < longer) {
            ++c->length_ratio;
            continue;
          }
          if (!seen.insert(PairKey(Joined(wa), Joined(wb))).second) {
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
  return {{"clusters", clusters},
          {"documents", documents},
          {"records", records},
          {"candidates", counts.candidates},
          {"dropped_identical", counts.identical},
          {"dropped_length_ratio", counts.length_ratio},
          {"dropped_duplicate", counts.duplicate},
          {"dropped_too_distant", counts.too_distant},
          {"dropped_few_shared_words", counts.few_shared_words},
          {"pairs", counts.kept}};
}

Status ExtractParaphrases(Store* store, const ParaphraseOptions& options, uint64_t run_id,
                          ParaphraseSummary* summary) {
  if (options.method != "l12" && options.method != "f2")
    return Status::InvalidArgument("--method must be l12 or f2");
  if (options.max_distance < 0) return Status::InvalidArgument("--max-distance must be ≥ 0");
  // The collection: given, or the only edition whose articles have clusters.
  std::map<std::string, uint32_t> editions;
  RETURN_IF_ERROR(store->Editions(&editions));
  std::string name = options.collection;
  uint32_t ed = 0;
  // Clusters of the collection, documents in page-id order.
  std::map<std::string, std::vector<ClusterDocument>> clusters;
  auto load = [&](uint32_t e) {
    clusters.clear();
    return store->ForEachArticle(e, [&](const pb::Article& a) {
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
      clusters[a.cluster()].push_back(std::move(d));
      return Status::OK();
    });
  };
  if (!name.empty()) {
    RETURN_IF_ERROR(store->EditionId(name, false, &ed));
    RETURN_IF_ERROR(load(ed));
    if (clusters.empty())
      return Status::InvalidArgument("edition \"" + name + "\" holds no news clusters");
  } else {
    for (auto& [n, e] : editions) {
      RETURN_IF_ERROR(load(e));
      if (clusters.empty()) continue;
      if (!name.empty())
        return Status::InvalidArgument(
            "several collections hold clusters: choose one with --collection");
      name = n;
      ed = e;
    }
    if (name.empty())
      return Status::NotFound(store->dir() +
                              ": no news clusters stored (ingest cluster JSON lines first)");
    RETURN_IF_ERROR(load(ed));
  }

  pb::AlignParams params;
  params.set_method(options.method);
  if (options.method == "l12") params.set_pair_threshold(options.max_distance);
  const pb::Operation op = options.method == "l12" ? pb::OP_L12 : pb::OP_F2;
  const std::string prefix = AlignmentKey(ed, ed, options.method + '\x1f');

  rocksdb::WriteBatch batch;
  // This method's earlier records go; the new ones replace them in the same batches.
  {
    std::unique_ptr<rocksdb::Iterator> it(
        store->db()->NewIterator(rocksdb::ReadOptions(), store->cf(Cf::kAlignments)));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next())
      batch.Delete(store->cf(Cf::kAlignments), it->key());
    RETURN_IF_ERROR(FromRocks(it->status(), store->dir() + ": alignments"));
  }
  for (auto& [cluster, docs] : clusters) {
    ++summary->clusters;
    summary->documents += docs.size();
    ParaphraseCounts c;
    auto pairs =
        options.method == "l12" ? L12Pairs(docs, options.max_distance, &c) : F2Pairs(docs, &c);
    summary->counts.Add(c);
    // One record per document pair.
    std::map<std::pair<size_t, size_t>, pb::AlignmentRecord> records;
    for (const auto& p : pairs) {
      auto& r = records[{p.doc_a, p.doc_b}];
      if (r.paragraph_pairs_size() == 0) {
        const auto& a = docs[p.doc_a];
        const auto& b = docs[p.doc_b];
        r.set_version(1);
        r.set_normal_edition(name);
        r.set_simple_edition(name);
        r.set_normal_title(a.title);
        r.set_simple_title(b.title);
        r.set_normal_page_id(a.page_id);
        r.set_simple_page_id(b.page_id);
        r.set_normal_revision(a.revision);
        r.set_simple_revision(b.revision);
        *r.mutable_params() = params;
        r.set_run_id(run_id);
        r.add_paragraph_pairs();
      }
      const auto& a = docs[p.doc_a];
      const auto& b = docs[p.doc_b];
      pb::SentencePair* sp = r.mutable_paragraph_pairs(0)->add_sentence_pairs();
      sp->set_normal_paragraph(a.positions[p.sent_a].first);
      sp->set_normal_sentence(a.positions[p.sent_a].second);
      sp->set_simple_paragraph(b.positions[p.sent_b].first);
      sp->set_simple_sentence(b.positions[p.sent_b].second);
      sp->set_similarity(p.score);
      sp->set_op(op);
      sp->set_normal_text(a.sentences[p.sent_a]);
      sp->set_simple_text(b.sentences[p.sent_b]);
      sp->set_identical(a.sentences[p.sent_a] == b.sentences[p.sent_b]);
    }
    for (auto& [k, r] : records) {
      batch.Put(store->cf(Cf::kAlignments),
                prefix + cluster + '\x1f' + r.normal_title() + '\x1f' + r.simple_title(),
                r.SerializeAsString());
      ++summary->records;
    }
    if (batch.GetDataSize() > (8u << 20)) {
      RETURN_IF_ERROR(
          FromRocks(store->db()->Write(WriteOpts(), &batch), store->dir() + ": write paraphrases"));
      batch.Clear();
    }
  }
  RETURN_IF_ERROR(
      FromRocks(store->db()->Write(WriteOpts(), &batch), store->dir() + ": write paraphrases"));
  pb::PairingSummary ps;
  ps.set_version(1);
  ps.set_normal_edition(name);
  ps.set_simple_edition(name);
  ps.set_title_matches(summary->clusters);
  ps.set_aligned(summary->records);
  *ps.mutable_params() = params;
  ps.set_run_id(run_id);
  return store->PutMeta("pairing/" + name + "/" + name, ps.SerializeAsString());
}

}  // namespace aligndb
