// Stub dumps and adds-changes dumps: thin layers over the MediaWiki XML reader.
#include "dump/stubs.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "dump/bz2_reader.h"

namespace aligndb {
namespace {

// A gzip file (one or several members) through zlib's gzread.
class GzSource : public ByteSource {
 public:
  ~GzSource() override {
    if (gz_) gzclose(gz_);
  }
  Status Open(const std::string& path) {
    path_ = path;
    gz_ = gzopen(path.c_str(), "rb");
    if (!gz_) return Status::IOError(path + ": cannot open");
    gzbuffer(gz_, 1 << 17);
    return Status::OK();
  }
  Status Read(char* buf, size_t n, size_t* got) override {
    *got = 0;
    int r = gzread(gz_, buf, static_cast<unsigned>(std::min<size_t>(n, 1u << 30)));
    int err = Z_OK;
    const char* msg = gzerror(gz_, &err);
    if (r < 0 || (err != Z_OK && err != Z_STREAM_END)) {
      std::string what = err == Z_BUF_ERROR ? "the gzip data ends early (truncated file?)" : msg;
      return Status::Corruption(path_ + ": gzip error at compressed byte " +
                                std::to_string(file_offset()) + ": " + what);
    }
    *got = static_cast<size_t>(r);
    data_ += *got;
    return Status::OK();
  }
  uint64_t file_offset() const override {
    long off = gzoffset(gz_);
    return off < 0 ? 0 : static_cast<uint64_t>(off);
  }
  uint64_t data_offset() const override { return data_; }
  bool compressed() const override { return true; }

 private:
  std::string path_;
  gzFile gz_ = nullptr;
  uint64_t data_ = 0;
};

bool IsGzip(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char magic[2] = {0, 0};
  size_t got = std::fread(magic, 1, 2, f);
  std::fclose(f);
  return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

}  // namespace

Status ReadStubDump(const std::string& path, const StubCallback& on_page, DumpInfo* info) {
  auto cb = [&](const SourcePage& page, const DumpInfo& di) {
    if (!page.has_page_id)
      return Status::Corruption(page.location +
                                ": a stub page without <id> (page ids match "
                                "stub pages to stored pages)");
    StubPage stub;
    stub.page_id = page.page_id;
    stub.ns = page.ns;
    stub.title = page.title;
    stub.revision_id = page.revision_id;
    stub.is_redirect = page.is_redirect;
    stub.location = page.location;
    return on_page(stub, di);
  };
  // Stubs have no text; a text that is there anyway is not kept.
  constexpr uint64_t kNoText = 1;
  if (!IsGzip(path)) return ReadMediaWikiDump(path, cb, info, kNoText);
  auto gz = std::make_unique<GzSource>();
  RETURN_IF_ERROR(gz->Open(path));
  return ReadMediaWikiSource(path, std::move(gz), cb, info, kNoText);
}

bool ChangeFileDate(const std::string& path, std::string* date) {
  std::string name = std::filesystem::path(path).filename().string();
  bool found = false;
  for (size_t i = 0; i < name.size();) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) ++j;
    if (j - i == 8) {
      std::string d = name.substr(i, 8);
      int month = std::stoi(d.substr(4, 2)), day = std::stoi(d.substr(6, 2));
      if (d >= "20010101" && month >= 1 && month <= 12 && day >= 1 && day <= 31) {
        *date = d;
        found = true;
      }
    }
    i = j;
  }
  return found;
}

Status OrderChangeFiles(std::vector<std::string>* files) {
  std::vector<std::pair<std::string, std::string>> dated;
  for (const auto& f : *files) {
    std::string date;
    if (!ChangeFileDate(f, &date))
      return Status::InvalidArgument(
          f +
          ": no date in the file name; --changes orders files by the YYYYMMDD that "
          "Wikimedia puts in their names (e.g. enwiki-20261121-pages-meta-hist-incr.xml.bz2)");
    dated.emplace_back(date, f);
  }
  std::stable_sort(dated.begin(), dated.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < dated.size(); ++i) (*files)[i] = dated[i].second;
  return Status::OK();
}

Status NewestRevisions(const std::string& path, std::unordered_map<uint64_t, uint64_t>* newest) {
  auto cb = [&](const SourcePage& page, const DumpInfo&) {
    if (!page.has_page_id)
      return Status::Corruption(page.location + ": a page without <id> in an adds-changes dump");
    uint64_t& rev = (*newest)[page.page_id];
    rev = std::max(rev, page.revision_id);
    return Status::OK();
  };
  // Only ids are needed here: a limit of one byte drops every text as it streams past.
  return ReadMediaWikiRevisions(path, cb, nullptr, /*max_page_bytes=*/1);
}

}  // namespace aligndb
