#include "lexicon/wordnet.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <set>

namespace aligndb {
namespace {

constexpr const char* kPosName[kWnPosCount] = {"noun", "verb", "adj", "adv"};
// Bounds of the caches: past them a cache is cleared (a few hundred MB at most).
constexpr size_t kMaxClosures = 200000, kMaxWords = 200000, kMaxPairs = 2000000;

uint64_t Key(WnPos pos, uint32_t offset) { return (static_cast<uint64_t>(pos) << 32) | offset; }

bool PosFromChar(char c, WnPos* pos) {
  switch (c) {
    case 'n':
      *pos = WnPos::kNoun;
      return true;
    case 'v':
      *pos = WnPos::kVerb;
      return true;
    case 'a':
    case 's':
      *pos = WnPos::kAdj;
      return true;
    case 'r':
      *pos = WnPos::kAdv;
      return true;
  }
  return false;
}

std::string Normalize(std::string_view w) {
  std::string o(w);
  for (char& c : o) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (c == ' ') c = '_';
  }
  return o;
}

// Splits a line into its space-separated fields.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> f;
  size_t b = 0;
  while (b < line.size()) {
    size_t e = line.find(' ', b);
    if (e == std::string_view::npos) e = line.size();
    if (e > b) f.push_back(line.substr(b, e - b));
    b = e + 1;
  }
  return f;
}

bool ParseUnsigned(std::string_view s, int base, uint32_t* out) {
  if (s.empty() || s.size() > 10) return false;
  uint64_t v = 0;
  for (char c : s) {
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : (base == 16 && c >= 'a' && c <= 'f')      ? c - 'a' + 10
                                                        : -1;
    if (d < 0 || d >= base) return false;
    v = v * base + d;
  }
  if (v > 0xffffffffu) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

// Morphy's detachment rules (WordNet's morph.c), per part of speech.
struct Rule {
  const char* suffix;
  const char* ending;
};
const std::vector<Rule>& Rules(WnPos pos) {
  static const std::vector<Rule> kRules[kWnPosCount] = {
      {{"s", ""},
       {"ses", "s"},
       {"ves", "f"},
       {"xes", "x"},
       {"zes", "z"},
       {"ches", "ch"},
       {"shes", "sh"},
       {"men", "man"},
       {"ies", "y"}},
      {{"s", ""},
       {"ies", "y"},
       {"es", "e"},
       {"es", ""},
       {"ed", "e"},
       {"ed", ""},
       {"ing", "e"},
       {"ing", ""}},
      {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
      {}};
  return kRules[static_cast<int>(pos)];
}

bool IsRelatedPointer(std::string_view s) {
  // derivationally related, pertainym / derived from adjective, similar to, also see
  return s == "+" || s == "\\" || s == "&" || s == "^";
}

}  // namespace

std::string WordNet::DefaultDir() {
  const char* env = std::getenv("WNSEARCHDIR");
  return env && *env ? std::string(env) : std::string("/usr/share/wordnet");
}

WordNet::~WordNet() {
  for (size_t i = 0; i < maps_.size(); ++i) munmap(maps_[i], map_sizes_[i]);
}

Status WordNet::Map(const std::string& path, Mapped* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status::IOError(path + ": cannot open (install wordnet-base or set WNSEARCHDIR)");
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
    ::close(fd);
    return Status::IOError(path + ": not a non-empty WordNet data file");
  }
  void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return Status::IOError(path + ": cannot map");
  maps_.push_back(p);
  map_sizes_.push_back(static_cast<size_t>(st.st_size));
  out->data = static_cast<const char*>(p);
  out->size = static_cast<size_t>(st.st_size);
  return Status::OK();
}

Status WordNet::Open(const std::string& dir_in, std::unique_ptr<WordNet>* out) {
  auto wn = std::unique_ptr<WordNet>(new WordNet());
  wn->dir_ = dir_in.empty() ? DefaultDir() : dir_in;
  for (int p = 0; p < kWnPosCount; ++p) {
    std::string n = kPosName[p];
    RETURN_IF_ERROR(wn->Map(wn->dir_ + "/index." + n, &wn->index_[p]));
    RETURN_IF_ERROR(wn->Map(wn->dir_ + "/data." + n, &wn->data_[p]));
    RETURN_IF_ERROR(wn->Map(wn->dir_ + "/" + n + ".exc", &wn->exc_[p]));
  }
  // A cheap check that these are WordNet files: "entity" is the noun root.
  if (wn->LemmaSynsets("entity", WnPos::kNoun).empty())
    return Status::Corruption(wn->dir_ + "/index.noun: no entry for \"entity\" (not WordNet 3.0?)");
  *out = std::move(wn);
  return Status::OK();
}

// Binary search of a file of lines sorted (bytewise) by their first field. The invariant: the
// line sought, if any, starts in [lo, hi), and lo is a line start.
std::string_view WordNet::FindLine(const Mapped& file, std::string_view key) const {
  const char* d = file.data;
  size_t lo = 0, hi = file.size;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2, s = mid;
    if (mid > lo) {
      const void* nl = std::memchr(d + mid - 1, '\n', file.size - (mid - 1));
      s = nl ? static_cast<size_t>(static_cast<const char*>(nl) - d) + 1 : file.size;
    }
    if (s >= hi) {
      hi = mid;
      continue;
    }
    const void* nl = std::memchr(d + s, '\n', file.size - s);
    size_t e = nl ? static_cast<size_t>(static_cast<const char*>(nl) - d) : file.size;
    std::string_view line(d + s, e - s);
    std::string_view field = line.substr(0, line.find(' '));
    int c = field.compare(key);
    if (c == 0) return line;
    if (c < 0)
      lo = e + 1;
    else
      hi = s;
  }
  return {};
}

std::vector<std::string> WordNet::Morphy(std::string_view word_in, WnPos pos) const {
  const std::string word = Normalize(word_in);
  std::vector<std::string> result;
  auto keep = [&](const std::vector<std::string>& forms) {
    for (const auto& f : forms)
      if (!FindLine(index_[static_cast<int>(pos)], f).empty() &&
          std::find(result.begin(), result.end(), f) == result.end())
        result.push_back(f);
  };
  if (word.empty()) return result;
  if (std::string_view exc = FindLine(exc_[static_cast<int>(pos)], word); !exc.empty()) {
    std::vector<std::string> forms{word};
    auto f = Fields(exc);
    for (size_t i = 1; i < f.size(); ++i) forms.emplace_back(f[i]);
    keep(forms);
    return result;
  }
  auto apply = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> out;
    for (const auto& f : forms)
      for (const Rule& r : Rules(pos)) {
        size_t n = std::strlen(r.suffix);
        if (f.size() > n && f.compare(f.size() - n, n, r.suffix) == 0)
          out.push_back(f.substr(0, f.size() - n) + r.ending);
      }
    return out;
  };
  std::vector<std::string> forms = apply({word});
  std::vector<std::string> first{word};
  first.insert(first.end(), forms.begin(), forms.end());
  keep(first);
  // Each rule but men → man shortens the word, so this ends; the bound is a second guard.
  for (int round = 0; result.empty() && !forms.empty() && round < 8; ++round) {
    forms = apply(forms);
    keep(forms);
  }
  return result;
}

std::vector<uint32_t> WordNet::LemmaSynsets(std::string_view lemma, WnPos pos) const {
  std::vector<uint32_t> out;
  std::string_view line = FindLine(index_[static_cast<int>(pos)], Normalize(lemma));
  if (line.empty()) return out;
  // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
  auto f = Fields(line);
  uint32_t synsets = 0, pointers = 0;
  if (f.size() < 4 || !ParseUnsigned(f[2], 10, &synsets) || !ParseUnsigned(f[3], 10, &pointers))
    return out;
  size_t at = 4 + static_cast<size_t>(pointers) + 2;
  for (size_t i = at; i < f.size() && i < at + synsets; ++i) {
    uint32_t o = 0;
    if (ParseUnsigned(f[i], 10, &o)) out.push_back(o);
  }
  return out;
}

std::vector<uint32_t> WordNet::WordSynsets(std::string_view word, WnPos pos) const {
  std::vector<uint32_t> out;
  for (const auto& lemma : Morphy(word, pos))
    for (uint32_t o : LemmaSynsets(lemma, pos))
      if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
  return out;
}

bool WordNet::ReadSynset(WnPos pos, uint32_t offset, WnSynset* out) const {
  const Mapped& m = data_[static_cast<int>(pos)];
  if (offset >= m.size || (offset > 0 && m.data[offset - 1] != '\n')) return false;
  const void* nl = std::memchr(m.data + offset, '\n', m.size - offset);
  size_t e = nl ? static_cast<size_t>(static_cast<const char*>(nl) - m.data) : m.size;
  std::string_view line(m.data + offset, e - offset);
  line = line.substr(0, line.find(" | "));
  auto f = Fields(line);
  // offset lex_filenum ss_type w_cnt [word lex_id]… p_cnt [symbol offset pos source/target]…
  uint32_t self = 0, words = 0, pointers = 0;
  if (f.size() < 4 || !ParseUnsigned(f[0], 10, &self) || self != offset ||
      !ParseUnsigned(f[3], 16, &words))
    return false;
  size_t at = 4 + 2 * static_cast<size_t>(words);
  if (at >= f.size() || !ParseUnsigned(f[at], 10, &pointers)) return false;
  out->offset = offset;
  out->pos = pos;
  out->words.clear();
  out->pointers.clear();
  for (size_t i = 0; i < words; ++i) {
    std::string w = Normalize(f[4 + 2 * i]);
    if (size_t paren = w.find('('); paren != std::string::npos) w.resize(paren);  // "(a)" marker
    out->words.push_back(std::move(w));
  }
  for (size_t i = 0; i < pointers && at + 4 + 4 * i < f.size(); ++i) {
    WnSynset::Pointer p;
    p.symbol = std::string(f[at + 1 + 4 * i]);
    if (!ParseUnsigned(f[at + 2 + 4 * i], 10, &p.offset) || f[at + 3 + 4 * i].size() != 1 ||
        !PosFromChar(f[at + 3 + 4 * i][0], &p.pos))
      return false;
    out->pointers.push_back(std::move(p));
  }
  return true;
}

bool WordNet::SameLemma(std::string_view a, std::string_view b) const {
  for (int p = 0; p < kWnPosCount; ++p) {
    auto la = Morphy(a, static_cast<WnPos>(p)), lb = Morphy(b, static_cast<WnPos>(p));
    for (const auto& x : la)
      if (std::find(lb.begin(), lb.end(), x) != lb.end()) return true;
  }
  return false;
}

bool WordNet::Synonyms(std::string_view a, std::string_view b) const {
  for (int p = 0; p < kWnPosCount; ++p) {
    auto sa = WordSynsets(a, static_cast<WnPos>(p)), sb = WordSynsets(b, static_cast<WnPos>(p));
    for (uint32_t x : sa)
      if (std::find(sb.begin(), sb.end(), x) != sb.end()) return true;
  }
  return false;
}

std::vector<uint32_t> WordNet::Hypernyms(WnPos pos, uint32_t offset) const {
  std::vector<uint32_t> h;
  WnSynset s;
  if (!ReadSynset(pos, offset, &s)) return h;
  for (const auto& p : s.pointers)
    if ((p.symbol == "@" || p.symbol == "@i") && p.pos == pos) h.push_back(p.offset);
  return h;
}

std::shared_ptr<const WordNet::Closure> WordNet::ClosureLocked(WnPos pos, uint32_t offset) const {
  auto it = closures_.find(Key(pos, offset));
  if (it != closures_.end()) return it->second;
  auto c = std::make_shared<Closure>();
  std::unordered_map<uint32_t, int> dist{{offset, 0}};
  std::deque<uint32_t> queue{offset};
  c->min_depth = -1;
  while (!queue.empty()) {  // breadth first: the first visit is the shortest distance
    uint32_t s = queue.front();
    queue.pop_front();
    auto hyper = Hypernyms(pos, s);
    if (hyper.empty() && c->min_depth < 0) c->min_depth = dist[s];
    for (uint32_t h : hyper)
      if (dist.emplace(h, dist[s] + 1).second) queue.push_back(h);
  }
  for (auto& [o, d] : dist) {
    c->ancestors.push_back({o, d});
    c->max_dist = std::max(c->max_dist, d);
  }
  std::sort(c->ancestors.begin(), c->ancestors.end());
  if (c->min_depth < 0) c->min_depth = 0;
  if (closures_.size() >= kMaxClosures) closures_.clear();
  closures_.emplace(Key(pos, offset), c);
  return c;
}

int WordNet::MaxDepthLocked(WnPos pos, uint32_t offset, int guard) const {
  auto it = max_depth_.find(Key(pos, offset));
  if (it != max_depth_.end()) return it->second;
  int d = 0;
  if (guard < 100)  // WordNet's hierarchy is acyclic and under 20 deep; a guard for bad files
    for (uint32_t h : Hypernyms(pos, offset))
      d = std::max(d, MaxDepthLocked(pos, h, guard + 1) + 1);
  if (max_depth_.size() >= kMaxClosures) max_depth_.clear();
  max_depth_[Key(pos, offset)] = d;
  return d;
}

double WordNet::Wup(WnPos pos, uint32_t a, uint32_t b) const {
  std::lock_guard<std::mutex> lock(mu_);
  return WupLocked(pos, a, b);
}

double WordNet::WupLocked(WnPos pos, uint32_t a, uint32_t b) const {
  auto ca = ClosureLocked(pos, a), cb = ClosureLocked(pos, b);
  // The common subsumer of greatest minimum depth; a or b itself first, then the lowest offset.
  int best_min = -1;
  uint32_t sub = 0;
  auto ia = ca->ancestors.begin(), ib = cb->ancestors.begin();
  while (ia != ca->ancestors.end() && ib != cb->ancestors.end()) {
    if (ia->first < ib->first) {
      ++ia;
    } else if (ib->first < ia->first) {
      ++ib;
    } else {
      int md = ClosureLocked(pos, ia->first)->min_depth;
      bool self = ia->first == a || ia->first == b;
      if (md > best_min || (md == best_min && self)) best_min = md, sub = ia->first;
      ++ia, ++ib;
    }
  }
  const bool virtual_root = pos == WnPos::kVerb && (best_min < 0 || (best_min == 0 && sub != a));
  if (best_min < 0 && !virtual_root) return 0.0;
  if (virtual_root) {  // NLTK's simulated root: depth 1, one step above the farthest ancestor
    double len1 = ca->max_dist + 1 + 1, len2 = cb->max_dist + 1 + 1;
    return 2.0 / (len1 + len2);
  }
  const int depth = MaxDepthLocked(pos, sub, 0) + 1;
  auto cs = ClosureLocked(pos, sub);
  auto dist_to_sub = [&](const Closure& c) {  // NLTK's shortest_path_distance(s, subsumer)
    int best = 1 << 20;
    for (auto [o, d] : cs->ancestors) {
      auto it = std::lower_bound(c.ancestors.begin(), c.ancestors.end(), std::make_pair(o, -1));
      if (it != c.ancestors.end() && it->first == o) best = std::min(best, it->second + d);
    }
    return best;
  };
  double len1 = dist_to_sub(*ca) + depth, len2 = dist_to_sub(*cb) + depth;
  return 2.0 * depth / (len1 + len2);
}

std::shared_ptr<const WordNet::WordInfo> WordNet::InfoLocked(const std::string& word) const {
  auto it = words_.find(word);
  if (it != words_.end()) return it->second;
  auto info = std::make_shared<WordInfo>();
  for (int p = 0; p < kWnPosCount; ++p) {
    WnPos pos = static_cast<WnPos>(p);
    info->lemmas[p] = Morphy(word, pos);
    for (const auto& lemma : info->lemmas[p]) {
      auto s = LemmaSynsets(lemma, pos);
      if (sim_options_.max_senses > 0 && s.size() > static_cast<size_t>(sim_options_.max_senses))
        s.resize(static_cast<size_t>(sim_options_.max_senses));
      for (uint32_t o : s)
        if (std::find(info->synsets[p].begin(), info->synsets[p].end(), o) ==
            info->synsets[p].end())
          info->synsets[p].push_back(o);
    }
    for (uint32_t o : info->synsets[p]) {
      WnSynset s;
      if (!ReadSynset(pos, o, &s)) continue;
      for (const auto& ptr : s.pointers)
        if (IsRelatedPointer(ptr.symbol)) info->related.push_back(Key(ptr.pos, ptr.offset));
    }
  }
  std::sort(info->related.begin(), info->related.end());
  if (words_.size() >= kMaxWords) words_.clear();
  words_.emplace(word, info);
  return info;
}

void WordNet::set_similarity_options(const SimilarityOptions& o) {
  std::lock_guard<std::mutex> lock(mu_);
  sim_options_ = o;
  words_.clear();
  similarity_cache_.clear();
}

double WordNet::Similarity(std::string_view a_in, std::string_view b_in) const {
  std::string a = Normalize(a_in), b = Normalize(b_in);
  if (a == b) return 1.0;
  if (b < a) std::swap(a, b);
  std::string key = a + '\t' + b;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = similarity_cache_.find(key);
  if (it != similarity_cache_.end()) return it->second;
  double s = SimilarityLocked(a, b);
  if (similarity_cache_.size() >= kMaxPairs) similarity_cache_.clear();
  similarity_cache_.emplace(std::move(key), s);
  return s;
}

double WordNet::SimilarityLocked(const std::string& a, const std::string& b) const {
  auto ia = InfoLocked(a), ib = InfoLocked(b);
  for (int p = 0; p < kWnPosCount; ++p) {
    for (const auto& l : ia->lemmas[p])
      if (std::find(ib->lemmas[p].begin(), ib->lemmas[p].end(), l) != ib->lemmas[p].end())
        return 1.0;
    for (uint32_t o : ia->synsets[p])
      if (std::find(ib->synsets[p].begin(), ib->synsets[p].end(), o) != ib->synsets[p].end())
        return 1.0;
  }
  double best = 0;
  auto linked = [](const WordInfo& from, const WordInfo& to) {
    for (int p = 0; p < kWnPosCount; ++p)
      for (uint32_t o : to.synsets[p])
        if (std::binary_search(from.related.begin(), from.related.end(),
                               Key(static_cast<WnPos>(p), o)))
          return true;
    return false;
  };
  if (linked(*ia, *ib) || linked(*ib, *ia)) best = sim_options_.related;
  for (WnPos pos : {WnPos::kNoun, WnPos::kVerb})
    for (uint32_t x : ia->synsets[static_cast<int>(pos)])
      for (uint32_t y : ib->synsets[static_cast<int>(pos)])
        best = std::max(best, WupLocked(pos, x, y));
  return best;
}

}  // namespace aligndb
