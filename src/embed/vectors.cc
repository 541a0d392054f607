// Loading word vectors, and their memory-mapped cache.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "dump/bz2_reader.h"
#include "embed/embeddings.h"

namespace aligndb {
namespace {

constexpr char kMagic[8] = {'A', 'L', 'G', 'N', 'V', 'E', 'C', '1'};

// Cache layout: magic(8) count(8) dim(8) words_bytes(8) | floats count*dim | words, each
// length(4) + bytes.
struct CacheHeader {
  char magic[8];
  uint64_t count, dim, words_bytes;
};

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string CachePath(const std::string& path, const std::string& cache_dir) {
  std::string dir = cache_dir;
  if (dir.empty()) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    if (xdg && *xdg)
      dir = std::string(xdg) + "/aligndb";
    else if (home && *home)
      dir = std::string(home) + "/.cache/aligndb";
    else
      return "";
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "";
  std::error_code ec;
  std::string abs = std::filesystem::absolute(path, ec).string();
  std::string key = abs + "\n" + std::to_string(st.st_size) + "\n" +
                    std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  char name[40];
  std::snprintf(name, sizeof(name), "%016llx.avec",
                static_cast<unsigned long long>(XXH3_64bits(key.data(), key.size())));
  return dir + "/" + name;
}

Status ParseFloat(const char*& p, const char* end, float* out) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if (p < end && *p == '+') ++p;
  auto [stop, ec] = std::from_chars(p, end, *out);
  if (ec != std::errc() || (stop < end && *stop != ' ' && *stop != '\t'))
    return Status::Corruption("");
  p = stop;
  return Status::OK();
}

}  // namespace

WordVectors::~WordVectors() {
  if (map_) munmap(map_, map_size_);
}

void WordVectors::Index() {
  index_.clear();
  index_.reserve(count_ * 2);
  for (size_t i = 0; i < count_; ++i)
    index_.emplace(views_[i], static_cast<int64_t>(i));  // first wins
  inv_norm_.resize(count_);
  for (size_t i = 0; i < count_; ++i) {
    double sq = 0;
    const float* r = Row(static_cast<int64_t>(i));
    for (int d = 0; d < dim_; ++d) sq += static_cast<double>(r[d]) * r[d];
    inv_norm_[i] = sq > 0 ? static_cast<float>(1.0 / std::sqrt(sq)) : 0.0f;
  }
}

int64_t WordVectors::Find(std::string_view word) const {
  auto it = index_.find(word);
  return it == index_.end() ? -1 : it->second;
}

std::unique_ptr<WordVectors> WordVectors::FromRows(const std::vector<std::string>& words,
                                                   const std::vector<std::vector<float>>& rows) {
  std::unique_ptr<WordVectors> v(new WordVectors());
  v->count_ = words.size();
  v->dim_ = rows.empty() ? 0 : static_cast<int>(rows[0].size());
  v->words_ = words;
  for (const auto& r : rows) v->owned_.insert(v->owned_.end(), r.begin(), r.end());
  v->data_ = v->owned_.data();
  for (const auto& w : v->words_) v->views_.emplace_back(w);
  v->Index();
  return v;
}

bool WordVectors::MapCache(const std::string& cache) {
  int fd = open(cache.c_str(), O_RDONLY);
  if (fd < 0) return false;
  struct stat st;
  if (fstat(fd, &st) == 0 && static_cast<size_t>(st.st_size) >= sizeof(CacheHeader)) {
    const size_t size = static_cast<size_t>(st.st_size);
    void* m = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      const auto* h = static_cast<const CacheHeader*>(m);
      // Checked without overflow: a damaged cache must not make the reads below leave the map.
      const size_t room = size - sizeof(CacheHeader);
      const bool fits = h->dim > 0 && h->count <= room / sizeof(float) / h->dim &&
                        h->words_bytes <= room - h->count * h->dim * sizeof(float);
      if (std::memcmp(h->magic, kMagic, 8) == 0 && fits &&
          h->count * h->dim * sizeof(float) + h->words_bytes == room) {
        const size_t floats = h->count * h->dim * sizeof(float);
        const char* p = static_cast<const char*>(m) + sizeof(CacheHeader) + floats;
        const char* end = static_cast<const char*>(m) + size;
        std::vector<std::string_view> views;
        for (size_t i = 0; i < h->count && p + 4 <= end; ++i) {
          uint32_t len;
          std::memcpy(&len, p, 4);
          if (len > static_cast<size_t>(end - p - 4)) break;
          views.emplace_back(p + 4, len);
          p += 4 + len;
        }
        if (views.size() == h->count) {
          map_ = m;
          map_size_ = size;
          count_ = h->count;
          dim_ = static_cast<int>(h->dim);
          data_ = reinterpret_cast<const float*>(static_cast<const char*>(m) + sizeof(CacheHeader));
          views_ = std::move(views);
          from_cache_ = true;
        }
      }
      if (!from_cache_) munmap(m, size);
    }
  }
  close(fd);
  return from_cache_;
}

Status WordVectors::ParseBinary(const std::string& path, const std::string& all, size_t first_nl,
                                long long count, long long dim) {
  if (count < 0 || dim <= 0)
    return Status::Corruption(path + ": line 1: expected the word2vec header \"count dim\"");
  dim_ = static_cast<int>(dim);
  size_t p = first_nl + 1;
  for (long long i = 0; i < count; ++i) {
    while (p < all.size() && (all[p] == '\n' || all[p] == ' ')) ++p;
    size_t sp = all.find(' ', p);
    if (sp == std::string::npos || sp + 4 * static_cast<size_t>(dim_) > all.size())
      return Status::Corruption(path + ": truncated at byte " + std::to_string(p) + ": word " +
                                std::to_string(i + 1) + " of " + std::to_string(count) +
                                " is incomplete");
    words_.push_back(all.substr(p, sp - p));
    size_t at = owned_.size();
    owned_.resize(at + dim_);
    std::memcpy(owned_.data() + at, all.data() + sp + 1, 4 * static_cast<size_t>(dim_));
    p = sp + 1 + 4 * static_cast<size_t>(dim_);
  }
  return Status::OK();
}

Status WordVectors::ParseText(const std::string& path, const std::string& all, size_t first_nl,
                              long long count, long long dim) {
  size_t p = 0;
  uint64_t line_no = 0;
  if (count >= 0) {  // word2vec text / fastText .vec
    dim_ = static_cast<int>(dim);
    p = first_nl + 1;
    line_no = 1;
  }
  std::vector<float> row;
  while (p < all.size()) {
    size_t nl = all.find('\n', p);
    if (nl == std::string::npos) nl = all.size();
    ++line_no;
    const char* b = all.data() + p;
    const char* e = all.data() + nl;
    p = nl + 1;
    if (e > b && e[-1] == '\r') --e;
    if (b == e) continue;
    const char* sp = static_cast<const char*>(std::memchr(b, ' ', static_cast<size_t>(e - b)));
    if (!sp)
      return Status::Corruption(path + ": line " + std::to_string(line_no) +
                                ": expected a word and its vector");
    std::string word(b, sp);
    row.clear();
    const char* q = sp;
    float f;
    while (true) {
      while (q < e && *q == ' ') ++q;
      if (q >= e) break;
      if (!ParseFloat(q, e, &f).ok())
        return Status::Corruption(path + ": line " + std::to_string(line_no) +
                                  ": not a number after \"" + word + "\"");
      row.push_back(f);
    }
    if (dim_ == 0) dim_ = static_cast<int>(row.size());  // GloVe: the first line sets it
    if (static_cast<int>(row.size()) != dim_)
      return Status::Corruption(path + ": line " + std::to_string(line_no) + ": expected " +
                                std::to_string(dim_) + " values for \"" + word + "\", found " +
                                std::to_string(row.size()));
    words_.push_back(std::move(word));
    owned_.insert(owned_.end(), row.begin(), row.end());
  }
  if (count >= 0 && static_cast<long long>(words_.size()) != count)
    return Status::Corruption(path + ": the header announces " + std::to_string(count) +
                              " words, the file has " + std::to_string(words_.size()) +
                              " (truncated?)");
  return Status::OK();
}

void WordVectors::WriteCache(const std::string& cache) const {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(cache).parent_path(), ec);
  std::string tmp = cache + ".tmp." + std::to_string(getpid());
  std::ofstream f(tmp, std::ios::binary);
  if (!f) return;
  CacheHeader h;
  std::memcpy(h.magic, kMagic, 8);
  h.count = count_;
  h.dim = static_cast<uint64_t>(dim_);
  h.words_bytes = 0;
  for (const auto& w : words_) h.words_bytes += 4 + w.size();
  f.write(reinterpret_cast<const char*>(&h), sizeof(h));
  f.write(reinterpret_cast<const char*>(owned_.data()),
          static_cast<std::streamsize>(owned_.size() * sizeof(float)));
  for (const auto& w : words_) {
    uint32_t len = static_cast<uint32_t>(w.size());
    f.write(reinterpret_cast<const char*>(&len), 4);
    f.write(w.data(), static_cast<std::streamsize>(w.size()));
  }
  f.close();
  if (f) std::filesystem::rename(tmp, cache, ec);
  if (!f || ec) std::filesystem::remove(tmp, ec);
}

Status WordVectors::Load(const std::string& path, const std::string& cache_dir,
                         std::unique_ptr<WordVectors>* out) {
  std::unique_ptr<WordVectors> v(new WordVectors());
  const std::string cache = cache_dir == "-" ? "" : CachePath(path, cache_dir);
  if (!cache.empty() && v->MapCache(cache)) {
    v->Index();
    *out = std::move(v);
    return Status::OK();
  }
  std::unique_ptr<ByteSource> src;
  RETURN_IF_ERROR(OpenByteSource(path, &src));
  std::string all;
  std::vector<char> buf(1 << 20);
  for (;;) {
    size_t got = 0;
    RETURN_IF_ERROR(src->Read(buf.data(), buf.size(), &got));
    if (got == 0) break;
    all.append(buf.data(), got);
  }
  if (all.empty()) return Status::Corruption(path + ": empty vector file");
  const size_t first_nl = all.find('\n');
  const std::string first = all.substr(0, first_nl == std::string::npos ? all.size() : first_nl);
  long long count = -1, dim = -1;
  char extra;
  if (std::sscanf(first.c_str(), "%lld %lld %c", &count, &dim, &extra) != 2) count = dim = -1;
  const bool binary = EndsWith(path, ".bin") || EndsWith(path, ".bin.bz2");
  RETURN_IF_ERROR(binary ? v->ParseBinary(path, all, first_nl, count, dim)
                         : v->ParseText(path, all, first_nl, count, dim));
  if (v->dim_ <= 0 || v->words_.empty()) return Status::Corruption(path + ": no vectors");
  v->count_ = v->words_.size();
  v->data_ = v->owned_.data();
  for (const auto& w : v->words_) v->views_.emplace_back(w);
  v->Index();
  if (!cache.empty()) v->WriteCache(cache);
  *out = std::move(v);
  return Status::OK();
}

}  // namespace aligndb
