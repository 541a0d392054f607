// Printing for people at the command line's edge: lookups and statistics as text or JSON. The
// library returns data (export/export.h); this file decides how it looks on a terminal.
#ifndef ALIGNDB_CLI_PRINT_H_
#define ALIGNDB_CLI_PRINT_H_

#include <ostream>
#include <string>

#include "aligndb/status.h"
#include "export/export.h"
#include "storage/store.h"

namespace aligndb {

// The alignment record as text (people) or JSON (programs).
void PrintLookup(const pb::AlignmentRecord& record, OutputFormat format, std::ostream& out);

// Prints the alignment of the article pair titled `title` (either edition's title, or a
// redirect to one); `format` is "text" or "json".
Status Lookup(Store* store, const EditionPair& editions, const std::string& title,
              const std::string& format, std::ostream& out);

void PrintCorpusStats(const CorpusStats& stats, bool json, std::ostream& out);
void PrintParaphraseStats(const ParaphraseStats& stats, bool json, std::ostream& out);

// Prints the statistics of one edition pair (counts and shares of docs/method.md) or, for a
// news collection, its paraphrase figures, as text or JSON.
Status Stats(Store* store, const EditionPair& editions, double min_sim, bool json,
             std::ostream& out);

}  // namespace aligndb

#endif  // ALIGNDB_CLI_PRINT_H_
