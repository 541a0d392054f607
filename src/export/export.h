// Reading alignments back: lookup by title, filtered export, and corpus statistics. Every
// function reads one snapshot of the store, so it sees each article pair whole while a writer
// runs. These functions return data (or stream export rows); printing lookups and statistics
// for people is the command line's (cli/print.h).
#ifndef ALIGNDB_EXPORT_EXPORT_H_
#define ALIGNDB_EXPORT_EXPORT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "align/align.h"
#include "align/label.h"
#include "aligndb.pb.h"
#include "aligndb/status.h"
#include "storage/store.h"

namespace aligndb {

// The parameters of an align run that change its results, for people: the mode and the
// similarity always; the paragraph threshold and skip penalty (coster-kauchak) or the pair
// threshold (all-pairs); θ, the vectors and the lexicon (embedding measures); whether redirects
// were followed ("coster-kauchak/tfidf, paragraph threshold 0.5, skip penalty 0.0001"). A news
// paraphrase record's mode is its extraction method (IsParaphraseMode), with no other parameter.
// Plain text: the vector file's path is the user's, and each output format escapes the line.
std::string DescribeAlignParams(const pb::AlignParams& p);
bool IsParaphraseMode(const std::string& mode);

// How messages name the options of their caller: the command line's flags ("--min-sim") or the
// viewer's query parameters ("min_sim").
enum class OptionNames { kFlags, kParams };
// The option `flag` ("min-sim") as `names` spells it.
std::string OptionName(OptionNames names, std::string_view flag);

// Which edition pair to read. Empty names: the only pair aligned in the database, or
// enwiki/simplewiki when several are.
struct EditionPair {
  std::string normal;
  std::string simple;
  // How messages name the options that chose the pair. Default: kFlags.
  OptionNames names = OptionNames::kFlags;
};

// The edition pair `want` names, with empty names filled as EditionPair says. NotFound when no
// alignment is stored; InvalidArgument when several pairs fit and none is enwiki/simplewiki.
Status ResolveEditions(Store* store, const EditionPair& want, EditionPair* out);

// Output formats of aligndb's commands: lookup and stats print text or json; export writes tsv,
// jsonl or parallel files.
enum class OutputFormat { kText, kJson, kTsv, kJsonl, kParallel };
// "text", "json", "tsv", "jsonl", "parallel".
const char* OutputFormatName(OutputFormat format);
// Inverse of OutputFormatName; false for an unknown name.
bool ParseOutputFormat(std::string_view name, OutputFormat* format);
// The formats export writes (an earlier name of OutputFormat).
using ExportFormat = OutputFormat;

// What one exported row is (docs/method.md, Labels and export units): a sentence pair (the
// paper's unit), or an operation of the dynamic program with each side's sentences joined.
enum class ExportUnit { kSentence, kOperation };

// "1-1,2-1" (names of OpName) into the operations export keeps; InvalidArgument for an unknown
// name or a skip operation (which yields no pairs), naming the option as `names` spells it.
Status ParseExportOps(const std::string& list, std::set<Op>* ops,
                      OptionNames names = OptionNames::kFlags);
// The names ParseExportOps takes: "1-1, 1-2, 2-1, 2-2, pair, l12, f2".
extern const char* const kExportOpNames;

struct ExportOptions {
  EditionPair editions;
  // kSentence or kOperation. Default: kSentence.
  ExportUnit unit = ExportUnit::kSentence;
  // Keep only rows with this label (the row's own: a pair's or an operation's). Default: kNone,
  // every row.
  Label label = Label::kNone;
  // Keep rows with min_sim ≤ similarity ≤ max_sim (an operation row's similarity is that of its
  // joined sides). NaN: the default, [0.5, 1] for aligned
  // editions and no limit for paraphrase collections (whose similarity column is an edit
  // distance or a word count).
  double min_sim = kDefaultMinSimilarity;
  double max_sim = 1.0;
  // Operations to keep. Default: every pair-producing operation (and all-pairs' "pair").
  std::set<Op> ops = {Op::kOneOne,   Op::kOneTwo, Op::kTwoOne, Op::kTwoTwo,
                      Op::kAllPairs, Op::kL12,    Op::kF2};
  // Drop pairs whose two sentences are identical. Default: false.
  bool no_identical = false;
  // Only the article pair with this title (either edition's). Default: all.
  std::string title;
  // kTsv, kJsonl or kParallel. Default: kJsonl.
  OutputFormat format = OutputFormat::kJsonl;
  // kParallel: writes <out_prefix>.normal and <out_prefix>.simple. Other formats write `out`.
  std::string out_prefix;
};

// Streams the selected sentence pairs. Sets `*written` to the number of pairs written.
Status Export(Store* store, const ExportOptions& options, std::ostream& out, uint64_t* written);

// One selected sentence pair; the views are valid during the visit only.
struct ExportedPair {
  std::string_view normal_title, simple_title;
  std::string_view normal, simple;  // the two sentences
  double similarity = 0;
  Op op = Op::kOneOne;
  Label label = Label::kNone;  // the pair's own label; kNone in records without labels
};
// Visits the pairs Export selects with `options` (format and out_prefix aside), in its order,
// on one snapshot; stops at the first failed visit and returns its status.
Status ForEachExportedPair(Store* store, const ExportOptions& options,
                           const std::function<Status(const ExportedPair&)>& visit);

// One exported row with every field of Export's JSON lines: a sentence pair, or (ExportUnit::
// kOperation) an operation with each side's sentences joined. Views and vectors are valid during
// the visit only (the row is reused).
struct ExportRow {
  std::string_view normal_title, simple_title;
  std::string_view normal, simple;  // the two sides
  double similarity = 0;
  Op op = Op::kOneOne;
  // (paragraph, sentence) of each side's sentences: one for a sentence pair.
  std::vector<std::pair<uint32_t, uint32_t>> normal_index, simple_index;
  uint64_t normal_revision = 0, simple_revision = 0;
  Label label = Label::kNone;  // kNone for records computed before labels existed
};
// Visits the rows Export writes with `options` (format and out_prefix aside), in its order, on
// one snapshot, with its argument checks; stops at the first failed visit and returns its status.
Status ForEachExportRow(Store* store, const ExportOptions& options,
                        const std::function<Status(const ExportRow&)>& visit);

// The checks of export's and stats' arguments (similarity limits, operations) when there is no
// pair to read them against (no database, no alignments, not that pair): as for aligned
// editions, or for a paraphrase collection when both names are one. A bad argument is told
// before what is missing: Export, ForEachExportRow and ComputeCorpusStats run it then, and the
// command line when there is no database.
Status CheckArgumentsAsNamed(const ExportOptions& options);

// The alignment record of the article pair titled `title` (either edition's title, or a
// redirect to one). NotFound says why there is none: which edition lacks the title, whether the
// pairing filter removed the pair, or which edition pairs are aligned instead.
Status LookupRecord(Store* store, const EditionPair& editions, const std::string& title,
                    pb::AlignmentRecord* out);

// The records of an edition pair paired through a redirect (align --follow-redirects): each
// is named after its simple title, so a search by name misses its normal title. One entry a
// record, (normalized normal title, normal title, simple title), sorted; empty when the pair was
// not aligned following redirects. A scan of the keep records (or of the records, when some
// have none): compute it once per snapshot of the database, not once per search.
struct RedirectedPair {
  std::string key, normal_title, simple_title;
  bool operator<(const RedirectedPair& o) const { return key < o.key; }
};
Status RedirectedPairs(Store* store, const EditionPair& editions, std::vector<RedirectedPair>* out);

// Corpus statistics of one edition pair (docs/method.md, Filter and Corpus reports).
struct CorpusStats {
  std::string normal_edition, simple_edition;
  uint64_t title_matches = 0, removed = 0, aligned = 0;
  std::map<std::string, uint64_t> removed_by_reason;  // stub, disambiguation, meta, single_line
  uint64_t paragraph_pairs = 0, simple_paragraphs = 0;
  // Simple paragraphs in no paragraph pair (0 when records hold more pairs than simple
  // paragraphs, as paraphrase collections do).
  uint64_t SimpleParagraphsUnaligned() const {
    return simple_paragraphs > paragraph_pairs ? simple_paragraphs - paragraph_pairs : 0;
  }
  double min_sim = kDefaultMinSimilarity;
  uint64_t sentence_pairs_all = 0;  // every pair of every backtrace
  uint64_t sentence_pairs = 0;      // pairs with similarity ≥ min_sim
  uint64_t identical = 0;           // of those, identical
  // Operation counts of the backtraces: skip-simple, skip-normal, 1-1, 1-2, 2-1, 2-2
  // (an operation that yields two pairs counts once).
  std::map<std::string, uint64_t> operations;
  // Every parameter of the last align run of the pair.
  pb::AlignParams params;

  // Labels (docs/method.md, Labels and export units) of the rows each export unit gives, by
  // unit ("sentence", "operation"), operation ("1-1", ...) and similarity band ("0.5-0.75",
  // ">=0.75"; an operation's similarity is that of its joined sides). Rows below 0.5 and rows of
  // records without labels are not counted.
  struct LabelCounts {
    uint64_t good = 0, partial = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string>, LabelCounts> labels;

  // With distributions only:
  std::vector<double> similarities;  // of every sentence pair
  struct Side {
    uint64_t sentences = 0;   // distinct sentences in the pairs with similarity ≥ min_sim
    uint64_t words = 0;       // their tokens (docs/method.md, Tokens)
    uint64_t vocabulary = 0;  // distinct tokens
    double flesch = 0;        // Flesch Reading Ease of all those sentences together
    std::vector<double> sentence_flesch;  // per sentence
  } normal, simple;
};

Status ComputeCorpusStats(Store* store, const EditionPair& editions, double min_sim,
                          bool distributions, CorpusStats* out);

// Dolan et al.'s figures for a news paraphrase collection, per extraction method ("l12",
// "f2"): pairs, mean edit distance (L12) or shared words (F2), mean sentence length in words.
struct ParaphraseStats {
  std::string collection;
  struct Method {
    uint64_t pairs = 0, records = 0;
    uint64_t clusters = 0;  // clusters with at least one pair
    double mean_score = 0;  // L12: edit distance; F2: shared words of 4+ characters
    double mean_words = 0;  // mean sentence length in words
  };
  std::map<std::string, Method> methods;
};

// `collection` names the edition holding the clusters.
Status ComputeParaphraseStats(Store* store, const std::string& collection, ParaphraseStats* out);

}  // namespace aligndb

#endif  // ALIGNDB_EXPORT_EXPORT_H_
