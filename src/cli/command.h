// The command registry of the aligndb command line, and what every command shares: the exit-code
// policy, opening the database, and recorded runs.
//
// Each command group (ingest_cmd.cc, align_cmd.cc, ...) returns its Commands. A Command's `wire`
// declares the command's options on its CLI11 subcommand, binding them to arguments it owns, and
// returns the Runner that main() calls once the command line is parsed. Commands print their
// results on stdout and return a Status; main() turns a failed one into one line on stderr and
// an exit code (ExitCodeFor), so that policy is written once.
#ifndef ALIGNDB_CLI_COMMAND_H_
#define ALIGNDB_CLI_COMMAND_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aligndb/status.h"
#include "storage/store.h"

namespace CLI {
class App;
}  // namespace CLI

namespace aligndb::cli {

// What a command gets from the process besides its options.
struct Invocation {
  std::vector<std::string> args;  // argv without the program name, kept in run records
  bool progress = false;          // stderr is a terminal: progress may be drawn there
};

using Runner = std::function<Status(const Invocation&)>;

struct Command {
  const char* name;  // the subcommand word
  const char* help;  // one line for `aligndb --help`
  // Declares the options on `cmd`; returns the function that runs the command with them.
  std::function<Runner(CLI::App* cmd)> wire;
};

// The command groups, one per file.
std::vector<Command> IngestCommands();      // ingest, show, info
std::vector<Command> AlignCommands();       // align, build
std::vector<Command> QueryCommands();       // lookup, stats
std::vector<Command> ExportCommands();      // export
std::vector<Command> ParaphraseCommands();  // paraphrase
std::vector<Command> EvalCommands();        // score, similarity, eval, wordalign, aer
std::vector<Command> ReportCommands();      // report
std::vector<Command> ServeCommands();       // serve

// Every command, in the order `aligndb --help` lists them.
std::vector<Command> AllCommands();

// The documented exit codes: 0 ok, 1 internal error, 2 bad arguments, 3 bad input data,
// 4 I/O error, 5 database in use, 6 not found.
int ExitCodeFor(const Status& s);

// Prints a failed `s` as one line on stderr ("aligndb: <what>", control characters escaped)
// and returns its exit code; 0 for OK.
int Finish(const Status& s);

// Opens the database for reading (a snapshot-consistent reader beside a writer) or for writing.
// Only the commands that put data in (ingest, build) create a missing database: align and
// paraphrase on a path that holds none say so instead of leaving an empty database there.
enum class OpenMode { kRead, kWrite, kCreate };
Status OpenStore(const std::string& dir, OpenMode mode, std::unique_ptr<Store>* store);

// Runs `body` as a recorded run of `command`: the run record holds the invocation's arguments,
// the body's outcome and `counts()` taken after it. The body's failure is returned before a
// failure to finish the record. With `without_log`, everything after the run's start is written
// without RocksDB's write-ahead log and made durable at once by the flush that ends the run
// (Store::set_writes_without_log): for a command whose writes are all derived from what is
// stored or read from its input files, so that running it again after a kill makes them again
// (align, ingest). A kill keeps what the last flush kept (flushes are atomic across column
// families), so every page and record stays whole and in step with the counts.
Status RecordedRun(Store* store, const std::string& command, const Invocation& inv,
                   const std::function<Status(uint64_t run_id)>& body,
                   const std::function<std::map<std::string, uint64_t>()>& counts,
                   bool without_log = false);

}  // namespace aligndb::cli

#endif  // ALIGNDB_CLI_COMMAND_H_
