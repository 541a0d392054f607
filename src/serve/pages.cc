#include "serve/pages.h"

#include <cstdio>
#include <map>
#include <set>

#include "aligndb.pb.h"
#include "util/escape.h"

namespace aligndb::serve {
namespace {

constexpr char kCss[] =
    "*{box-sizing:border-box}body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:0;"
    "color:#1f2328;background:#f6f7f9;font-size:15px}"
    "header{background:#24436e;color:#fff;padding:.7em 2em;display:flex;gap:2em;"
    "align-items:center}header a{color:#fff;text-decoration:none}"
    "header .brand{font-weight:700;font-size:1.15em}header nav a{margin-right:1.2em;opacity:.9}"
    "main{max-width:1360px;margin:1.2em auto;padding:0 2em}"
    "h1{font-size:1.4em;margin:.4em 0}h2{font-size:1.1em;margin:1.2em 0 "
    ".5em}.card>h1:first-child,.card>h2:first-child{margin-top:0}"
    ".card{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:1em 1.2em;"
    "margin:0 0 1em}"
    "form.search{display:flex;gap:.5em}form.search input[type=text]{flex:1;font-size:1.05em;"
    "padding:.45em .6em;border:1px solid #b8c0cc;border-radius:4px}"
    "button{background:#24436e;color:#fff;border:0;border-radius:4px;padding:.45em 1em;"
    "font-size:1em;cursor:pointer}"
    "table{border-collapse:collapse;background:#fff}td,th{border:1px solid #dde1e6;"
    "padding:.35em .6em;vertical-align:top;text-align:left}th{background:#eef1f5}"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".pics{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.pics "
    "figure{margin:0;background:#fff;"
    "border:1px solid #dde1e6;border-radius:6px;padding:.4em}"
    ".pics svg{max-width:100%;height:auto}.pics>.card{margin:0;flex:0 1 600px}.pics "
    "table{width:100%}"
    ".cols{display:grid;grid-template-columns:1fr 1fr;gap:1.4em}"
    ".col h2{margin-top:0}.meta{color:#57606a;font-size:.9em}"
    "p.para{background:#fff;border:1px solid #dde1e6;border-radius:5px;padding:.55em .8em;"
    "line-height:1.6;margin:0 0 .7em}p.para .pn{color:#8c959f;font-size:.75em;margin-right:.4em}"
    ".s{border-radius:3px;padding:1px 2px;color:inherit;text-decoration:none}"
    ".s.skip{color:#8c959f}.s.hi{background:#d3ecd4}.s.mid{background:#fcebc0}"
    ".s.low{background:#f6dada}"
    ".s.on,.s:target{background:#b6cff5;outline:2px solid #24436e}"
    ".b{display:inline-block;font-size:.7em;line-height:1.3;padding:0 .45em;border-radius:8px;"
    "margin:0 .15em;color:#fff;vertical-align:.35em;white-space:nowrap}"
    ".b.hi{background:#2e7d32}.b.mid{background:#a86b00}.b.low{background:#b03a3a}"
    ".legend span{margin-right:1em}.note{background:#fff4d6;border:1px solid #e8c66a;"
    "padding:.5em .8em;border-radius:5px}"
    "form.filter{display:flex;flex-wrap:wrap;gap:.8em;align-items:end}"
    "form.filter label{display:flex;flex-direction:column;font-size:.85em;color:#57606a}"
    "form.filter input,form.filter select{font-size:1em;padding:.3em;border:1px solid #b8c0cc;"
    "border-radius:4px}td.sim{font-weight:600}td.op{white-space:nowrap}td.sim.hi{color:#2e7d32}"
    "td.sim.mid{color:#a86b00}td.sim.low{color:#b03a3a}.pager a{margin-right:1em}";

// Highlights every sentence that shares a pair with the one under the pointer, and fills the
// title datalist from /api/titles; the pages work without it.
constexpr char kScript[] =
    "<script>\n"
    "document.addEventListener('mouseover',function(e){\n"
    " var t=e.target.closest?e.target.closest('[data-pairs]'):null;\n"
    " document.querySelectorAll('.on').forEach(function(x){x.classList.remove('on')});\n"
    " if(!t)return;var ks=t.dataset.pairs.split(' ');\n"
    " document.querySelectorAll('[data-pairs]').forEach(function(x){\n"
    "  if(x.dataset.pairs.split(' ').some(function(k){return ks.indexOf(k)>=0}))"
    "x.classList.add('on')})});\n"
    "var q=document.getElementById('title'),dl=document.getElementById('titles');\n"
    "if(q&&dl)q.addEventListener('input',function(){\n"
    " if(q.value.length<1)return;\n"
    " fetch('/api/titles?prefix='+encodeURIComponent(q.value)).then(function(r){"
    "return r.json()}).then(function(ts){\n"
    "  dl.replaceChildren();ts.forEach(function(t){var o=document.createElement('option');"
    "o.value=t;dl.appendChild(o)})}).catch(function(){})});\n"
    "</script>\n";

std::string Page(std::string_view title, const std::string& body) {
  std::string h;
  h.reserve(body.size() + 4096);
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  h += "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>";
  h += HtmlEscape(title);
  h += " · aligndb</title>\n<style>";
  h += kCss;
  h += "</style></head><body>\n<header><a class=\"brand\" href=\"/\">aligndb viewer</a><nav>"
       "<a href=\"/\">Search</a><a href=\"/pairs\">Pairs</a><a href=\"/api/stats\">API</a>"
       "</nav></header>\n<main>\n";
  h += body;
  h += "</main>\n";
  h += kScript;
  h += "</body></html>\n";
  return h;
}

std::string Fixed(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

std::string ArticleHref(std::string_view title) { return "/article?title=" + UrlEncode(title); }

std::string SearchForm(std::string_view value) {
  return "<form class=\"search\" action=\"/article\" method=\"get\">"
         "<input type=\"text\" id=\"title\" name=\"title\" list=\"titles\" autocomplete=\"off\" "
         "placeholder=\"Title in either edition, e.g. April\" value=\"" +
         HtmlEscape(value) +
         "\" required><datalist id=\"titles\"></datalist><button type=\"submit\">Look up"
         "</button></form>\n";
}

std::string SuggestionList(const std::vector<std::string>& titles) {
  std::string h = "<ul>";
  for (const auto& t : titles)
    h += "<li><a href=\"" + HtmlEscape(ArticleHref(t)) + "\">" + HtmlEscape(t) + "</a></li>";
  return h + "</ul>\n";
}

uint64_t Get(const std::map<std::string, uint64_t>& m, const char* key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

std::string StatRow(std::string_view name, const std::string& value) {
  return "<tr><th>" + std::string(name) + "</th><td class=\"n\">" + value + "</td></tr>";
}

std::string StatsTable(const CorpusStats& st) {
  uint64_t ops_total = 0;
  for (const auto& [k, v] : st.operations) ops_total += v;
  auto share = [](uint64_t a, uint64_t b) {
    return Fixed("%.1f%%", b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0);
  };
  std::string h = "<table>";
  h += StatRow("title matches", std::to_string(st.title_matches));
  std::string removed = std::to_string(st.removed) + "<br>(";
  for (const char* r : {"stub", "disambiguation", "meta", "single_line"})
    removed += std::string(r) + " " + std::to_string(Get(st.removed_by_reason, r)) + ", ";
  removed.resize(removed.size() - 2);
  h += StatRow("removed by the pairing filter", removed + ")");
  h += StatRow("aligned article pairs", std::to_string(st.aligned));
  h += StatRow("paragraph pairs", std::to_string(st.paragraph_pairs));
  h += StatRow("simple paragraphs unaligned",
               share(st.simple_paragraphs - st.paragraph_pairs, st.simple_paragraphs));
  h += StatRow("sentence pairs (all)", std::to_string(st.sentence_pairs_all));
  h += StatRow("sentence pairs, similarity ≥ " + Fixed("%.2f", st.min_sim),
               std::to_string(st.sentence_pairs));
  h += StatRow("identical", share(st.identical, st.sentence_pairs));
  std::string ops;
  for (const char* op : {"skip-simple", "skip-normal", "1-1", "1-2", "2-1", "2-2", "pair"})
    if (Get(st.operations, op) || std::string_view(op) != "pair")
      ops += (ops.empty() ? "" : "<br>") + std::string(op) + " " +
             share(Get(st.operations, op), ops_total);
  h += StatRow("operations", ops);
  return h + "</table>\n";
}

// ---------------------------------------------------------------- article page

struct Pos {
  uint32_t paragraph, sentence;
  bool operator<(const Pos& o) const {
    return paragraph != o.paragraph ? paragraph < o.paragraph : sentence < o.sentence;
  }
};

// What the page shows of one sentence pair of the record.
struct PairInfo {
  Pos normal, simple;
  std::string badge;  // operation, similarity, label
  const char* band;
};

std::vector<PairInfo> PairsOf(const pb::AlignmentRecord& r) {
  std::vector<PairInfo> pairs;
  for (const auto& pp : r.paragraph_pairs())
    for (const auto& sp : pp.sentence_pairs()) {
      PairInfo p{
          {sp.normal_paragraph(), sp.normal_sentence()},
          {sp.simple_paragraph(), sp.simple_sentence()},
          std::string(OpName(static_cast<Op>(sp.op()))) + " " + Fixed("%.2f", sp.similarity()),
          SimilarityBand(sp.similarity())};
      if (sp.label() != pb::LABEL_NONE)
        p.badge += std::string(" ") + LabelName(static_cast<Label>(sp.label()));
      pairs.push_back(std::move(p));
    }
  return pairs;
}

// One column: each paragraph's sentences, aligned ones linked to their first partner.
std::string Column(char side, const ArticleSide& a, const std::vector<PairInfo>& pairs) {
  const char partner = side == 'n' ? 's' : 'n';
  std::map<Pos, std::vector<size_t>> of;  // sentence → its pairs
  for (size_t k = 0; k < pairs.size(); ++k)
    of[side == 'n' ? pairs[k].normal : pairs[k].simple].push_back(k);
  std::string h;
  for (size_t p = 0; p < a.paragraphs.size(); ++p) {
    std::string para;
    for (size_t s = 0; s < a.paragraphs[p].size(); ++s) {
      const std::string& text = a.paragraphs[p][s];
      if (text.empty()) continue;  // a position the record does not name (from_record)
      const std::string pos = std::to_string(p) + "-" + std::to_string(s);
      auto it = of.find({static_cast<uint32_t>(p), static_cast<uint32_t>(s)});
      if (it == of.end()) {
        para += "<span class=\"s skip\" id=\"" + std::string(1, side) + "-" + pos + "\">" +
                HtmlEscape(text) + "</span> ";
        continue;
      }
      const PairInfo& first = pairs[it->second.front()];
      const Pos to = side == 'n' ? first.simple : first.normal;
      std::string keys, badges, tip;
      for (size_t k : it->second) {
        keys += (keys.empty() ? "" : " ") + std::to_string(k);
        tip += (tip.empty() ? "" : "; ") + pairs[k].badge;
        badges +=
            "<span class=\"b " + std::string(pairs[k].band) + "\">" + pairs[k].badge + "</span>";
      }
      para += "<a class=\"s aligned " + std::string(first.band) + "\" id=\"" +
              std::string(1, side) + "-" + pos + "\" data-pos=\"" + std::to_string(p) + "." +
              std::to_string(s) + "\" data-pairs=\"" + keys + "\" href=\"#" +
              std::string(1, partner) + "-" + std::to_string(to.paragraph) + "-" +
              std::to_string(to.sentence) + "\" title=\"" + tip + "\">" + HtmlEscape(text) +
              "</a>" + (side == 's' ? badges : "") + " ";
    }
    if (!para.empty())
      h += "<p class=\"para\"><span class=\"pn\">¶" + std::to_string(p) + "</span>" + para +
           "</p>\n";
  }
  return h;
}

std::string ColumnHead(std::string_view edition, std::string_view title, uint64_t revision,
                       bool from_record) {
  std::string h =
      "<h2>" + HtmlEscape(title) + "</h2><p class=\"meta\">" + HtmlEscape(edition) + ", revision ";
  const std::string url = RevisionUrl(edition, revision);
  if (url.empty())
    h += std::to_string(revision);
  else
    h += "<a href=\"" + HtmlEscape(url) + "\" rel=\"noreferrer\">" + std::to_string(revision) +
         "</a>";
  h += "</p>\n";
  if (from_record)
    h += "<p class=\"note\">The stored page is not the aligned revision: only the aligned "
         "sentences are shown.</p>\n";
  return h;
}

std::string PairsFilterForm(const PairsQuery& q) {
  auto option = [](std::string_view value, std::string_view shown, std::string_view current) {
    return "<option value=\"" + std::string(value) + "\"" + (value == current ? " selected" : "") +
           ">" + std::string(shown) + "</option>";
  };
  std::string h = "<form class=\"filter card\" action=\"/pairs\" method=\"get\">";
  h += "<label>min similarity<input name=\"min_sim\" size=\"5\" value=\"" + HtmlEscape(q.min_sim) +
       "\" placeholder=\"0.5\"></label>";
  h += "<label>max similarity<input name=\"max_sim\" size=\"5\" value=\"" + HtmlEscape(q.max_sim) +
       "\" placeholder=\"1\"></label><label>operation<select name=\"op\">";
  h += option("", "any", q.op);
  for (const char* op : {"1-1", "1-2", "2-1", "2-2", "pair"}) h += option(op, op, q.op);
  h += "</select></label><label>label<select name=\"label\">";
  h += option("", "any", q.label) + option("good", "good", q.label) +
       option("partial", "partial", q.label);
  h += "</select></label><label>text or title contains<input name=\"q\" size=\"24\" value=\"" +
       HtmlEscape(q.q) + "\"></label><button type=\"submit\">Filter</button></form>\n";
  return h;
}

std::string PairsUrl(const PairsQuery& q, uint64_t page) {
  return "/pairs?min_sim=" + UrlEncode(q.min_sim) + "&max_sim=" + UrlEncode(q.max_sim) +
         "&op=" + UrlEncode(q.op) + "&label=" + UrlEncode(q.label) + "&q=" + UrlEncode(q.q) +
         "&page=" + std::to_string(page);
}

}  // namespace

std::string RevisionUrl(std::string_view edition, uint64_t revision) {
  constexpr std::string_view kSuffix = "wiki";
  if (edition.size() <= kSuffix.size() || !edition.ends_with(kSuffix)) return "";
  std::string lang(edition.substr(0, edition.size() - kSuffix.size()));
  // Wikimedia projects that share the "wiki" suffix but are not language editions.
  static const std::set<std::string> kNotWikipedia = {
      "commons",  "meta", "species", "wikidata",   "mediawiki", "sources", "incubator",
      "outreach", "test", "test2",   "foundation", "wikimania", "beta"};
  if (kNotWikipedia.count(lang) || lang.size() > 12) return "";
  for (char& c : lang) {
    if (c == '_')
      c = '-';
    else if (!(c >= 'a' && c <= 'z'))
      return "";
  }
  if (lang.front() == '-' || lang.back() == '-') return "";
  return "https://" + lang + ".wikipedia.org/w/index.php?oldid=" + std::to_string(revision);
}

std::string UrlEncode(std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

const char* SimilarityBand(double similarity) {
  return similarity >= 0.75 ? "hi" : similarity >= 0.5 ? "mid" : "low";
}

std::string HomePage(const HomeView& v) {
  std::string b = "<div class=\"card\"><h1>Look up an article pair</h1>\n" + SearchForm("");
  b += "<form action=\"/\" method=\"get\" class=\"meta\">Titles starting with "
       "<input name=\"prefix\" value=\"" +
       HtmlEscape(v.prefix) + "\" size=\"16\"> <button type=\"submit\">List</button></form>\n";
  if (!v.prefix.empty())
    b += v.suggestions.empty()
             ? "<p>No aligned title starts with “" + HtmlEscape(v.prefix) + "”.</p>\n"
             : SuggestionList(v.suggestions);
  b += "</div>\n";
  if (v.stats) {
    b += "<div class=\"pics\"><div class=\"card\"><h2>Corpus: " +
         HtmlEscape(v.stats->normal_edition) + " ↔ " + HtmlEscape(v.stats->simple_edition) +
         "</h2>\n" + StatsTable(*v.stats) +
         "<p><a href=\"/pairs\">Browse the sentence pairs →</a></p></div>\n";
    for (const auto& [name, svg] : v.pictures) b += "<figure>" + svg + "</figure>\n";
    b += "</div>\n";
  } else {
    b += "<div class=\"card\"><p>" + HtmlEscape(v.stats_error) + "</p></div>\n";
  }
  return Page("Search", b);
}

ArticleSide SideFromRecord(const pb::AlignmentRecord& r, bool normal) {
  ArticleSide side;
  side.from_record = true;
  size_t slots = 0;
  for (const auto& pp : r.paragraph_pairs())
    for (const auto& sp : pp.sentence_pairs()) {
      const uint32_t p = normal ? sp.normal_paragraph() : sp.simple_paragraph();
      const uint32_t s = normal ? sp.normal_sentence() : sp.simple_sentence();
      const size_t have_p = side.paragraphs.size();
      const size_t have_s = p < have_p ? side.paragraphs[p].size() : 0;
      const size_t more = (p >= have_p ? p + 1 - have_p : 0) + (s >= have_s ? s + 1 - have_s : 0);
      if (slots + more > kMaxRecordSideSlots) continue;
      slots += more;
      if (side.paragraphs.size() <= p) side.paragraphs.resize(p + 1);
      if (side.paragraphs[p].size() <= s) side.paragraphs[p].resize(s + 1);
      side.paragraphs[p][s] = normal ? sp.normal_text() : sp.simple_text();
    }
  return side;
}

std::string ArticlePage(const pb::AlignmentRecord& r, const ArticleSide& normal,
                        const ArticleSide& simple) {
  const std::vector<PairInfo> pairs = PairsOf(r);
  std::string b = "<div class=\"card\">" + SearchForm(r.simple_title());
  b += "<p class=\"meta legend\">" + std::to_string(pairs.size()) + " sentence pairs in " +
       std::to_string(r.paragraph_pairs_size()) + " paragraph pairs, aligned by run #" +
       std::to_string(r.run_id()) + " (" + HtmlEscape(r.params().mode()) + ", " +
       HtmlEscape(r.params().similarity()) +
       ") · similarity: <span class=\"b hi\">≥ 0.75</span><span class=\"b mid\">0.5–0.75</span>"
       "<span class=\"b low\">&lt; 0.5</span> · grey: skipped · hover or click a sentence for "
       "its partner</p></div>\n<div class=\"cols\"><section class=\"col\" id=\"normal\">";
  b += ColumnHead(r.normal_edition(), r.normal_title(), r.normal_revision(), normal.from_record);
  b += Column('n', normal, pairs);
  b += "</section><section class=\"col\" id=\"simple\">";
  b += ColumnHead(r.simple_edition(), r.simple_title(), r.simple_revision(), simple.from_record);
  b += Column('s', simple, pairs);
  b += "</section></div>\n";
  return Page(r.simple_title(), b);
}

std::string PairsPage(const PairsQuery& q, const std::vector<PairRow>& rows, bool has_next) {
  std::string b = "<h1>Sentence pairs</h1>\n" + PairsFilterForm(q);
  b += "<table><tr><th>article</th><th>normal</th><th>simple</th><th>op</th><th>similarity</th>"
       "<th>label</th></tr>\n";
  for (const PairRow& row : rows) {
    const char* band = SimilarityBand(row.similarity);
    b += "<tr><td><a href=\"" + HtmlEscape(ArticleHref(row.simple_title)) + "\">" +
         HtmlEscape(row.simple_title) + "</a></td><td>" + HtmlEscape(row.normal) + "</td><td>" +
         HtmlEscape(row.simple) + "</td><td class=\"op\">" + OpName(row.op) +
         "</td><td class=\"n sim " + band + "\">" + Fixed("%.3f", row.similarity) + "</td><td>" +
         (row.label == Label::kNone ? "" : LabelName(row.label)) + "</td></tr>\n";
  }
  b += "</table>\n<p class=\"pager\">";
  if (rows.empty()) b += "No pair matches. ";
  b += "Page " + std::to_string(q.page) + " ";
  if (q.page > 1) b += "<a href=\"" + HtmlEscape(PairsUrl(q, q.page - 1)) + "\">← previous</a>";
  if (has_next) b += "<a href=\"" + HtmlEscape(PairsUrl(q, q.page + 1)) + "\">next →</a>";
  b += "</p>\n";
  return Page("Sentence pairs", b);
}

std::string ErrorPage(int status, std::string_view message,
                      const std::vector<std::string>& suggestions) {
  std::string b = "<div class=\"card\"><h1>" + std::to_string(status) +
                  (status == 404   ? " Not found"
                   : status == 400 ? " Bad request"
                                   : " Error") +
                  "</h1><p>" + HtmlEscape(message) + "</p>\n";
  if (!suggestions.empty())
    b += "<p>Titles that start the same way:</p>" + SuggestionList(suggestions);
  b += SearchForm("") + "</div>\n";
  return Page(std::to_string(status), b);
}

}  // namespace aligndb::serve
