#include "index/index.h"

#include <xapian.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "aligndb.pb.h"
#include "storage/store.h"
#include "text/tokens.h"
#include "util/fault.h"

namespace aligndb {
namespace {

constexpr Xapian::valueno kParagraphSlot = 0;
constexpr size_t kPagesPerCommit = 20000;
// Xapian metadata tying the index to its store (Store::Identity) and counting its commits
// (Store::IndexGeneration).
constexpr const char* kStoreKey = "aligndb.store";
constexpr const char* kGenerationKey = "aligndb.generation";
// The tokenizer (Unicode and ICU versions) the index's terms came from: an index made by another
// is rebuilt, as its terms may differ from the articles' tokens.
constexpr const char* kTokenizerKey = "aligndb.tokenizer";

std::string ArticleTerm(uint32_t edition, uint64_t page_id) {
  std::string t(1, 'A');
  t += std::to_string(edition);
  t += ':';
  t += std::to_string(page_id);
  return t;
}
std::string ParagraphTerm(uint32_t edition, uint64_t page_id, uint32_t paragraph) {
  std::string t(1, 'Q');
  t += std::to_string(edition);
  t += ':';
  t += std::to_string(page_id);
  t += ':';
  t += std::to_string(paragraph);
  return t;
}

// Value slot 0: the paragraph index, 4 bytes big-endian.
std::string EncodeParagraphSlot(uint32_t p) {
  return {static_cast<char>(p >> 24), static_cast<char>(p >> 16), static_cast<char>(p >> 8),
          static_cast<char>(p)};
}
bool DecodeParagraphSlot(const std::string& slot, uint32_t* p) {
  if (slot.size() != 4) return false;
  const auto* u = reinterpret_cast<const unsigned char*>(slot.data());
  *p = (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
  return true;
}

Status FromXapian(const Xapian::Error& e, const std::string& context) {
  const char* os_error = e.get_error_string();  // the system's reason, when there is one
  return Status::IOError(context + ": Xapian " + e.get_type() + ": " + e.get_msg() +
                         (os_error ? std::string(" (") + os_error + ")" : std::string()));
}

// Whether `e` says the index's files are damaged or of another Xapian version: the index is
// derived, so it is then made again rather than reported (a lock, a missing or unopenable path,
// or any other error is reported).
bool IsDamaged(const Xapian::Error& e) {
  // Xapian's errors are told apart by name (its exception classes are not polymorphic);
  // "DatabaseError" itself is, e.g., a short read of a block.
  const std::string_view type = e.get_type();
  return type == "DatabaseCorruptError" || type == "DatabaseVersionError" ||
         type == "DatabaseError";
}

}  // namespace

std::string IndexDir(const std::string& db_dir) { return db_dir + "/xapian"; }

struct ParagraphIndex::Rep {
  std::string dir;
  bool writable = false;
  std::unique_ptr<Xapian::WritableDatabase> wdb;
  std::unique_ptr<Xapian::Database> rdb;
  bool rebuilt = false;
  Xapian::Database& db() { return wdb ? *wdb : *rdb; }
};

ParagraphIndex::~ParagraphIndex() = default;

Status ParagraphIndex::Open(const std::string& dir, bool writable,
                            std::unique_ptr<ParagraphIndex>* out) {
  std::unique_ptr<ParagraphIndex> index(new ParagraphIndex());
  index->rep_ = std::make_unique<Rep>();
  index->rep_->dir = dir;
  index->rep_->writable = writable;
  try {
    if (writable) {
      try {
        index->rep_->wdb =
            std::make_unique<Xapian::WritableDatabase>(dir, Xapian::DB_CREATE_OR_OPEN);
      } catch (const Xapian::DatabaseLockError&) {
        throw;
      } catch (const Xapian::Error& e) {
        if (!IsDamaged(e)) throw;
        // Made again, empty: Apply then finds it unmarked and rebuilds it from the store.
        index->rep_->wdb =
            std::make_unique<Xapian::WritableDatabase>(dir, Xapian::DB_CREATE_OR_OVERWRITE);
      }
    } else {
      index->rep_->rdb = std::make_unique<Xapian::Database>(dir);
    }
  } catch (const Xapian::DatabaseLockError& e) {
    return Status::Busy(dir + ": the paragraph index is in use by another aligndb process");
  } catch (const Xapian::DatabaseOpeningError& e) {
    if (!writable)
      return Status::NotFound(
          dir +
          ": no paragraph index (run `aligndb align --candidates xapian` first): " + e.get_msg());
    return FromXapian(e, dir);
  } catch (const Xapian::Error& e) {
    return FromXapian(e, dir);
  }
  *out = std::move(index);
  return Status::OK();
}

uint64_t ParagraphIndex::DocumentCount() {
  try {
    return rep_->db().get_doccount();
  } catch (const Xapian::Error&) {
    return 0;
  }
}

Status ParagraphIndex::CheckBelongs(Store* store, uint64_t* generation) {
  std::string id, index_id, index_generation, index_tokenizer;
  RETURN_IF_ERROR(store->Identity(&id));
  try {
    index_id = rep_->wdb->get_metadata(kStoreKey);
    index_generation = rep_->wdb->get_metadata(kGenerationKey);
    index_tokenizer = rep_->wdb->get_metadata(kTokenizerKey);
  } catch (const Xapian::Error& e) {
    if (IsDamaged(e)) return Rebuild(store, generation);
    return FromXapian(e, rep_->dir);
  }
  uint64_t store_generation = 0;
  Status gs = store->IndexGeneration(&store_generation);
  if (!gs.ok() && !gs.IsNotFound()) return gs;
  uint64_t x = 0;
  auto [end, ec] = std::from_chars(index_generation.data(),
                                   index_generation.data() + index_generation.size(), x);
  bool parsed = ec == std::errc() && end == index_generation.data() + index_generation.size() &&
                !index_generation.empty();
  // One ahead: the process died after a Xapian commit, before the store cleared the queue; the
  // queue replays those pages.
  if (index_id == id && gs.ok() && parsed && (x == store_generation || x == store_generation + 1) &&
      index_tokenizer == TokenizerVersion()) {
    *generation = x;
    return Status::OK();
  }
  return Rebuild(store, generation);
}

Status ParagraphIndex::Rebuild(Store* store, uint64_t* generation) {
  // Empty the index, queue every stored article, and only then mark the index as this store's:
  // a crash in between leaves an unmarked index, rebuilt again by the next run.
  std::string id;
  RETURN_IF_ERROR(store->Identity(&id));
  try {
    rep_->wdb.reset();
    rep_->wdb =
        std::make_unique<Xapian::WritableDatabase>(rep_->dir, Xapian::DB_CREATE_OR_OVERWRITE);
  } catch (const Xapian::Error& e) {
    return FromXapian(e, rep_->dir);
  }
  uint64_t queued = 0;
  RETURN_IF_ERROR(store->QueueAllPagesForIndex(&queued));
  try {
    rep_->wdb->set_metadata(kStoreKey, id);
    rep_->wdb->set_metadata(kTokenizerKey, TokenizerVersion());
    rep_->wdb->set_metadata(kGenerationKey, "0");
    rep_->wdb->commit();
  } catch (const Xapian::Error& e) {
    return FromXapian(e, rep_->dir);
  }
  rep_->rebuilt = true;
  *generation = 0;
  return Status::OK();
}

bool ParagraphIndex::rebuilt() const { return rep_->rebuilt; }

Status ParagraphIndex::Apply(Store* store, uint32_t edition, uint64_t* applied) {
  *applied = 0;
  if (!rep_->wdb) return Status::InvalidArgument(rep_->dir + ": index opened read-only");
  uint64_t generation = 0;
  RETURN_IF_ERROR(CheckBelongs(store, &generation));
  Xapian::WritableDatabase& db = *rep_->wdb;
  const size_t per_commit = SmallBatches() ? 8 : kPagesPerCommit;
  std::vector<uint64_t> pages;
  for (;;) {
    // One commit's worth of queued pages.
    RETURN_IF_ERROR(store->PendingIndexPages(edition, per_commit, &pages));
    if (pages.empty()) return Status::OK();
    try {
      PageTerms terms;
      for (uint64_t page_id : pages) {
        std::string article_term = ArticleTerm(edition, page_id);
        db.delete_document(article_term);  // every paragraph of the page's previous version
        pb::Article article;
        Status s = store->GetArticle(edition, page_id, &article);
        if (s.IsNotFound()) continue;  // the page was deleted
        RETURN_IF_ERROR(s);
        for (int p = 0; p < article.paragraphs_size(); ++p) {
          Xapian::Document doc;
          std::string unique = ParagraphTerm(edition, page_id, static_cast<uint32_t>(p));
          doc.add_boolean_term(unique);
          doc.add_boolean_term(article_term);
          terms.Clear();  // the paragraph's distinct tokens
          terms.BeginParagraph();
          for (const auto& sentence : article.paragraphs(p).sentences())
            terms.AddSentence(sentence);
          for (size_t k = 0; k < terms.size(); ++k)
            if (terms.token(k).size() <= kMaxIndexTermBytes)
              doc.add_term(std::string(terms.token(k)));
          doc.add_value(kParagraphSlot, EncodeParagraphSlot(static_cast<uint32_t>(p)));
          db.replace_document(unique, doc);
        }
      }
      db.set_metadata(kGenerationKey, std::to_string(generation + 1));
      CrashPoint();
      db.commit();
    } catch (const Xapian::Error& e) {
      return FromXapian(e, rep_->dir);
    }
    CrashPoint();  // Xapian committed, queue entries not yet deleted: replayed by the next run
    // The index is durable: now the queue entries may go.
    RETURN_IF_ERROR(store->ClearPendingIndex(edition, pages, ++generation));
    *applied += pages.size();
  }
}

Status ParagraphIndex::ForEachArticleToken(
    uint32_t edition, uint64_t page_id, const std::function<void(uint32_t, std::string_view)>& fn,
    uint32_t* paragraphs) {
  *paragraphs = 0;
  try {
    Xapian::Database& db = rep_->db();
    std::string article = ArticleTerm(edition, page_id);
    for (auto d = db.postlist_begin(article); d != db.postlist_end(article); ++d) {
      uint32_t paragraph = 0;
      if (!DecodeParagraphSlot(
              db.get_document(*d, Xapian::DOC_ASSUME_VALID).get_value(kParagraphSlot), &paragraph))
        return Status::Corruption(rep_->dir + ": paragraph document without its index");
      ++*paragraphs;
      for (auto t = db.termlist_begin(*d); t != db.termlist_end(*d); ++t) {
        const std::string& term = *t;
        if (!term.empty() && (term[0] == 'A' || term[0] == 'Q') && term.size() > 1 &&
            std::isdigit(static_cast<unsigned char>(term[1])))
          continue;  // the boolean id terms, not tokens (tokens are lower-case)
        fn(paragraph, term);
      }
    }
  } catch (const Xapian::Error& e) {
    return FromXapian(e, rep_->dir);
  }
  return Status::OK();
}

Status ParagraphIndex::ArticleIndex(
    uint32_t edition, uint64_t page_id,
    std::unordered_map<std::string, std::vector<uint32_t>>* token_paragraphs) {
  token_paragraphs->clear();
  uint32_t paragraphs = 0;
  RETURN_IF_ERROR(ForEachArticleToken(
      edition, page_id,
      [&](uint32_t paragraph, std::string_view token) {
        (*token_paragraphs)[std::string(token)].push_back(paragraph);
      },
      &paragraphs));
  for (auto& [t, v] : *token_paragraphs) std::sort(v.begin(), v.end());
  return Status::OK();
}

Status ParagraphIndex::NewReader(std::unique_ptr<ParagraphIndex>* out) const {
  // The index exists (this handle has it open): any failure, such as too many open files, is an
  // I/O error, not a missing index.
  std::unique_ptr<ParagraphIndex> reader(new ParagraphIndex());
  reader->rep_ = std::make_unique<Rep>();
  reader->rep_->dir = rep_->dir;
  try {
    reader->rep_->rdb = std::make_unique<Xapian::Database>(rep_->dir);
  } catch (const Xapian::Error& e) {
    return FromXapian(e, rep_->dir);
  }
  *out = std::move(reader);
  return Status::OK();
}

Status ParagraphIndex::Candidates(uint32_t edition, uint64_t page_id,
                                  const std::vector<std::string>& tokens,
                                  std::vector<uint32_t>* paragraphs) {
  paragraphs->clear();
  std::vector<std::string> terms;
  for (const auto& t : tokens)
    if (!t.empty() && t.size() <= kMaxIndexTermBytes) terms.push_back(t);
  if (terms.empty()) return Status::OK();
  try {
    Xapian::Database& db = rep_->db();
    Xapian::Query text(Xapian::Query::OP_OR, terms.begin(), terms.end());
    Xapian::Query query(Xapian::Query::OP_FILTER, text,
                        Xapian::Query(ArticleTerm(edition, page_id)));
    Xapian::Enquire enquire(db);
    enquire.set_query(query);
    enquire.set_weighting_scheme(Xapian::BoolWeight());  // ranking is not used: all matches
    enquire.set_docid_order(Xapian::Enquire::ASCENDING);
    Xapian::MSet mset = enquire.get_mset(0, db.get_doccount());
    for (auto it = mset.begin(); it != mset.end(); ++it) {
      uint32_t paragraph = 0;
      if (!DecodeParagraphSlot(it.get_document().get_value(kParagraphSlot), &paragraph))
        return Status::Corruption(rep_->dir + ": paragraph document without its index");
      paragraphs->push_back(paragraph);
    }
  } catch (const Xapian::Error& e) {
    return FromXapian(e, rep_->dir);
  }
  std::sort(paragraphs->begin(), paragraphs->end());
  return Status::OK();
}

}  // namespace aligndb
