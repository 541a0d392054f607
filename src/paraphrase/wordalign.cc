#include "paraphrase/wordalign.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "eval/eval.h"

namespace aligndb {
namespace {

std::string Lower(const std::string& s) {
  std::string o = s;
  for (char& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

}  // namespace

Links DirectionalLinks(const WordVectors* vectors, const std::vector<std::string>& from,
                       const std::vector<std::string>& to, double theta) {
  Links links;
  if (from.empty() || to.empty()) return links;
  std::vector<std::string> lf, lt;
  for (const auto& w : from) lf.push_back(Lower(w));
  for (const auto& w : to) lt.push_back(Lower(w));
  std::vector<int64_t> rt;
  if (vectors)
    for (const auto& w : lt) rt.push_back(vectors->Find(w));
  for (size_t i = 0; i < from.size(); ++i) {
    double rel_i = from.size() > 1 ? static_cast<double>(i) / (from.size() - 1) : 0.0;
    int best = -1;
    double best_dist = 2;
    for (size_t j = 0; j < to.size(); ++j) {
      if (lf[i] != lt[j]) continue;
      double rel_j = to.size() > 1 ? static_cast<double>(j) / (to.size() - 1) : 0.0;
      if (std::fabs(rel_i - rel_j) < best_dist)
        best_dist = std::fabs(rel_i - rel_j), best = static_cast<int>(j);
    }
    if (best < 0 && vectors) {
      int64_t ri = vectors->Find(lf[i]);
      double best_phi = theta;
      if (ri >= 0) {
        for (size_t j = 0; j < to.size(); ++j) {
          if (rt[j] < 0) continue;
          const float* a = vectors->Row(ri);
          const float* b = vectors->Row(rt[j]);
          double dot = 0;
          for (int d = 0; d < vectors->dim(); ++d) dot += static_cast<double>(a[d]) * b[d];
          double phi = dot * vectors->InverseNorm(ri) * vectors->InverseNorm(rt[j]);
          if (phi > best_phi) best_phi = phi, best = static_cast<int>(j);
        }
      }
    }
    if (best >= 0) links.insert({static_cast<int>(i), best});
  }
  return links;
}

Status Symmetrize(const Links& s2t, const Links& t2s, const std::string& method, Links* out) {
  Links uni = s2t;
  uni.insert(t2s.begin(), t2s.end());
  Links inter;
  std::set_intersection(s2t.begin(), s2t.end(), t2s.begin(), t2s.end(),
                        std::inserter(inter, inter.begin()));
  if (method == "intersection") {
    *out = inter;
    return Status::OK();
  }
  if (method == "union") {
    *out = uni;
    return Status::OK();
  }
  if (method != "grow-diag-final")
    return Status::InvalidArgument("--symmetrize must be intersection, union or grow-diag-final");
  Links a = inter;
  std::set<int> src_aligned, tgt_aligned;
  for (auto& [i, j] : a) src_aligned.insert(i), tgt_aligned.insert(j);
  static const int kNeighbors[8][2] = {{-1, 0},  {0, -1}, {1, 0},  {0, 1},
                                       {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
  for (bool added = true; added;) {  // grow-diag
    added = false;
    for (auto [i, j] : Links(a)) {
      for (auto& n : kNeighbors) {
        std::pair<int, int> p{i + n[0], j + n[1]};
        if (a.count(p) || !uni.count(p)) continue;
        if (!src_aligned.count(p.first) || !tgt_aligned.count(p.second)) {
          a.insert(p);
          src_aligned.insert(p.first);
          tgt_aligned.insert(p.second);
          added = true;
        }
      }
    }
  }
  for (const Links* dir : {&s2t, &t2s})  // final
    for (auto& p : *dir)
      if (!a.count(p) && (!src_aligned.count(p.first) || !tgt_aligned.count(p.second))) {
        a.insert(p);
        src_aligned.insert(p.first);
        tgt_aligned.insert(p.second);
      }
  *out = a;
  return Status::OK();
}

Status AlignWords(const WordVectors* vectors, const std::vector<std::string>& s1,
                  const std::vector<std::string>& s2, double theta, const std::string& symmetrize,
                  Links* out) {
  Links s2t = DirectionalLinks(vectors, s1, s2, theta);
  Links t2s;
  for (auto [j, i] : DirectionalLinks(vectors, s2, s1, theta)) t2s.insert({i, j});
  return Symmetrize(s2t, t2s, symmetrize, out);
}

std::string FormatLinks(const Links& links) {
  std::string s;
  for (auto [i, j] : links) {
    if (!s.empty()) s += ' ';
    s += std::to_string(i) + "-" + std::to_string(j);
  }
  return s;
}

Status ParseLinks(const std::string& text, Links* sure, Links* possible_only) {
  for (const auto& tok : SplitWhitespace(text)) {
    std::string t = tok;
    bool p = !t.empty() && (t.back() == 'p' || t.back() == 'P');
    if (p) t.pop_back();
    size_t dash = t.find('-');
    char* e1 = nullptr;
    char* e2 = nullptr;
    if (dash == std::string::npos || dash == 0)
      return Status::Corruption("bad link \"" + tok + "\" (expected i-j)");
    long i = std::strtol(t.c_str(), &e1, 10);
    long j = std::strtol(t.c_str() + dash + 1, &e2, 10);
    if (*e1 != '-' || *e2 != '\0' || i < 0 || j < 0)
      return Status::Corruption("bad link \"" + tok + "\" (expected i-j)");
    (p && possible_only ? possible_only : sure)->insert({static_cast<int>(i), static_cast<int>(j)});
  }
  return Status::OK();
}

Status ReadGoldAlignments(const std::string& path, std::vector<GoldAlignment>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string all = ss.str();
  size_t first = all.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && all[first] == '[') {  // Edinburgh++ JSON
    nlohmann::json j = nlohmann::json::parse(all, nullptr, false);
    if (j.is_discarded() || !j.is_array())
      return Status::Corruption(path + ": not a JSON array of alignments");
    for (size_t k = 0; k < j.size(); ++k) {
      const auto& e = j[k];
      if (!e.is_object() || !e.contains("source") || !e.contains("target") ||
          !e.contains("sureAlign"))
        return Status::Corruption(path + ": entry " + std::to_string(k) +
                                  ": expected source, target, sureAlign");
      GoldAlignment g;
      g.s1 = SplitWhitespace(e["source"].get<std::string>());
      g.s2 = SplitWhitespace(e["target"].get<std::string>());
      Links extra;
      RETURN_IF_ERROR(ParseLinks(e["sureAlign"].get<std::string>(), &g.sure, nullptr)
                          .WithPrefix(path + ": entry " + std::to_string(k)));
      if (e.contains("possibleAlign") && e["possibleAlign"].is_string())
        RETURN_IF_ERROR(ParseLinks(e["possibleAlign"].get<std::string>(), &extra, nullptr)
                            .WithPrefix(path + ": entry " + std::to_string(k)));
      g.possible = g.sure;
      g.possible.insert(extra.begin(), extra.end());
      out->push_back(std::move(g));
    }
    return Status::OK();
  }
  std::istringstream lines(all);
  std::string line;
  uint64_t n = 0;
  while (std::getline(lines, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> f;
    for (size_t b = 0;;) {
      size_t t = line.find('\t', b);
      f.push_back(line.substr(b, t == std::string::npos ? std::string::npos : t - b));
      if (t == std::string::npos) break;
      b = t + 1;
    }
    GoldAlignment g;
    if (f.size() >= 8) {  // MultiMWA TSV
      g.s1 = SplitWhitespace(f[1]);
      g.s2 = SplitWhitespace(f[3]);
      Links extra;
      RETURN_IF_ERROR(
          ParseLinks(f[7], &g.sure, nullptr).WithPrefix(path + ": line " + std::to_string(n)));
      if (f.size() >= 9)
        RETURN_IF_ERROR(
            ParseLinks(f[8], &extra, nullptr).WithPrefix(path + ": line " + std::to_string(n)));
      g.possible = g.sure;
      g.possible.insert(extra.begin(), extra.end());
    } else if (f.size() == 1) {  // Pharaoh, "p" marks possible links
      Links extra;
      RETURN_IF_ERROR(
          ParseLinks(f[0], &g.sure, &extra).WithPrefix(path + ": line " + std::to_string(n)));
      g.possible = g.sure;
      g.possible.insert(extra.begin(), extra.end());
    } else {
      return Status::Corruption(path + ": line " + std::to_string(n) +
                                ": expected MultiMWA TSV (9 columns) or Pharaoh links (i-j, i-jp)");
    }
    out->push_back(std::move(g));
  }
  return Status::OK();
}

Status ComputeAer(const std::vector<GoldAlignment>& gold, const std::vector<Links>& predicted,
                  AerResult* out) {
  if (gold.size() != predicted.size())
    return Status::InvalidArgument("the gold has " + std::to_string(gold.size()) +
                                   " sentence pairs, the prediction " +
                                   std::to_string(predicted.size()));
  struct Sums {
    size_t a = 0, s = 0, p = 0, as = 0, ap = 0;
  } sums[3];  // overall, identical, non-identical
  out->has_split = !gold.empty();
  for (size_t k = 0; k < gold.size(); ++k) {
    const GoldAlignment& g = gold[k];
    bool words = !g.s1.empty() || !g.s2.empty();
    if (!words) out->has_split = false;
    auto kind = [&](const std::pair<int, int>& l) {
      if (!words || l.first >= static_cast<int>(g.s1.size()) ||
          l.second >= static_cast<int>(g.s2.size()))
        return 2;
      return Lower(g.s1[l.first]) == Lower(g.s2[l.second]) ? 1 : 2;
    };
    for (const auto& l : predicted[k]) {
      int c = kind(l);
      for (int t : {0, c}) {
        ++sums[t].a;
        sums[t].as += g.sure.count(l);
        sums[t].ap += g.possible.count(l);
      }
    }
    for (const auto& l : g.sure)
      for (int t : {0, kind(l)}) ++sums[t].s;
    for (const auto& l : g.possible)
      for (int t : {0, kind(l)}) ++sums[t].p;
  }
  AerFigures* figs[3] = {&out->overall, &out->identical, &out->non_identical};
  for (int t = 0; t < 3; ++t) {
    const Sums& s = sums[t];
    AerFigures& f = *figs[t];
    f.predicted = s.a;
    f.sure = s.s;
    f.possible = s.p;
    f.precision = s.a ? static_cast<double>(s.ap) / s.a : 0.0;
    f.recall = s.s ? static_cast<double>(s.as) / s.s : 0.0;
    f.aer =
        (s.a + s.s) ? 1.0 - static_cast<double>(s.as + s.ap) / static_cast<double>(s.a + s.s) : 0.0;
  }
  out->sentences = gold.size();
  return Status::OK();
}

}  // namespace aligndb
