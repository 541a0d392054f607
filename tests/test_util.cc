#include "test_util.h"

#include <bzlib.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace aligndb::testing {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = std::string(base ? base : "/tmp") + "/aligndb-test-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string DataPath(const std::string& relative) {
  return std::string(ALIGNDB_SOURCE_DIR) + "/data/" + relative;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string Bz2Compress(const std::string& data, int level) {
  unsigned int size = static_cast<unsigned int>(data.size() * 1.02 + 1024);
  std::string out(size, '\0');
  int rc = BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(data.data()),
                                    static_cast<unsigned int>(data.size()), level, 0, 0);
  if (rc != BZ_OK) throw std::runtime_error("bz2 compress failed");
  out.resize(size);
  return out;
}

bool Bz2Decompress(const std::string& in, std::string* out) {
  out->clear();
  size_t pos = 0;
  std::string buf(1 << 16, '\0');
  while (pos < in.size()) {
    bz_stream strm{};
    if (BZ2_bzDecompressInit(&strm, 0, 0) != BZ_OK) return false;
    strm.next_in = const_cast<char*>(in.data() + pos);
    strm.avail_in = static_cast<unsigned>(in.size() - pos);
    int rc;
    do {
      strm.next_out = buf.data();
      strm.avail_out = static_cast<unsigned>(buf.size());
      rc = BZ2_bzDecompress(&strm);
      out->append(buf.data(), buf.size() - strm.avail_out);
    } while (rc == BZ_OK && (strm.avail_in > 0 || strm.avail_out == 0));
    pos = in.size() - strm.avail_in;
    BZ2_bzDecompressEnd(&strm);
    if (rc != BZ_STREAM_END) return false;
  }
  return !in.empty();
}

std::string Bz2DecompressFile(const std::string& path) {
  std::string out;
  if (!Bz2Decompress(ReadFile(path), &out)) throw std::runtime_error("bad bz2 fixture");
  return out;
}

CommandResult RunAligndb(const std::vector<std::string>& args) {
  static int counter = 0;
  TempDir tmp;
  std::string out_path = tmp.Sub("out"), err_path = tmp.Sub("err");
  std::string cmd = std::string("'") + ALIGNDB_BINARY + "'";
  for (const auto& a : args) {
    std::string q;
    for (char c : a) {
      if (c == '\'')
        q += "'\\''";
      else
        q += c;
    }
    cmd += " '" + q + "'";
  }
  cmd += " > '" + out_path + "' 2> '" + err_path + "' < /dev/null";
  ++counter;
  int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  return r;
}

CommandResult BuildSampleDb(const std::string& db) {
  return RunAligndb({"build", "--db", db, DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                     DataPath("wikidumps/simplewiki-sample.xml.bz2"),
                     "enwiki=" + DataPath("swipe/swipe-sample.enwiki.jsonl"),
                     "simplewiki=" + DataPath("swipe/swipe-sample.simplewiki.jsonl")});
}

Status Collect(const PageReader& reader, const std::string& path, Collected* c) {
  auto cb = [c](const SourcePage& p, const DumpInfo&) {
    c->pages.push_back(p);
    return Status::OK();
  };
  return reader(path, cb, &c->info);
}

std::unique_ptr<Store> OpenTestStore(const std::string& dir) {
  std::unique_ptr<Store> store;
  StoreOptions opts;
  opts.create_if_missing = true;
  Status s = Store::Open(opts, dir, &store);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return store;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

bool MakeSampleMultistream(const std::string& dir) {
  const std::string cmd =
      "python3 '" + std::string(ALIGNDB_SOURCE_DIR) + "/tools/make_multistream.py' '" +
      DataPath("wikidumps/enwiki-gensim-sample.xml.bz2") + "' '" + dir + "/ms.xml.bz2' '" + dir +
      "/ms-index.txt.bz2' --pages-per-stream 10 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace aligndb::testing
