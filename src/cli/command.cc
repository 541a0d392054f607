#include "cli/command.h"

#include <iostream>

#include "cli/terminal.h"
#include "util/fault.h"

namespace aligndb::cli {

std::vector<Command> AllCommands() {
  std::vector<Command> all;
  for (auto group : {IngestCommands, AlignCommands, QueryCommands, ExportCommands,
                     ParaphraseCommands, EvalCommands, ReportCommands, ServeCommands})
    for (Command& c : group()) all.push_back(std::move(c));
  return all;
}

int ExitCodeFor(const Status& s) {
  switch (s.code()) {
    case Status::Code::kOk:
      return 0;
    case Status::Code::kInvalidArgument:
      return 2;
    case Status::Code::kCorruption:
      return 3;
    case Status::Code::kIOError:
      return 4;
    case Status::Code::kBusy:
      return 5;
    case Status::Code::kNotFound:
      return 6;
    case Status::Code::kInternal:
      break;
  }
  return 1;
}

int Finish(const Status& s) {
  if (s.ok()) return 0;
  std::cout.flush();  // results printed before the failure stay ahead of the message
  std::cerr << "aligndb: " << TerminalSafe(s.ToString()) << "\n";
  return ExitCodeFor(s);
}

Status OpenStore(const std::string& dir, OpenMode mode, std::unique_ptr<Store>* store) {
  StoreOptions opts;
  opts.create_if_missing = mode == OpenMode::kCreate;
  opts.read_only = mode == OpenMode::kRead;
  // A command that reads what is stored (align, export, lookup, …) maps the table files of a
  // database of up to 256 MB of them: no copy of each block read, no fresh memory for it
  // (docs/benchmarks.md, "Table files read through memory maps"). Mapped pages count in the
  // command's resident memory, and align maps the tables it writes too (a database of 509 MB of
  // tables made align's peak 884 MB instead of 354 MB): the bound keeps that well under 1 GB.
  // An ingest, which mostly writes and whose compactions would map every table they read, does
  // not map.
  if (mode != OpenMode::kCreate) opts.map_tables_up_to_bytes = uint64_t{256} << 20;
  return Store::Open(opts, dir, store);
}

Status RecordedRun(Store* store, const std::string& command, const Invocation& inv,
                   const std::function<Status(uint64_t run_id)>& body,
                   const std::function<std::map<std::string, uint64_t>()>& counts,
                   bool without_log) {
  uint64_t run_id = 0;
  // The start is logged: a kill from here on leaves the run "running", marked interrupted by
  // the next writer, whatever else of it was lost.
  RETURN_IF_ERROR(store->BeginRun(command, inv.args, &run_id));
  store->set_writes_without_log(without_log);
  Status s = body(run_id);
  // Without the log, the run's end is written as its records are: kept only by the flush below
  // (or Close's), with them.
  Status finished = store->FinishRun(run_id, s, counts());
  // A kill here leaves a run written without the log interrupted (its end record goes with the
  // flush below), a logged one finished.
  CrashPoint();
  RETURN_IF_ERROR(s);
  RETURN_IF_ERROR(finished);
  // Everything to table files before the command reports success: a failed flush (of this one,
  // or of one a writer started in the background) is an error here, not lost at close.
  RETURN_IF_ERROR(store->FlushMemtables());
  // Left on after a failure above: nothing is written after it but Close's flush, which keeps
  // the run's writes; a logged write after unlogged ones could outlast them.
  store->set_writes_without_log(false);
  return Status::OK();
}

}  // namespace aligndb::cli
