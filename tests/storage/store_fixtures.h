// Small real databases for the storage, index and export tests: articles built from sentences,
// with the postings ingest would store for them.
#ifndef ALIGNDB_TESTS_STORAGE_STORE_FIXTURES_H_
#define ALIGNDB_TESTS_STORAGE_STORE_FIXTURES_H_

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aligndb.pb.h"
#include "storage/records.h"
#include "storage/store.h"
#include "text/text.h"

namespace aligndb::testing {

inline std::unique_ptr<Store> OpenOrDie(const std::string& dir, bool create = true,
                                        bool read_only = false) {
  std::unique_ptr<Store> store;
  StoreOptions opts;
  opts.create_if_missing = create;
  opts.read_only = read_only;
  Status s = Store::Open(opts, dir, &store);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return store;
}

inline pb::Article MakeArticle(uint64_t id, const std::string& title, uint64_t rev,
                               std::vector<std::vector<std::string>> paragraphs) {
  pb::Article a;
  a.set_version(kArticleVersion);
  a.set_edition("testwiki");
  a.set_page_id(id);
  a.set_title(title);
  a.set_revision_id(rev);
  a.set_content_hash("h" + std::to_string(rev));
  for (auto& p : paragraphs) {
    auto* pp = a.add_paragraphs();
    for (auto& s : p) pp->add_sentences(s);
  }
  return a;
}

// The postings of `a`, the plain way: per paragraph and per sentence, sorted tokens with their
// counts (the reference for document frequencies and candidates).
inline pb::ArticleTerms TermsOf(const pb::Article& a) {
  pb::ArticleTerms t;
  for (const auto& p : a.paragraphs()) {
    auto* pt = t.add_paragraphs();
    std::map<std::string, uint32_t> para;
    for (const auto& s : p.sentences()) {
      std::vector<std::string> toks;
      Tokenize(s, &toks);
      std::map<std::string, uint32_t> sent;
      for (auto& tok : toks) sent[tok]++, para[tok]++;
      auto* st = pt->add_sentences();
      for (auto& [k, v] : sent) st->add_tokens(k), st->add_counts(v);
    }
    for (auto& [k, v] : para)
      pt->mutable_paragraph()->add_tokens(k), pt->mutable_paragraph()->add_counts(v);
  }
  return t;
}

}  // namespace aligndb::testing

#endif  // ALIGNDB_TESTS_STORAGE_STORE_FIXTURES_H_
