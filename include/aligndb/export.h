// Reading alignments back: lookup by title, filtered export, and corpus statistics. Every
// function reads one RocksDB snapshot, so it sees each article pair whole while a writer runs.
#ifndef ALIGNDB_EXPORT_H_
#define ALIGNDB_EXPORT_H_

#include <cstdint>
#include <ostream>
#include <set>
#include <string>

#include "aligndb/align.h"
#include "aligndb/status.h"
#include "aligndb/store.h"

namespace aligndb {

// Which edition pair to read. Empty names: the only pair aligned in the database, or
// enwiki/simplewiki when several are.
struct EditionPair {
  std::string normal;
  std::string simple;
};

enum class ExportFormat { kTsv, kJsonl, kParallel };

struct ExportOptions {
  EditionPair editions;
  // Keep pairs with min_sim ≤ similarity ≤ max_sim. Default: [0.5, 1].
  double min_sim = 0.5;
  double max_sim = 1.0;
  // Operations to keep. Default: all four pair-producing operations.
  std::set<Op> ops = {Op::kOneOne, Op::kOneTwo, Op::kTwoOne, Op::kTwoTwo};
  // Drop pairs whose two sentences are identical. Default: false.
  bool no_identical = false;
  // Only the article pair with this title (either edition's). Default: all.
  std::string title;
  ExportFormat format = ExportFormat::kJsonl;
  // kParallel: writes <out_prefix>.normal and <out_prefix>.simple. Other formats write `out`.
  std::string out_prefix;
};

// Streams the selected sentence pairs. Sets `*written` to the number of pairs written.
Status Export(Store* store, const ExportOptions& options, std::ostream& out, uint64_t* written);

// Prints the alignment of the article pair titled `title` (either edition's title, or a
// redirect to one) as "text" or "json".
Status Lookup(Store* store, const EditionPair& editions, const std::string& title,
              const std::string& format, std::ostream& out);

// Prints corpus statistics (SPEC §4 counts and shares) as text or JSON.
Status Stats(Store* store, const EditionPair& editions, double min_sim, bool json, std::ostream& out);

}  // namespace aligndb

#endif  // ALIGNDB_EXPORT_H_
