// Printing for people at the command line's edge: lookups and statistics as text or JSON. The
// library returns data (export/export.h); this file decides how it looks on a terminal.
#ifndef ALIGNDB_CLI_PRINT_H_
#define ALIGNDB_CLI_PRINT_H_

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "aligndb/status.h"
#include "export/export.h"
#include "storage/store.h"

namespace aligndb {

// The alignment record as text (people) or JSON (programs).
void PrintLookup(const pb::AlignmentRecord& record, OutputFormat format, std::ostream& out);
// The same into *out, replaced (its capacity kept).
void PrintLookup(const pb::AlignmentRecord& record, OutputFormat format, std::string* out);

// The formats lookups and statistics print in (a part of kOutputFormatNames).
inline constexpr NameEntry<OutputFormat> kTextOrJsonNames[] = {{OutputFormat::kText, "text"},
                                                               {OutputFormat::kJson, "json"}};

// Prints the alignment of the article pair titled `title` (either edition's title, or a
// redirect to one) as kText or kJson.
Status Lookup(Store* store, const EditionPair& editions, const std::string& title,
              OutputFormat format, std::ostream& out);
// The same into *out, replaced: a caller that keeps the string from lookup to lookup keeps its
// memory, which is then neither allocated nor faulted in again (a server, a loop over titles).
Status Lookup(Store* store, const EditionPair& editions, const std::string& title,
              OutputFormat format, std::string* out);

void PrintCorpusStats(const CorpusStats& stats, OutputFormat format, std::ostream& out);
void PrintParaphraseStats(const ParaphraseStats& stats, OutputFormat format, std::ostream& out);

// Prints the statistics of one edition pair (counts and shares of docs/method.md) or, for a
// news collection, its paraphrase figures, as kText or kJson.
Status Stats(Store* store, const EditionPair& editions, double min_sim, OutputFormat format,
             std::ostream& out);

// `show`'s NotFound for an edition the database at `dir` does not have, naming those it has
// (`editions`, name → id) so that a misspelt name is seen at once.
Status NoSuchEdition(const std::string& edition, const std::string& dir,
                     const std::map<std::string, uint32_t>& editions);

// The article titled `title` in each of `editions` (name → id) that has it, as `show` prints
// them; NotFound naming the redirects of that title when none has it.
Status FindArticles(Store* store, const std::map<std::string, uint32_t>& editions,
                    const std::string& title, std::vector<pb::Article>* found);

}  // namespace aligndb

#endif  // ALIGNDB_CLI_PRINT_H_
