// The aligndb command line: the commands of the registry (cli/command.h) under one CLI11 app.
// Results go to stdout; progress (when stderr is a terminal) and errors go to stderr, an error
// as one line. Exit codes (ExitCodeFor): 0 ok, 1 internal, 2 bad arguments, 3 bad input data,
// 4 I/O, 5 database in use, 6 not found. Nothing ends in an abort: whatever a library throws is
// caught here and reported as an internal error (running out of memory as exit 4).
#include <CLI/CLI.hpp>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "aligndb/version.h"
#include "cli/command.h"
#include "cli/terminal.h"

namespace aligndb::cli {
namespace {

// CLI11 reports an unknown first word as a missing subcommand: name the word instead.
Status CheckCommandWord(const std::vector<Command>& commands, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return Status::OK();
  std::string names;
  for (const Command& c : commands) {
    if (argv[1] == std::string(c.name)) return Status::OK();
    names += (names.empty() ? "" : ", ") + std::string(c.name);
  }
  return Status::InvalidArgument("unknown command \"" + std::string(argv[1]) +
                                 "\" (commands: " + names + ")");
}

Status ParseErrorStatus(const CLI::ParseError& e) {
  return Status::InvalidArgument(std::string(e.what()) + " (--help lists the options)");
}

}  // namespace
}  // namespace aligndb::cli

// jemalloc's options, read when it starts: memory in transparent huge pages. Ingest and align
// fill hundreds of megabytes of fresh buffers (batches, memtables, records); on a virtual machine
// each 4 KB page fault cost more CPU than the work on the page (docs/benchmarks.md). One arena:
// ingest's pages are made on worker threads and freed on the writing thread, and with an arena per
// thread each arena held its own freed huge pages, returned and faulted in again (a quarter more
// resident memory, three times the system time). Freed memory is kept for reuse, not returned to
// the system (dirty_decay_ms:-1): a command runs minutes to hours, and each huge page returned
// is zeroed by the kernel when taken again, which cost a multistream ingest a sixth of its CPU;
// resident memory stays at the command's peak (docs/benchmarks.md). The viewer, which runs for
// days, returns it (serve_cmd.cc).
extern "C" {
const char* malloc_conf = "thp:always,metadata_thp:always,narenas:1,dirty_decay_ms:-1";
}

int main(int argc, char** argv) {
  using namespace aligndb;
  using namespace aligndb::cli;
  try {
    CLI::App app{
        "aligndb: a corpus database of parallel sentence pairs mined from comparable corpora"};
    app.require_subcommand(1);
    app.set_version_flag("--version", ALIGNDB_VERSION);
    const std::vector<Command> commands = AllCommands();
    std::vector<std::pair<CLI::App*, Runner>> runners;
    for (const Command& c : commands) {
      CLI::App* sub = app.add_subcommand(c.name, c.help);
      runners.emplace_back(sub, c.wire(sub));
    }
    if (Status s = CheckCommandWord(commands, argc, argv); !s.ok()) return Finish(s);
    try {
      app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help, --version
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      return Finish(ParseErrorStatus(e));
    }
    const Invocation inv{std::vector<std::string>(argv + 1, argv + argc), StderrIsTerminal()};
    for (auto& [sub, run] : runners)
      if (*sub) return Finish(run(inv));
    return Finish(Status::InvalidArgument("a command is required (--help lists them)"));
  } catch (const std::bad_alloc&) {
    return Finish(Status::IOError("out of memory"));  // a resource, not a fault of aligndb
  } catch (const std::system_error& e) {
    return Finish(Status::Internal(std::string("system error: ") + e.what()));
  } catch (const std::exception& e) {
    return Finish(Status::Internal(std::string("unexpected error: ") + e.what()));
  } catch (...) {
    return Finish(Status::Internal("unexpected error of an unknown type"));
  }
}
