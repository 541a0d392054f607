// Helpers for the tests: temporary directories, fixture paths, bz2 files, running the CLI.
#ifndef ALIGNDB_TESTS_TEST_UTIL_H_
#define ALIGNDB_TESTS_TEST_UTIL_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dump/dump.h"
#include "storage/store.h"

namespace aligndb::testing {

// A fresh directory under $TMPDIR, removed with its contents when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Opens (creating it if missing) the database in `dir`; a failure fails the test and returns null.
std::unique_ptr<Store> OpenTestStore(const std::string& dir);

// Path of a file under the repository's data/ folder.
std::string DataPath(const std::string& relative);

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& bytes);
// bzip2-compresses `data` as one stream of 100k × `level` blocks (small levels: many blocks).
std::string Bz2Compress(const std::string& data, int level = 9);
// libbz2's decompression of whole concatenated bz2 streams; false on any error or on no data.
bool Bz2Decompress(const std::string& in, std::string* out);
// Decompresses a (possibly multistream) bz2 file.
std::string Bz2DecompressFile(const std::string& path);

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs the aligndb binary with `args` (no shell quoting issues: each arg is quoted).
CommandResult RunAligndb(const std::vector<std::string>& args);

// The lines of `text`, without their '\n'.
std::vector<std::string> SplitLines(const std::string& text);

// Runs `aligndb build --db db` on the bundled samples (both Wikipedia samples and the SWiPE
// sample), as the README's first example does.
CommandResult BuildSampleDb(const std::string& db);

// Every page a reader (ReadMediaWikiDump, ReadDocumentJsonl, ...) hands to its callback.
struct Collected {
  std::vector<SourcePage> pages;
  DumpInfo info;
};
using PageReader = std::function<Status(const std::string&, const PageCallback&, DumpInfo*)>;
Status Collect(const PageReader& reader, const std::string& path, Collected* c);

// Writes `dir`/ms.xml.bz2 and its index `dir`/ms-index.txt.bz2: the bundled English sample as a
// multistream dump of 10 pages a stream, made by tools/make_multistream.py as a user makes one.
// False when the tool failed.
bool MakeSampleMultistream(const std::string& dir);

// CPU seconds used by the calling thread: the complexity tests compare these, not wall time,
// so that other work on a loaded machine does not count.
double ThreadCpuSeconds();

}  // namespace aligndb::testing

#endif  // ALIGNDB_TESTS_TEST_UTIL_H_
