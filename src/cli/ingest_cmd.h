// The ingest step, shared by `ingest` and `build`.
#ifndef ALIGNDB_CLI_INGEST_CMD_H_
#define ALIGNDB_CLI_INGEST_CMD_H_

#include <string>
#include <vector>

#include "cli/command.h"
#include "ingest/ingest.h"

namespace aligndb::cli {

struct IngestArgs {
  std::string db;
  std::vector<std::string> files;
  IngestOptions options;  // progress is set by RunIngest
  bool json = false;
};

// Ingests `args.files` into `store` as a recorded run, with progress on a terminal.
Status RunIngest(Store* store, const IngestArgs& args, const Invocation& inv,
                 IngestSummary* summary);

// The summary as text lines or one JSON line.
void PrintIngestSummary(const IngestSummary& s, bool json);

}  // namespace aligndb::cli

#endif  // ALIGNDB_CLI_INGEST_CMD_H_
