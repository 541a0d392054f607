// Opening the files a command reads and writes, one way for every command: an input file that
// is a directory is an error (a directory opens and reads as an empty file), and an output file
// is written beside its target and renamed over it only when the whole output is written, so
// that a failed run leaves an existing file as it was.
#ifndef ALIGNDB_UTIL_FILES_H_
#define ALIGNDB_UTIL_FILES_H_

#include <fstream>
#include <string>

#include "aligndb/status.h"

namespace aligndb {

// Opens `path` for reading (binary). IOError "PATH: cannot open: REASON" when it is missing, a
// directory or unreadable. Read errors later show as in->bad(): check it at the end.
Status OpenInputFile(const std::string& path, std::ifstream* in);

// Whether `path` can name an output file: InvalidArgument when it is an existing directory or
// ends in "/" (the message names the path and says a file name is needed), IOError naming the
// missing directory when the directory it would be in does not exist.
Status CheckOutputPath(const std::string& path);

// Whether `path` can name an output directory (a report's): InvalidArgument when it exists and
// is not a directory, IOError when a directory above it is a file. A missing directory is fine:
// the command creates it, with the missing directories above it, as `--db` is created.
Status CheckOutputDirectory(const std::string& path);

// An output file that replaces its target only on Commit: written to a temporary file beside
// the target, removed when the object dies uncommitted or the process is ended by SIGINT,
// SIGTERM or SIGHUP (a handler is installed for each of them whose action is the default one;
// it removes the open temporary files and lets the signal end the process), and, when a process
// killed otherwise (SIGKILL) left one, by the next Open of the same target. A target that exists
// and is not a regular file (a terminal, a pipe, /dev/null) is written in place.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  // CheckOutputPath, then opens the temporary file "TARGET.tmp-HOST-PID" (IOError when it cannot
  // be created, or when the target exists and may not be written). A symbolic link's target is
  // replaced, the link kept; the replacement keeps the replaced file's permissions. A path under
  // /dev/ or /proc/ (/dev/stdout, /dev/fd/N) is appended to in place.
  Status Open(const std::string& path);
  std::ostream& stream() { return out_; }
  // Flushes and closes the file and renames it over the target; IOError when a write failed.
  Status Commit();
  // Commits two files as one (a parallel export's two sides): both are written out before
  // either replaces its target, and when the second cannot replace its target the first's is
  // put back as it was, so that the two never end one new and one old. The old first target is
  // kept under its temporary name meanwhile (atomic exchange; where the file system cannot
  // exchange, the two are renamed in turn).
  static Status CommitPair(OutputFile* first, OutputFile* second);

 private:
  Status Close();           // flushes and closes; IOError when a write failed
  Status Replace();         // renames the closed temporary file over the target
  std::string path_, tmp_;  // tmp_ empty: written in place
  std::ofstream out_;
  bool open_ = false;
  int slot_ = -1;  // where a signal handler finds tmp_ to remove it (see files.cc)
};

// Makes a SIGBUS of a memory access (a read through a memory map of a file that was cut short,
// or that the disk could not read) end the process with one line on stderr naming the database
// `db` and exit code 3, as damage found by a read does, after removing the temporary files of
// OutputFile, instead of a core dump. Installed once, and only when SIGBUS has its default
// action; each call names the database the message gives.
void InstallMappedReadFaultHandler(const std::string& db);

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_FILES_H_
