// The Xapian paragraph index: an inverted index over the paragraphs of one or more editions,
// derived from RocksDB and rebuildable from it. It answers "which paragraphs of this article
// share a token with this text". Xapian computes no cosine here: aligndb scores candidates itself.
//
// Layout: one Xapian document per paragraph, with
//   - a unique id term  "Q<edition>:<page>:<paragraph>",
//   - a boolean term    "A<edition>:<page>" for the article (used as a filter),
//   - one term per distinct token of the paragraph (tokens longer than 240 bytes are left out),
//   - value slot 0 = the paragraph index (4 bytes, big-endian).
// Xapian errors never leave this module: they become Status values.
#ifndef ALIGNDB_INDEX_INDEX_H_
#define ALIGNDB_INDEX_INDEX_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aligndb/status.h"
#include "storage/store.h"

namespace aligndb {

// Tokens longer than this many bytes are not indexed (Xapian's limit is 245 bytes per term);
// align's own candidates leave them out alike, so both sources give the same candidates.
inline constexpr size_t kMaxIndexTermBytes = 240;

class ParagraphIndex {
 public:
  // Opens (creating with `writable`) the index in `dir`.
  static Status Open(const std::string& dir, bool writable, std::unique_ptr<ParagraphIndex>* out);
  ~ParagraphIndex();

  // Brings the index of `edition` up to date with the store: every page queued in the store's
  // "pending_index" column family is (re)indexed or removed, the index is committed, and only
  // then are the queue entries deleted. Replaying after a crash is harmless: a page's documents
  // are replaced, never added twice. Sets `*applied` to the number of pages processed.
  //
  // First checks that the index belongs to the store: its metadata must hold the store's
  // identity and a commit generation equal to the store's (or one ahead, after a crash between
  // the two commits). An index that is missing (created empty), from another database, or
  // older or newer than the store is rebuilt from the store, the source of truth: emptied, and
  // every article queued again.
  Status Apply(Store* store, uint32_t edition, uint64_t* applied);

  // Whether Apply (re)built the index from the store because it did not belong to it (a new
  // index is built so too).
  bool rebuilt() const;

  // Paragraph indexes (ascending) of article (`edition`, `page_id`) that contain at least one
  // of `tokens`. Returns every match, not a top-k.
  Status Candidates(uint32_t edition, uint64_t page_id, const std::vector<std::string>& tokens,
                    std::vector<uint32_t>* paragraphs);

  // The article's own inverted index, read from Xapian once (the article's documents through
  // its boolean term, and their term lists): token → paragraphs containing it (ascending).
  // Candidates of many simple paragraphs against one article then cost no index-wide posting
  // lists. `Candidates` and this agree exactly (tested).
  Status ArticleIndex(uint32_t edition, uint64_t page_id,
                      std::unordered_map<std::string, std::vector<uint32_t>>* token_paragraphs);

  // Calls `fn(paragraph, token)` for every token of every indexed paragraph of article
  // (`edition`, `page_id`): the article's documents through its boolean term, and their term
  // lists. Sets `*paragraphs` to the number of paragraph documents of the article (a paragraph
  // without tokens has one too). Paragraphs come in the order of their Xapian documents, tokens
  // bytewise within one.
  Status ForEachArticleToken(uint32_t edition, uint64_t page_id,
                             const std::function<void(uint32_t, std::string_view)>& fn,
                             uint32_t* paragraphs);

  // A new read-only handle on the committed state of this index. A Xapian database object must
  // not be used by two threads at once: each thread reading the index opens its own.
  Status NewReader(std::unique_ptr<ParagraphIndex>* out) const;

  // Number of paragraph documents indexed.
  uint64_t DocumentCount();

 private:
  ParagraphIndex() = default;
  Status CheckBelongs(Store* store, uint64_t* generation);
  Status Rebuild(Store* store, uint64_t* generation);
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

// Directory of the Xapian index that belongs to the database in `db_dir`.
std::string IndexDir(const std::string& db_dir);

}  // namespace aligndb

#endif  // ALIGNDB_INDEX_INDEX_H_
