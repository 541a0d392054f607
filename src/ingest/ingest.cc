// Ingest: reads input files page by page, skips pages whose revision and content are already
// stored, cleans and splits the rest, and stores each page in one WriteBatch.
#include "ingest/ingest.h"

#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "aligndb.pb.h"
#include "dump/dump.h"
#include "dump/jsonl.h"
#include "dump/stubs.h"
#include "storage/records.h"
#include "util/fault.h"
#include "util/worker.h"

namespace aligndb {
namespace {

std::string ContentHash(const SourcePage& page) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  auto add = [&](std::string_view s) {
    uint64_t n = s.size();
    XXH3_128bits_update(state, &n, sizeof(n));
    XXH3_128bits_update(state, s.data(), s.size());
  };
  add(page.format == SourcePage::Format::kWikitext ? "wikitext" : "text");
  add(page.cluster);
  add(page.text);
  for (const auto& p : page.paragraphs) {
    add("\x1e");
    for (const auto& s : p) add(s);
  }
  for (const auto& f : page.flags) add(f);
  XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  XXH128_canonical_t canon;
  XXH128_canonicalFromHash(&canon, h);
  return std::string(reinterpret_cast<const char*>(canon.digest), sizeof(canon.digest));
}

// Page id for inputs without one: a stable 63-bit hash of the normalized title.
uint64_t TitlePageId(const std::string& title) {
  std::string t = NormalizeTitle(title);
  return XXH3_64bits(t.data(), t.size()) & 0x7FFFFFFFFFFFFFFFull;
}

// Text processing of one page: the article record and its document-frequency terms.
Status BuildArticle(TextProcessor* text_processor, const std::string& edition_name,
                    const SourcePage& page, uint64_t page_id, const std::string& hash,
                    pb::Article* out_article, PageTerms* out_terms) {
  pb::Article& a = *out_article;
  ProcessedPage processed;
  RETURN_IF_ERROR(text_processor->Process(page, &processed));
  a.set_version(kArticleVersion);
  a.set_edition(edition_name);
  a.set_page_id(page_id);
  a.set_title(page.title);
  a.set_revision_id(page.revision_id);
  a.set_timestamp(page.timestamp);
  a.set_content_hash(hash);
  a.set_flags(processed.flags);
  a.set_namespace_id(page.ns);
  a.set_cluster(page.cluster);
  out_terms->Clear();
  for (auto& sentences : processed.paragraphs) {
    pb::Paragraph* p = a.add_paragraphs();
    out_terms->BeginParagraph();
    for (auto& sentence : sentences) {
      out_terms->AddSentence(sentence);
      p->add_sentences(std::move(sentence));
    }
  }
  return Status::OK();
}

// `s` for a one-line message: control characters become '?', and at most 80 bytes are kept.
std::string Printable(const std::string& s) {
  std::string out = s.substr(0, 80);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  return out;
}

// A dump of another wiki than the one whose pages `edition` holds (Ingester::CheckWikiOfEdition).
Status OtherWikiError(const std::string& path, const std::string& dbname,
                      const std::string& edition, const std::string& wiki) {
  return Status::InvalidArgument(
      path + ": a dump of \"" + Printable(dbname) + "\" (its <siteinfo><dbname>), but edition \"" +
      edition + "\" holds pages of \"" + Printable(wiki) +
      "\": page ids of two wikis name different pages; give this dump an edition of its own "
      "(--edition NAME or EDITION=PATH)");
}

// Page ids read per edition (for --full and for DeleteDisplaced).
using SeenPages = std::map<uint32_t, std::vector<uint64_t>>;

// How the pages read of each edition got their ids (bits): a page id from the input (a dump's,
// a JSON lines "id"), or one made from the title (a JSON lines document without "id"). --full
// tells which deleted pages an input of the other kind had stored (DeleteUnseen).
constexpr unsigned kIdsGiven = 1, kIdsFromTitles = 2;
using IdKinds = std::map<uint32_t, unsigned>;

// What an update from stubs or adds-changes dumps adds to reading a file.
struct UpdateMode {
  // --stubs: page id → the stub's revision, for the pages to read; the pages met are added to
  // stub_found.
  const std::unordered_map<uint64_t, uint64_t>* stub_revisions = nullptr;
  std::unordered_set<uint64_t>* stub_found = nullptr;
  // --changes: page id → its newest revision in the file; every revision is read.
  const std::unordered_map<uint64_t, uint64_t>* newest = nullptr;
  // The namespace-0 pages read (DeleteDisplaced keeps them, as --full does; a later file of
  // the same run may take a title of an earlier one), and an entry for every edition read.
  SeenPages* read = nullptr;
  // How the ids of those pages were made, per edition.
  IdKinds* id_kinds = nullptr;
};

class Ingester {
 public:
  // A page on its way through the workers.
  struct Item {
    SourcePage page;
    uint64_t page_id = 0;
    std::string hash;
    bool is_redirect = false;  // then `redirect` is stored; no text processing
    bool is_delete = false;    // then page_id is deleted; no text processing
    pb::Redirect redirect;
    pb::Article article;
    PageTerms terms;
    std::string article_bytes;  // `article` serialized, by the worker
    Status status;

    // Ready for another page, keeping the memory of its strings, messages and terms.
    void Reset() {
      page_id = 0;
      hash.clear();
      is_redirect = is_delete = false;
      redirect.Clear();
      article.Clear();
      terms.Clear();
      article_bytes.clear();
      status = Status::OK();
    }
    // The memory of the item's source text when reused. The cleared article and terms it also
    // keeps are made from that text and are of its order, so what the spare items hold in all
    // is a small multiple of the bound this counts against (article_bytes is usually empty:
    // the writer takes the serialized article).
    size_t RetainedBytes() const {
      size_t n = page.text.capacity() + article_bytes.capacity() + page.title.capacity();
      for (const auto& para : page.paragraphs)
        for (const auto& sentence : para) n += sentence.capacity() + sizeof(sentence);
      return n;
    }
  };
  Ingester(Store* store, const IngestOptions& options, IngestSummary* summary,
           UpdateMode mode = UpdateMode())
      : store_(store),
        options_(options),
        summary_(summary),
        mode_(mode),
        writer_(store->NewPageWriter()) {
    size_t workers = options.text_threads > 0 ? static_cast<size_t>(options.text_threads)
                                              : std::max(1u, std::thread::hardware_concurrency());
    for (size_t w = 0; w < workers; ++w) {
      text_.push_back(std::make_unique<TextProcessor>(options.text));
      workers_.push_back(std::make_unique<Worker>());
    }
  }
  ~Ingester() { WaitBatch(); }

  // Pages handed to the workers together: this many, or fewer when their text reaches
  // kBatchBytes (large pages multiply their size while being cleaned).
  static constexpr size_t kBatchPages = 256;
  static constexpr size_t kBatchBytes = 32 << 20;

  // Pages are committed in groups of this many pages or bytes.
  static constexpr size_t kFlushPages = 8192;
  static constexpr size_t kFlushBytes = 32 << 20;

  Status File(const std::string& path) {
    InputKind kind;
    RETURN_IF_ERROR(DetectInputKind(path, &kind));
    path_ = path;
    edition_name_.clear();
    if (kind == InputKind::kDocumentJsonl && options_.edition.empty())
      return Status::InvalidArgument(path + ": JSON lines input needs --edition NAME");
    auto cb = [this](const SourcePage& page, const DumpInfo& info) { return OnPage(page, info); };
    DumpInfo info;
    Status s;
    if (!options_.index.empty()) {
      if (kind != InputKind::kMediaWikiXml)
        return Status::InvalidArgument(path + ": --index needs a multistream MediaWiki XML dump");
      MultistreamOptions mo;
      mo.index_path = options_.index;
      mo.threads = options_.threads;
      mo.max_page_bytes = options_.max_page_bytes;
      if (!options_.only_titles_of.empty()) {
        uint32_t other;
        RETURN_IF_ERROR(store_->EditionId(options_.only_titles_of, false, &other)
                            .WithPrefix("--only-titles-of (ingest that edition first)"));
        RETURN_IF_ERROR(store_->ForEachTitle(other, [&](const std::string& t, uint64_t) {
          wanted_titles_.insert(t);
          return Status::OK();
        }));
        mo.want_title = [this](const std::string& title) {
          return wanted_titles_.count(NormalizeTitle(title)) > 0;
        };
      }
      if (mode_.stub_revisions)
        mo.want_page = [this](uint64_t id) { return mode_.stub_revisions->count(id) > 0; };
      s = ReadMultistreamDump(path, mo, cb, &info);
      summary_->streams_total += info.streams_total;
      summary_->streams_read += info.streams_read;
    } else if (mode_.newest) {
      if (kind != InputKind::kMediaWikiXml)
        return Status::InvalidArgument(path + ": --changes needs MediaWiki XML adds-changes dumps");
      s = ReadMediaWikiRevisions(path, cb, &info, options_.max_page_bytes);
    } else {
      s = kind == InputKind::kMediaWikiXml
              ? ReadMediaWikiDump(path, cb, &info, options_.max_page_bytes)
              : ReadDocumentJsonl(path, cb, &info);
    }
    // Whatever the outcome, the pages read before it are committed.
    Status pending = Submit();
    if (pending.ok()) pending = Drain();
    if (s.ok()) s = pending;
    Status flushed = FlushWriter();
    if (options_.progress) options_.progress(path, info.pages, info.bytes);
    RETURN_IF_ERROR(s);
    return flushed;
  }

 private:
  Status ResolveEdition(const DumpInfo& info) {
    if (!edition_name_.empty()) return Status::OK();
    edition_name_ = options_.edition.empty() ? info.dbname : options_.edition;
    if (edition_name_.empty())
      return Status::InvalidArgument(
          path_ + ": the dump has no <siteinfo><dbname>; name the edition with --edition");
    if (!IsValidEditionName(edition_name_))  // options_.edition was checked by Ingest()
      return Status::Corruption(path_ + ": byte " + std::to_string(info.dbname_offset) +
                                " of the XML: <siteinfo><dbname> \"" + Printable(edition_name_) +
                                "\" is not a valid edition name (1 to 64 of A-Z a-z 0-9 _ -); "
                                "name the edition with --edition");
    RETURN_IF_ERROR(store_->EditionId(edition_name_, /*create=*/true, &edition_));
    RETURN_IF_ERROR(CheckWikiOfEdition(info));
    if (mode_.read) (*mode_.read)[edition_];  // DeleteDisplaced looks at every edition read
    // Into an edition without pages (a first ingest), no title of this file can have a page yet.
    return store_->HasTitles(edition_, &titles_may_exist_);
  }

  // An edition holds the pages of one wiki: page ids of two wikis name different pages (and
  // --full would delete the other wiki's). The first dump that names its wiki records it; a dump
  // of another wiki is refused before any of its pages is stored.
  Status CheckWikiOfEdition(const DumpInfo& info) {
    if (info.dbname.empty()) return Status::OK();
    const std::string key = "wiki/" + edition_name_;
    std::string wiki;
    Status s = store_->GetMeta(key, &wiki);
    if (s.IsNotFound()) return store_->PutMeta(key, info.dbname);
    RETURN_IF_ERROR(s);
    if (wiki == info.dbname) return Status::OK();
    return OtherWikiError(path_, info.dbname, edition_name_, wiki);
  }

  // JSON lines: the same title twice in one file would silently replace the first page. Titles
  // are remembered by a 63-bit hash of the normalized title (a false alarm needs a hash collision),
  // with the line; kHashIdTaken marks a document without an id that took that hash as its page id.
  static constexpr uint64_t kHashIdTaken = 1ull << 63;
  Status CheckTitleOnce(const SourcePage& page) {
    if (page.line == 0) return Status::OK();  // XML: page ids identify pages
    auto [it, first] = titles_seen_.emplace(TitlePageId(page.title), page.line);
    if (first) return Status::OK();
    return Status::Corruption(
        page.location + ": title \"" + Printable(page.title) + "\" was already given at line " +
        std::to_string(it->second & ~kHashIdTaken) + " (a title may occur once per file)");
  }

  // JSON lines: a document without an id takes the page of its title (TitlePageOwner), unless a
  // document of this file with an id wrote that page (then the page is that document's: it may
  // have renamed it) and it takes a new page; a document with an id whose page a document without
  // one took earlier in the file, or whose id is the page a document without one must take, is an
  // error naming both lines (one of the two would be lost).
  Status JsonlPageId(const SourcePage& page, uint64_t* page_id) {
    auto taken_at = [&](uint64_t id) -> uint64_t {  // line of the document without id on page id
      if (auto a = adopted_.find(id); a != adopted_.end()) return a->second;
      auto t = titles_seen_.find(id);
      return t != titles_seen_.end() && (t->second & kHashIdTaken) ? t->second & ~kHashIdTaken : 0;
    };
    auto clash = [&](uint64_t id, uint64_t other_line) {
      return Status::Corruption(page.location + ": page id " + std::to_string(id) +
                                " is both this document's and that of line " +
                                std::to_string(other_line) +
                                " (one has no \"id\"); give both their ids");
    };
    if (page.has_page_id) {
      if (uint64_t line = taken_at(page.page_id)) return clash(page.page_id, line);
      ids_written_.emplace(page.page_id, page.line);
      return Status::OK();
    }
    const uint64_t hash = TitlePageId(page.title);
    RETURN_IF_ERROR(TitlePageOwner(page.title, page_id));
    if (ids_written_.count(*page_id)) *page_id = hash;  // the page went to the document with id
    if (auto w = ids_written_.find(*page_id); w != ids_written_.end())
      return clash(*page_id, w->second);
    if (*page_id == hash)
      titles_seen_[hash] |= kHashIdTaken;
    else
      adopted_.emplace(*page_id, page.line);
    return Status::OK();
  }

  // A page without an id (JSON lines) is the page of its title: the edition's article or
  // redirect of that title if there is one (an XML page, or this document ingested before),
  // otherwise a new page whose id is a hash of the title. The committed state is enough: a title
  // occurs once per file, and each file is committed before the next is read.
  Status TitlePageOwner(const std::string& title, uint64_t* page_id) {
    if (!titles_may_exist_) {
      *page_id = TitlePageId(title);
      return Status::OK();
    }
    Status s = store_->FindArticle(edition_, title, page_id);
    if (s.ok() || !s.IsNotFound()) return s;
    pb::Redirect r;
    s = store_->GetRedirect(edition_, NormalizeTitle(title), &r);
    if (s.ok()) {
      *page_id = r.page_id();
      return s;
    }
    if (!s.IsNotFound()) return s;
    *page_id = TitlePageId(title);
    return Status::OK();
  }

  Status SkipTooLarge(const SourcePage& page) {
    ++summary_->too_large;
    if (summary_->skipped.size() < 20)
      summary_->skipped.push_back(page.location + ": page \"" + Printable(page.title) +
                                  "\" skipped: " + std::to_string(page.oversize_text_bytes) +
                                  " bytes of text, more than --max-page-bytes " +
                                  std::to_string(options_.max_page_bytes));
    return Status::OK();
  }

  Status OnPage(const SourcePage& page, const DumpInfo& info) {
    RETURN_IF_ERROR(ResolveEdition(info));
    ++summary_->pages;
    if (options_.progress && summary_->pages % 1000 == 0)
      options_.progress(path_, info.pages, info.bytes);
    if (mode_.newest && page.has_page_id) {
      auto it = mode_.newest->find(page.page_id);
      if (it != mode_.newest->end() && page.revision_id != it->second) {
        ++summary_->superseded;
        return Status::OK();
      }
    }
    if (page.ns != 0) {
      ++summary_->other_namespace;
      // An adds-changes dump: the page may have moved out of namespace 0.
      if (mode_.newest && page.has_page_id) return DeleteMovedPage(page);
      return Status::OK();
    }
    if (page.title.empty()) return Status::Corruption(page.location + ": page without a title");
    RETURN_IF_ERROR(CheckTitleOnce(page));
    // --only-titles-of: a selected stream also holds pages that cannot pair; they are not stored.
    if (!wanted_titles_.empty() && !wanted_titles_.count(NormalizeTitle(page.title))) {
      ++summary_->not_wanted;
      if (page.has_page_id) NoteRead(page.page_id, true);
      return Status::OK();
    }
    uint64_t page_id = page.has_page_id ? page.page_id : 0;
    if (page.line != 0) RETURN_IF_ERROR(JsonlPageId(page, &page_id));
    NoteRead(page_id, page.has_page_id);  // also when too large: --full keeps it
    if (mode_.stub_revisions) CheckStub(page, page_id);
    if (page.oversize_text_bytes > 0) return SkipTooLarge(page);
    std::string hash = ContentHash(page);

    pb::PageState old;
    Status os = store_->GetPageState(edition_, page_id, &old);
    if (!os.ok() && !os.IsNotFound()) return os;
    bool existed = os.ok();
    // A document without an id on a page of another title: the hash of its title is the id a
    // document with an id gave another page (its text would replace that page's).
    if (existed && page.line != 0 && !page.has_page_id &&
        NormalizeTitle(old.title()) != NormalizeTitle(page.title))
      return Status::Corruption(page.location + ": the page id of title \"" +
                                Printable(page.title) + "\" (" + std::to_string(page_id) +
                                ", a hash of the title) is the page \"" + Printable(old.title()) +
                                "\"; give this document an \"id\"");
    if (mode_.newest && existed && page.revision_id < old.revision_id()) {
      ++summary_->older_ignored;
      return Status::OK();
    }
    // A dump's text is what it stores (a newer dump may show an older revision, the newest one
    // suppressed); an older dump ingested by mistake is told of (see Ingest).
    if (existed && page.revision_id > 0 && page.revision_id < old.revision_id())
      ++summary_->older_stored;
    if (existed && old.revision_id() == page.revision_id && old.content_hash() == hash &&
        old.title() == page.title) {
      if (old.kind() == pb::PageState::ARTICLE) {
        ++summary_->unchanged;
        ++summary_->articles_by_edition[edition_name_];
      } else {
        ++summary_->redirects_unchanged;
      }
      return Status::OK();
    }

    if (page.is_redirect) return QueueRedirect(page, page_id, hash);

    Item item = NewItem();
    item.page = page;
    item.page_id = page_id;
    item.hash = std::move(hash);
    // The same page id twice in one input: the later page replaces the earlier one, which may
    // not be committed yet (so the lookup above did not find it); it is counted as a change.
    const bool again = !existed && !RememberQueued(page_id);
    if (again || (existed && old.kind() == pb::PageState::ARTICLE))
      ++summary_->changed;
    else
      ++summary_->added;
    if (!again) ++summary_->articles_by_edition[edition_name_];
    batch_bytes_ += page.text.size();
    batch_.push_back(std::move(item));
    if (batch_.size() >= kBatchPages || batch_bytes_ >= kBatchBytes) return Submit();
    return Status::OK();
  }

  // Redirects go through the batch too, so that page order is kept without stopping the workers.
  Status QueueRedirect(const SourcePage& page, uint64_t page_id, const std::string& hash) {
    Item item = NewItem();
    item.page.location = page.location;
    item.is_redirect = true;
    pb::Redirect& r = item.redirect;
    r.set_version(kRedirectVersion);
    r.set_edition(edition_name_);
    r.set_page_id(page_id);
    r.set_title(page.title);
    r.set_target(page.redirect_target);
    r.set_revision_id(page.revision_id);
    r.set_content_hash(hash);
    ++summary_->redirects;
    batch_.push_back(std::move(item));
    if (batch_.size() >= kBatchPages) return Submit();
    return Status::OK();
  }

  // Hands the collected pages to the workers, then writes the batch they finished before while
  // they work.
  Status Submit() {
    std::vector<Item> finished;
    if (batch_running_) {
      WaitBatch();
      finished = std::move(inflight_);
      inflight_.clear();
    }
    if (!batch_.empty()) {
      inflight_ = std::move(batch_);
      batch_.clear();
      batch_bytes_ = 0;
      StartBatch();
    }
    Status s = WriteItems(&finished);
    Recycle(&finished);
    return s;
  }

  // Items of written pages are kept for the next ones (copying a page into an item, cleaning
  // it and counting its terms then reuse memory instead of allocating it page after page).
  // Bounded: at most two batches of items, none that held a large page, and kRecycledBytes of
  // source text in all (a few times that with the articles and terms made from it).
  void Recycle(std::vector<Item>* items) {
    for (auto& item : *items) {
      if (spare_.size() >= 2 * kBatchPages) break;
      const size_t bytes = item.RetainedBytes();
      if (bytes > kRecycledItemBytes || spare_bytes_ + bytes > kRecycledBytes) continue;
      spare_bytes_ += bytes;
      spare_.push_back(std::move(item));
    }
    items->clear();
  }

  // An empty item, reusing a recycled one when there is one.
  Item NewItem() {
    if (spare_.empty()) return Item();
    Item item = std::move(spare_.back());
    spare_.pop_back();
    spare_bytes_ -= std::min(spare_bytes_, item.RetainedBytes());
    item.Reset();
    return item;
  }

  // Waits for the batch in the workers and writes it, in page order.
  Status Drain() {
    if (!batch_running_) return Status::OK();
    WaitBatch();
    Status s = WriteItems(&inflight_);
    inflight_.clear();
    return s;
  }

  // Writes finished items in page order, up to the first error.
  Status WriteItems(std::vector<Item>* items) {
    Status first_error;
    for (auto& item : *items) {
      if (!item.status.ok()) {
        first_error = item.status;
        break;
      }
      Status s = Write(item);
      if (s.ok()) s = MaybeFlush();
      if (!s.ok()) {
        first_error = s;
        break;
      }
    }
    return first_error;
  }

  // Cleans, splits and tokenizes inflight_ on the worker threads (each with its own
  // TextProcessor), while this thread goes on. Nothing thrown may leave a worker (it would abort
  // the process): a page that runs out of memory gets an error status. A worker whose thread
  // cannot be started (address-space or process limits) does its share on this thread.
  void StartBatch() {
    next_item_ = 0;
    batch_workers_ = std::min(workers_.size(), inflight_.size());
    batch_running_ = true;
    for (size_t w = 0; w < batch_workers_; ++w) workers_[w]->Run([this, w] { WorkOn(w); });
  }
  void WaitBatch() {
    for (size_t w = 0; w < batch_workers_; ++w) workers_[w]->Wait();
    batch_running_ = false;
  }
  void WorkOn(size_t w) {
    const size_t n = inflight_.size();
    for (size_t k = next_item_++; k < n; k = next_item_++) {
      Item& it = inflight_[k];
      if (it.is_redirect || it.is_delete) continue;
      it.status = BuildArticleNoThrow(text_[w].get(), it);
    }
  }

  Status BuildArticleNoThrow(TextProcessor* text, Item& it) {
    try {
      RETURN_IF_ERROR(
          BuildArticle(text, edition_name_, it.page, it.page_id, it.hash, &it.article, &it.terms));
      it.article.SerializeToString(&it.article_bytes);
      return Status::OK();
    } catch (const std::bad_alloc&) {
      it.article.Clear();
      it.terms.Clear();
      std::string().swap(it.article_bytes);
      return Status::IOError(it.page.location + ": out of memory while processing the page");
    } catch (const std::exception& e) {
      return Status::Internal(it.page.location + ": " + e.what());
    }
  }

  // Commits on the writer's thread while the next pages are read and written (the commit
  // before is waited for first).
  Status MaybeFlush() {
    size_t max_pages = SmallBatches() ? 8 : kFlushPages;
    if (writer_->pending_pages() < max_pages && writer_->pending_bytes() < kFlushBytes)
      return Status::OK();
    return writer_->FlushInBackground();
  }

  // Remembers that an article with `page_id` was queued; false when it was already. Bounded: the
  // set is emptied past kRememberedIds (by then the earlier pages are committed and found by
  // their page state).
  bool RememberQueued(uint64_t page_id) {
    if (queued_ids_.size() >= kRememberedIds) queued_ids_.clear();
    return queued_ids_.insert(page_id).second;
  }

  Status FlushWriter() { return writer_->Flush(); }

  // Writes one finished item.
  Status Write(Item& item) {
    if (item.is_delete)
      return writer_->DeletePage(edition_, item.page_id).WithPrefix(item.page.location);
    if (titles_may_exist_) NoteDisplaced(item);
    if (item.is_redirect) {
      return writer_->PutRedirect(edition_, item.redirect).WithPrefix(item.page.location);
    }
    return writer_->PutArticle(edition_, item.article, item.terms, &item.article_bytes)
        .WithPrefix(item.page.location);
  }

  // A page whose title another stored page holds (an article or a redirect): that page was
  // deleted from the wiki and this one made under its title, or it was renamed and comes later
  // in the input. Decided once the input is read (DeleteDisplaced).
  void NoteDisplaced(const Item& item) {
    const std::string& title = item.is_redirect ? item.redirect.title() : item.article.title();
    const uint64_t id = item.is_redirect ? item.redirect.page_id() : item.page_id;
    for (bool redirect : {false, true}) {
      const uint64_t owner = writer_->TitleOwner(edition_, title, redirect);
      if (owner != PageWriter::kNoPage && owner != id) writer_->NoteDisplaced(edition_, owner, id);
    }
  }

  // A namespace-0 page of the input: DeleteDisplaced never deletes it.
  void NoteRead(uint64_t page_id, bool id_given) {
    if (mode_.read) (*mode_.read)[edition_].push_back(page_id);
    if (mode_.id_kinds) (*mode_.id_kinds)[edition_] |= id_given ? kIdsGiven : kIdsFromTitles;
  }
  // --stubs: counts a page whose revision is not the one the stub gave.
  void CheckStub(const SourcePage& page, uint64_t page_id) {
    auto it = mode_.stub_revisions->find(page_id);
    if (it == mode_.stub_revisions->end()) return;
    mode_.stub_found->insert(page_id);
    if (it->second != page.revision_id) ++summary_->stub_mismatch;
  }

  // --changes: the newest revision of a stored page is outside namespace 0 (the page was moved);
  // a fresh ingest would not store it, so it is deleted, unless the stored revision is newer.
  Status DeleteMovedPage(const SourcePage& page) {
    pb::PageState old;
    Status os = store_->GetPageState(edition_, page.page_id, &old);
    if (os.IsNotFound()) return Status::OK();
    RETURN_IF_ERROR(os);
    if (page.revision_id < old.revision_id()) {
      ++summary_->older_ignored;
      return Status::OK();
    }
    if (old.kind() == pb::PageState::ARTICLE) ++summary_->deleted;
    Item item = NewItem();
    item.page.location = page.location;
    item.is_delete = true;
    item.page_id = page.page_id;
    batch_.push_back(std::move(item));
    if (batch_.size() >= kBatchPages) return Submit();
    return Status::OK();
  }

  Store* store_;
  const IngestOptions& options_;
  IngestSummary* summary_;
  UpdateMode mode_;
  static constexpr size_t kRememberedIds = 4 * kFlushPages;
  std::unordered_set<uint64_t> queued_ids_;  // article page ids queued lately (reading thread)
  std::vector<std::unique_ptr<TextProcessor>> text_;  // one per worker
  std::vector<Item> batch_;                           // pages collected for the next submission
  std::vector<Item> spare_;  // written items whose memory the next pages reuse (Recycle)
  size_t spare_bytes_ = 0;   // their RetainedBytes
  static constexpr size_t kRecycledItemBytes = 256 << 10;
  static constexpr size_t kRecycledBytes = 64 << 20;
  std::vector<Item> inflight_;  // pages in the workers
  // The worker threads, kept from batch to batch (one per TextProcessor), and the batch's state.
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<size_t> next_item_{0};  // the next item of inflight_ a worker takes
  size_t batch_workers_ = 0;          // workers given the batch in flight
  bool batch_running_ = false;
  std::string path_;
  std::unordered_set<std::string> wanted_titles_;
  size_t batch_bytes_ = 0;                              // text bytes of the pages in batch_
  std::unordered_map<uint64_t, uint64_t> titles_seen_;  // JSON lines: title hash → line
  bool titles_may_exist_ = true;  // the edition had pages when this file began
  // JSON lines: documents with an id (id → line); pages of other titles taken by documents
  // without one (id → line). Only files that mix the two fill both.
  std::unordered_map<uint64_t, uint64_t> ids_written_;
  std::unordered_map<uint64_t, uint64_t> adopted_;
  std::string edition_name_;
  uint32_t edition_ = 0;
  std::unique_ptr<PageWriter> writer_;
};

}  // namespace

std::map<std::string, uint64_t> IngestSummary::AsCounts() const {
  std::map<std::string, uint64_t> c = {
      {"pages", pages},         {"added", added},         {"changed", changed},
      {"unchanged", unchanged}, {"redirects", redirects}, {"other_namespace", other_namespace},
      {"deleted", deleted}};
  if (not_wanted) c["not_wanted"] = not_wanted;
  if (redirects_deleted) c["redirects_deleted"] = redirects_deleted;
  if (older_stored) c["older_stored"] = older_stored;
  if (redirects_unchanged) c["redirects_unchanged"] = redirects_unchanged;
  if (stub_unchanged) c["stub_unchanged"] = stub_unchanged;
  if (too_large) c["too_large"] = too_large;
  if (deleted_other_input) c["deleted_other_input"] = deleted_other_input;
  if (with_stubs) c["stub_mismatch"] = stub_mismatch;
  if (with_changes) {
    c["older_ignored"] = older_ignored;
    c["superseded"] = superseded;
  }
  if (streams_total) {
    c["streams_total"] = streams_total;
    c["streams_read"] = streams_read;
  }
  return c;
}

bool IsValidEditionName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

bool SplitEditionSpec(const std::string& spec, std::string* edition, std::string* path) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i) {
    char c = spec[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
      return false;
  }
  std::error_code ec;
  if (std::filesystem::exists(spec, ec)) return false;  // a file whose name has '='
  *edition = spec.substr(0, eq);
  *path = spec.substr(eq + 1);
  return true;
}

namespace {

// --full: every stored page of the editions in `seen` that `seen` does not list is deleted (an
// edition of which no page was read keeps its pages).
// Called only after every input was read to its end. Deleted pages whose ids were made another
// way than any page read of their edition (`id_kinds`) came from an input of another kind (JSON
// lines beside a dump): the documented deletion, but one a user may not expect, so counted
// (deleted_other_input) and told in one warning.
Status DeleteUnseen(Store* store, SeenPages* seen, const IdKinds& id_kinds,
                    IngestSummary* summary) {
  std::string other;  // "EDITION: N from JSON lines, ..." for the warning
  for (auto& [edition, ids] : *seen) {
    if (ids.empty()) continue;
    std::sort(ids.begin(), ids.end());
    std::vector<uint64_t> stored;
    RETURN_IF_ERROR(store->PageIds(edition, &stored));
    const auto k = id_kinds.find(edition);
    const unsigned kinds_read = k == id_kinds.end() ? 0 : k->second;
    uint64_t from_jsonl = 0, from_dumps = 0;
    auto writer = store->NewPageWriter();
    for (uint64_t id : stored) {
      if (std::binary_search(ids.begin(), ids.end(), id)) continue;
      pb::PageState state;
      if (store->GetPageState(edition, id, &state).ok()) {
        ++(state.kind() == pb::PageState::ARTICLE ? summary->deleted : summary->redirects_deleted);
        // A 63-bit hash of the title as id: a JSON lines document without "id" made the page.
        const unsigned made = id == TitlePageId(state.title()) ? kIdsFromTitles : kIdsGiven;
        if (kinds_read && !(kinds_read & made))
          ++(made == kIdsFromTitles ? from_jsonl : from_dumps);
      }
      RETURN_IF_ERROR(writer->DeletePage(edition, id));
      if (writer->pending_pages() >= 512) RETURN_IF_ERROR(writer->Flush());
    }
    RETURN_IF_ERROR(writer->Flush());
    if (from_jsonl + from_dumps == 0) continue;
    summary->deleted_other_input += from_jsonl + from_dumps;
    std::map<std::string, uint32_t> editions;
    RETURN_IF_ERROR(store->Editions(&editions));
    std::string name;
    for (const auto& [n, id] : editions)
      if (id == edition) name = n;
    other +=
        (other.empty() ? "" : "; ") + name + ": " +
        (from_jsonl ? std::to_string(from_jsonl) + " stored from JSON lines without \"id\"" : "") +
        (from_jsonl && from_dumps ? ", " : "") +
        (from_dumps ? std::to_string(from_dumps) + " stored from dumps (or with \"id\")" : "");
  }
  if (!other.empty())
    summary->warnings.push_back(
        "--full deleted " + std::to_string(summary->deleted_other_input) +
        " pages that an input of another kind had stored (" + other +
        "): --full takes the files of one run as the whole edition; give all of an edition's "
        "inputs in one --full run to keep them");
  return Status::OK();
}

// An edition holds one page per title: a stored page whose title a page of the input took
// (noted by the page writer with the pages, see Ingester::NoteDisplaced), that the input did not
// hold (renamed further on, or read unchanged: a wiki whose titles differ in case alone), and
// whose title the new page still holds, was deleted from the wiki and another page made under
// its title (an adds-changes file lists no deletions, and a plain ingest deletes nothing): it is
// deleted now. Run once every input was read to its end; a failed ingest drops only the notes
// of pages it read and leaves the others to the next ingest of the same edition.
Status DeleteDisplaced(Store* store, SeenPages* read, IngestSummary* summary,
                       bool input_read_whole = true) {
  auto writer = store->NewPageWriter();
  for (auto& [edition, ids] : *read) {
    std::sort(ids.begin(), ids.end());
    std::vector<std::pair<uint64_t, uint64_t>> notes;
    RETURN_IF_ERROR(store->ForEachDisplaced(edition, [&](uint64_t old_page, uint64_t new_page) {
      notes.emplace_back(old_page, new_page);
      return Status::OK();
    }));
    for (const auto& [old_page, new_page] : notes) {
      const bool was_read = std::binary_search(ids.begin(), ids.end(), old_page);
      if (was_read || input_read_whole) writer->ClearDisplaced(edition, old_page);
      if (was_read || !input_read_whole) continue;
      pb::PageState old_state, new_state;
      Status os = store->GetPageState(edition, old_page, &old_state);
      if (os.IsNotFound()) continue;
      RETURN_IF_ERROR(os);
      Status ns = store->GetPageState(edition, new_page, &new_state);
      if (ns.IsNotFound()) continue;
      RETURN_IF_ERROR(ns);
      if (NormalizeTitle(old_state.title()) != NormalizeTitle(new_state.title())) continue;
      ++(old_state.kind() == pb::PageState::ARTICLE ? summary->deleted
                                                    : summary->redirects_deleted);
      RETURN_IF_ERROR(writer->DeletePage(edition, old_page));
      if (writer->pending_pages() >= 512) RETURN_IF_ERROR(writer->Flush());
    }
  }
  return writer->Flush();
}

// `s`, after a failed read has dropped the displacement notes of the pages it read (their
// stored pages are kept: the input held them).
Status FailedRead(Store* store, SeenPages* read, IngestSummary* summary, Status s) {
  (void)DeleteDisplaced(store, read, summary, /*input_read_whole=*/false);
  return s;
}

// Told once the input is read: a dump older than the one before stores older revisions.
void WarnOlderRevisions(IngestSummary* summary) {
  if (summary->older_stored == 0) return;
  summary->warnings.push_back(
      std::to_string(summary->older_stored) +
      " pages were stored in an older revision than the one they replaced: is this dump older "
      "than the one ingested before? (with --changes the newest revision is kept)");
}

// What the stub file says must be read: page id → stub revision for the namespace-0 pages that
// are not stored as the stub describes them; `listed` gets every namespace-0 page id.
struct StubPlan {
  std::string dbname;  // the stub dump's <siteinfo><dbname>
  std::string edition_name;
  uint32_t edition = 0;
  std::unordered_map<uint64_t, uint64_t> to_read;
  std::vector<uint64_t> listed;
};

Status PlanFromStubs(Store* store, const IngestOptions& options, StubPlan* plan) {
  auto cb = [&](const StubPage& stub, const DumpInfo& info) -> Status {
    if (plan->edition_name.empty()) {
      plan->dbname = info.dbname;
      plan->edition_name = options.edition.empty() ? info.dbname : options.edition;
      if (!IsValidEditionName(plan->edition_name))
        return Status::Corruption(
            options.stubs + ": <siteinfo><dbname> \"" + Printable(plan->edition_name) +
            "\" is not a valid edition name; name the edition with --edition");
      Status es = store->EditionId(plan->edition_name, /*create=*/false, &plan->edition);
      if (es.IsNotFound())
        plan->edition = UINT32_MAX;  // nothing stored yet: read every page
      else
        RETURN_IF_ERROR(es);
    }
    if (stub.ns != 0) return Status::OK();
    plan->listed.push_back(stub.page_id);
    pb::PageState old;
    Status os = plan->edition == UINT32_MAX
                    ? Status::NotFound("")
                    : store->GetPageState(plan->edition, stub.page_id, &old);
    if (!os.ok() && !os.IsNotFound()) return os;
    bool redirect = os.ok() && old.kind() == pb::PageState::REDIRECT;
    if (os.ok() && old.revision_id() == stub.revision_id && old.title() == stub.title &&
        redirect == stub.is_redirect)
      return Status::OK();
    plan->to_read[stub.page_id] = stub.revision_id;
    return Status::OK();
  };
  return ReadStubDump(options.stubs, cb, nullptr);
}

// The <siteinfo><dbname> of a dump, read up to its first page (empty when it has none).
Status DumpDbname(const std::string& path, std::string* dbname) {
  bool first_page = false;
  DumpInfo info;
  Status s = ReadMediaWikiDump(
      path,
      [&](const SourcePage&, const DumpInfo& at) {
        *dbname = at.dbname;
        first_page = true;
        return Status::NotFound("stop at the first page");
      },
      &info);
  if (first_page) return Status::OK();
  *dbname = info.dbname;
  return s;
}

// Several dumps at once: each is checked against the wiki of its edition (see
// Ingester::CheckWikiOfEdition) before the first is read, so that a dump of another wiki among
// them stops the ingest before anything is stored.
Status CheckWikisOfFiles(Store* store, const std::vector<std::string>& files,
                         const IngestOptions& options) {
  std::map<std::string, std::string> wikis;  // edition → wiki, recorded or of an earlier file
  for (const auto& spec : files) {
    std::string path = spec, edition = options.edition;
    SplitEditionSpec(spec, &edition, &path);
    // A file that cannot be read up to its first page is reported when its turn comes, after
    // the files before it are stored.
    InputKind kind;
    if (!DetectInputKind(path, &kind).ok() || kind != InputKind::kMediaWikiXml) continue;
    std::string dbname;
    if (!DumpDbname(path, &dbname).ok() || dbname.empty()) continue;
    if (edition.empty()) edition = dbname;
    auto [it, first] = wikis.emplace(edition, "");
    if (first) {
      Status s = store->GetMeta("wiki/" + edition, &it->second);
      if (s.IsNotFound())
        it->second = dbname;
      else
        RETURN_IF_ERROR(s);
    }
    if (it->second != dbname) return OtherWikiError(path, dbname, edition, it->second);
  }
  return Status::OK();
}

// ingest --stubs: the whole stub file first (nothing is written while it is read), then the
// streams holding new or changed pages, then (--full) the deletions.
Status IngestWithStubs(Store* store, const std::string& path, const IngestOptions& options,
                       IngestSummary* summary) {
  summary->with_stubs = true;
  StubPlan plan;
  RETURN_IF_ERROR(PlanFromStubs(store, options, &plan));
  if (plan.edition_name.empty())
    return Status::Corruption(options.stubs + ": no pages in the stub dump");
  // Checked before any stream is read or any page deleted: with --full, a dump none of whose
  // pages the stubs list would otherwise delete every stored page.
  std::string dump_dbname;
  RETURN_IF_ERROR(DumpDbname(path, &dump_dbname));
  if (options.full && (plan.dbname.empty() || dump_dbname.empty()))
    return Status::InvalidArgument(
        (plan.dbname.empty() ? options.stubs : path) +
        ": no <siteinfo><dbname>: --full --stubs deletes what the stubs do not list, so both "
        "dumps must name their wiki");
  if (!plan.dbname.empty() && !dump_dbname.empty() && dump_dbname != plan.dbname)
    return Status::InvalidArgument(path + ": the dump is of \"" + Printable(dump_dbname) +
                                   "\" and the --stubs dump of \"" + Printable(plan.dbname) +
                                   "\": both must be of the same wiki");
  IngestOptions per_file = options;
  per_file.edition = plan.edition_name;
  std::unordered_set<uint64_t> found;
  UpdateMode mode;
  mode.stub_revisions = &plan.to_read;
  mode.stub_found = &found;
  SeenPages read;
  mode.read = &read;
  IdKinds id_kinds;
  mode.id_kinds = &id_kinds;
  Ingester ingester(store, per_file, summary, mode);
  Status fs = ingester.File(path);
  {
    // The pages the stubs list are held by the input, read or not.
    uint32_t edition = 0;
    RETURN_IF_ERROR(store->EditionId(plan.edition_name, /*create=*/true, &edition));
    auto& ids = read[edition];
    ids.insert(ids.end(), plan.listed.begin(), plan.listed.end());
    id_kinds[edition] |= kIdsGiven;  // a dump's ids, also when no stream was read
  }
  if (!fs.ok()) return FailedRead(store, &read, summary, fs);
  RETURN_IF_ERROR(DeleteDisplaced(store, &read, summary));
  WarnOlderRevisions(summary);
  // Pages the stubs list as new or changed that the dump does not hold: the dump is of another
  // date; what is stored of them stays.
  for (const auto& [id, rev] : plan.to_read)
    if (!found.count(id)) ++summary->stub_mismatch;
  summary->stub_unchanged = plan.listed.size() - std::min(plan.listed.size(), plan.to_read.size());
  return options.full ? DeleteUnseen(store, &read, id_kinds, summary) : Status::OK();
}

// ingest --changes: each file in date order, its newest revision of each page only.
Status IngestChanges(Store* store, std::vector<std::string> files, const IngestOptions& options,
                     IngestSummary* summary) {
  summary->with_changes = true;  // the options were checked by CheckIngestInputs
  RETURN_IF_ERROR(OrderChangeFiles(&files));
  SeenPages read;  // over every file: a page moved on day 2 keeps the title taken on day 1
  for (const auto& spec : files) {
    IngestOptions per_file = options;
    std::string path = spec, edition;
    if (SplitEditionSpec(spec, &edition, &path)) per_file.edition = edition;
    std::unordered_map<uint64_t, uint64_t> newest;
    if (Status ns = NewestRevisions(path, &newest); !ns.ok())
      return FailedRead(store, &read, summary, ns);
    UpdateMode mode;
    mode.newest = &newest;
    mode.read = &read;
    Ingester ingester(store, per_file, summary, mode);
    if (Status fs = ingester.File(path); !fs.ok()) return FailedRead(store, &read, summary, fs);
  }
  return DeleteDisplaced(store, &read, summary);
}

}  // namespace

namespace {

// A replaced page's old document frequencies are taken back by tokenizing its stored text again
// (docs/storage.md): the database remembers the Unicode data its tokens were counted with, and
// an ingest with other data says that they may now drift.
Status CheckTokenizerVersion(Store* store, IngestSummary* summary) {
  const std::string version = TokenizerVersion();
  std::string stored;
  Status s = store->GetMeta("tokenizer", &stored);
  if (s.IsNotFound()) return store->PutMeta("tokenizer", version);
  RETURN_IF_ERROR(s);
  if (stored != version)
    summary->warnings.push_back(
        "the stored pages were tokenized with " + stored + ", this aligndb tokenizes with " +
        version + ": the document frequencies of pages replaced now may drift slightly; " +
        "ingest into a new database to keep them exact");
  return Status::OK();
}

}  // namespace

Status CheckIngestInputs(const std::vector<std::string>& files, const IngestOptions& options) {
  if (options.changes && (options.full || !options.index.empty() || !options.stubs.empty()))
    return Status::InvalidArgument(
        "--changes cannot be used with --full, --index or --stubs (adds-changes dumps hold "
        "changed pages only)");
  if (!options.stubs.empty() && options.index.empty())
    return Status::InvalidArgument(
        "--stubs needs --index (the streams of the changed pages are found through the index)");
  if (!options.index.empty() && files.size() != 1)
    return Status::InvalidArgument("--index goes with exactly one multistream dump file");
  if (!options.only_titles_of.empty() && options.index.empty())
    return Status::InvalidArgument("--only-titles-of needs --index");
  if (!options.only_titles_of.empty() && (options.full || !options.stubs.empty()))
    return Status::InvalidArgument(
        "--full and --stubs cannot be used with --only-titles-of (not every page is read)");
  // Every edition name on the command line is checked before anything is read.
  auto check = [](const std::string& name, const std::string& what) {
    if (name.empty() || IsValidEditionName(name)) return Status::OK();
    return Status::InvalidArgument(what + " \"" + Printable(name) +
                                   "\" is not a valid edition name (1 to 64 of A-Z a-z 0-9 _ -)");
  };
  RETURN_IF_ERROR(check(options.edition, "--edition"));
  for (const auto& spec : files) {
    std::string path = spec, edition = options.edition;
    if (SplitEditionSpec(spec, &edition, &path))
      RETURN_IF_ERROR(check(edition, "EDITION=PATH: edition"));
    InputKind kind;
    RETURN_IF_ERROR(DetectInputKind(path, &kind));
    if (kind == InputKind::kDocumentJsonl && edition.empty())
      return Status::InvalidArgument(path +
                                     ": JSON lines input needs --edition NAME or EDITION=" + path);
    if (kind != InputKind::kMediaWikiXml && (!options.index.empty() || options.changes))
      return Status::InvalidArgument(path + (options.changes
                                                 ? ": --changes needs MediaWiki XML dumps"
                                                 : ": --index needs a multistream MediaWiki XML "
                                                   "dump"));
  }
  return Status::OK();
}

Status Ingest(Store* store, const std::vector<std::string>& files, const IngestOptions& options,
              IngestSummary* summary) {
  RETURN_IF_ERROR(CheckIngestInputs(files, options));
  RETURN_IF_ERROR(CheckTokenizerVersion(store, summary));
  if (files.size() > 1) RETURN_IF_ERROR(CheckWikisOfFiles(store, files, options));
  if (options.changes) return IngestChanges(store, files, options, summary);
  if (!options.stubs.empty()) {
    IngestOptions with_edition = options;
    std::string path = files[0], edition;
    if (SplitEditionSpec(files[0], &edition, &path)) with_edition.edition = edition;
    return IngestWithStubs(store, path, with_edition, summary);
  }
  SeenPages read;
  IdKinds id_kinds;
  UpdateMode mode;
  mode.read = &read;
  mode.id_kinds = &id_kinds;
  for (const auto& spec : files) {
    IngestOptions per_file = options;
    std::string path = spec, edition;
    if (SplitEditionSpec(spec, &edition, &path)) per_file.edition = edition;
    Ingester ingester(store, per_file, summary, mode);
    if (Status fs = ingester.File(path); !fs.ok()) return FailedRead(store, &read, summary, fs);
  }
  RETURN_IF_ERROR(DeleteDisplaced(store, &read, summary));
  WarnOlderRevisions(summary);
  // --full: every page of the editions read that the files did not hold is gone. Only reached
  // when every file was read to its end.
  return options.full ? DeleteUnseen(store, &read, id_kinds, summary) : Status::OK();
}

}  // namespace aligndb
