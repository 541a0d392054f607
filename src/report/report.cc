// The corpus report: tables and SVG pictures written by hand, so that the page needs nothing
// from the network to be viewed.
#include "report/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "util/escape.h"
#include "util/files.h"

namespace aligndb {
namespace {

std::string Fmt(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

std::string Num(uint64_t v) {
  std::string s = std::to_string(v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

double Share(uint64_t a, uint64_t b) {
  return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

constexpr int kW = 640, kH = 300, kLeft = 56, kRight = 16, kTop = 40, kBottom = 64;

std::string SvgOpen(const std::string& title) {
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW << "\" height=\"" << kH
    << "\" viewBox=\"0 0 " << kW << " " << kH << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << kW / 2
    << "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">"
    << HtmlEscape(title) << "</text>\n";
  return o.str();
}

// Y axis with 5 gridlines from 0 to `max`.
std::string YAxis(double max, bool percent) {
  std::ostringstream o;
  int plot_h = kH - kTop - kBottom;
  for (int k = 0; k <= 4; ++k) {
    double v = max * k / 4;
    int y = kTop + plot_h - plot_h * k / 4;
    o << "<line x1=\"" << kLeft << "\" x2=\"" << kW - kRight << "\" y1=\"" << y << "\" y2=\"" << y
      << "\" stroke=\"#ddd\"/>\n"
      << "<text x=\"" << kLeft - 4 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">"
      << (percent ? Fmt("%g%%", 100 * v) : Fmt(max >= 10 ? "%.0f" : "%.2f", v)) << "</text>\n";
  }
  o << "<line x1=\"" << kLeft << "\" x2=\"" << kLeft << "\" y1=\"" << kTop << "\" y2=\""
    << kTop + plot_h << "\" stroke=\"#333\"/>\n";
  return o.str();
}

std::string Legend(const std::vector<Series>& series) {
  std::ostringstream o;
  int x = kLeft;
  for (const auto& s : series) {
    o << "<rect x=\"" << x << "\" y=\"" << kH - 16 << "\" width=\"10\" height=\"10\" fill=\""
      << s.color << "\"/>"
      << "<text x=\"" << x + 14 << "\" y=\"" << kH - 7 << "\">" << HtmlEscape(s.name)
      << "</text>\n";
    x += 24 + 7 * static_cast<int>(s.name.size());
  }
  return o.str();
}

double NiceMax(double v) {
  if (v <= 0) return 1;
  double p = std::pow(10, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * p >= v) return m * p;
  return 10 * p;
}

}  // namespace

std::string SvgBarChart(const std::string& title, const std::vector<std::string>& categories,
                        const std::vector<Series>& series, bool percent) {
  double max = 0;
  for (const auto& s : series)
    for (double v : s.values) max = std::max(max, v);
  max = percent ? std::min(1.0, NiceMax(max)) : NiceMax(max);
  std::ostringstream o;
  o << SvgOpen(title) << YAxis(max, percent);
  int plot_w = kW - kLeft - kRight, plot_h = kH - kTop - kBottom;
  double group_w = static_cast<double>(plot_w) / std::max<size_t>(1, categories.size());
  double bar_w = group_w * 0.8 / std::max<size_t>(1, series.size());
  for (size_t c = 0; c < categories.size(); ++c) {
    double gx = kLeft + c * group_w + group_w * 0.1;
    for (size_t k = 0; k < series.size(); ++k) {
      double v = c < series[k].values.size() ? series[k].values[c] : 0;
      double h = max > 0 ? plot_h * v / max : 0;
      double x = gx + k * bar_w, y = kTop + plot_h - h;
      o << "<rect x=\"" << Fmt("%.1f", x) << "\" y=\"" << Fmt("%.1f", y) << "\" width=\""
        << Fmt("%.1f", bar_w - 1) << "\" height=\"" << Fmt("%.1f", h) << "\" fill=\""
        << series[k].color << "\"><title>" << HtmlEscape(series[k].name) << " "
        << HtmlEscape(categories[c]) << ": " << (percent ? Fmt("%.1f%%", 100 * v) : Fmt("%.0f", v))
        << "</title></rect>\n";
      o << "<text x=\"" << Fmt("%.1f", x + bar_w / 2) << "\" y=\"" << Fmt("%.1f", y - 3)
        << "\" text-anchor=\"middle\" font-size=\"9\">"
        << (percent ? Fmt("%.0f%%", 100 * v) : Num(static_cast<uint64_t>(v))) << "</text>\n";
    }
    o << "<text x=\"" << Fmt("%.1f", kLeft + c * group_w + group_w / 2) << "\" y=\""
      << kTop + plot_h + 14 << "\" text-anchor=\"middle\">" << HtmlEscape(categories[c])
      << "</text>\n";
  }
  o << Legend(series) << "</svg>\n";
  return o.str();
}

std::string SvgHistogram(const std::string& title, const std::string& x_label,
                         const std::vector<Series>& series, double lo, double hi, int bins,
                         double marker) {
  std::vector<std::vector<double>> shares;
  double max = 0;
  for (const auto& s : series) {
    std::vector<double> h(bins, 0);
    for (double v : s.values) {
      int b = static_cast<int>(std::floor((v - lo) / (hi - lo) * bins));
      b = std::clamp(b, 0, bins - 1);  // values outside the range go to the end bins
      h[b] += 1;
    }
    for (double& x : h) x = s.values.empty() ? 0 : x / static_cast<double>(s.values.size());
    for (double x : h) max = std::max(max, x);
    shares.push_back(std::move(h));
  }
  max = std::min(1.0, NiceMax(max));
  std::ostringstream o;
  o << SvgOpen(title) << YAxis(max, true);
  int plot_w = kW - kLeft - kRight, plot_h = kH - kTop - kBottom;
  double bw = static_cast<double>(plot_w) / bins;
  for (size_t k = 0; k < series.size(); ++k) {
    for (int b = 0; b < bins; ++b) {
      double h = plot_h * shares[k][b] / max;
      o << "<rect x=\"" << Fmt("%.1f", kLeft + b * bw) << "\" y=\""
        << Fmt("%.1f", kTop + plot_h - h) << "\" width=\"" << Fmt("%.1f", bw) << "\" height=\""
        << Fmt("%.1f", h) << "\" fill=\"" << series[k].color << "\" fill-opacity=\"0.45\" stroke=\""
        << series[k].color << "\"><title>" << HtmlEscape(series[k].name) << " ["
        << Fmt("%g", lo + (hi - lo) * b / bins) << ", "
        << Fmt("%g", lo + (hi - lo) * (b + 1) / bins) << "): " << Fmt("%.1f%%", 100 * shares[k][b])
        << "</title></rect>\n";
    }
  }
  for (int k = 0; k <= 4; ++k) {
    double v = lo + (hi - lo) * k / 4;
    o << "<text x=\"" << Fmt("%.1f", kLeft + plot_w * k / 4.0) << "\" y=\"" << kTop + plot_h + 14
      << "\" text-anchor=\"middle\">" << Fmt("%g", v) << "</text>\n";
  }
  o << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kTop + plot_h + 30
    << "\" text-anchor=\"middle\">" << HtmlEscape(x_label) << "</text>\n";
  if (!std::isnan(marker)) {
    double x = kLeft + plot_w * (marker - lo) / (hi - lo);
    o << "<line x1=\"" << Fmt("%.1f", x) << "\" x2=\"" << Fmt("%.1f", x) << "\" y1=\"" << kTop
      << "\" y2=\"" << kTop + plot_h << "\" stroke=\"#c00\" stroke-dasharray=\"4 3\"/>\n";
  }
  o << Legend(series) << "</svg>\n";
  return o.str();
}

const char* PaletteColor(size_t i) {
  static const char* kColors[] = {"#4477aa", "#ee6677", "#228833", "#ccbb44",
                                  "#66ccee", "#aa3377", "#bbbbbb"};
  return kColors[i % 7];
}

std::string SvgCurves(const std::string& title, const std::string& x_label,
                      const std::string& y_label, const std::vector<Curve>& curves) {
  std::ostringstream o;
  o << SvgOpen(title) << YAxis(1.0, false);
  int plot_w = kW - kLeft - kRight, plot_h = kH - kTop - kBottom;
  for (int k = 0; k <= 4; ++k)
    o << "<text x=\"" << Fmt("%.1f", kLeft + plot_w * k / 4.0) << "\" y=\"" << kTop + plot_h + 14
      << "\" text-anchor=\"middle\">" << Fmt("%g", k / 4.0) << "</text>\n";
  o << "<text x=\"" << kLeft + plot_w / 2 << "\" y=\"" << kTop + plot_h + 30
    << "\" text-anchor=\"middle\">" << HtmlEscape(x_label) << "</text>\n"
    << "<text transform=\"translate(14," << kTop + plot_h / 2
    << ") rotate(-90)\" text-anchor=\"middle\">" << HtmlEscape(y_label) << "</text>\n";
  std::vector<Series> legend;
  for (const auto& c : curves) {
    o << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << c.color << "\" points=\"";
    for (size_t i = 0; i < c.xs.size(); ++i)
      o << Fmt("%.1f", kLeft + plot_w * std::clamp(c.xs[i], 0.0, 1.0)) << ","
        << Fmt("%.1f", kTop + plot_h - plot_h * std::clamp(c.ys[i], 0.0, 1.0)) << " ";
    o << "\"><title>" << HtmlEscape(c.name) << "</title></polyline>\n";
    legend.push_back({c.name, c.color, {}});
  }
  o << Legend(legend) << "</svg>\n";
  return o.str();
}

namespace {

const char* const kOps[] = {"skip-simple", "skip-normal", "1-1", "1-2", "2-1", "2-2"};
// Coster & Kauchak 2011's operation shares, for comparison.
const double kPaperOps[] = {0.27, 0.23, 0.37, 0.08, 0.05, 0.0};

using Pictures = std::vector<std::pair<std::string, std::string>>;  // file name, SVG

std::vector<double> OperationShares(const CorpusStats& st) {
  uint64_t total = 0;
  for (const auto& [k, v] : st.operations) total += v;
  std::vector<double> shares;
  for (const char* op : kOps) {
    auto it = st.operations.find(op);
    shares.push_back(Share(it == st.operations.end() ? 0 : it->second, total));
  }
  return shares;
}

uint64_t Count(const std::map<std::string, uint64_t>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

Pictures DrawPictures(const CorpusStats& st) {
  std::vector<std::string> stage_names = {"title pairs",    "removed",
                                          "aligned",        "paragraph pairs",
                                          "sentence pairs", "pairs >= " + Fmt("%.2f", st.min_sim)};
  std::vector<double> stage_values = {double(st.title_matches),
                                      double(st.removed),
                                      double(st.aligned),
                                      double(st.paragraph_pairs),
                                      double(st.sentence_pairs_all),
                                      double(st.sentence_pairs)};
  std::string counts_svg = SvgBarChart("Counts at every stage", stage_names,
                                       {{"this corpus", "#4477aa", stage_values}}, false);
  std::vector<std::string> reasons = {"stub", "disambiguation", "meta", "single_line"};
  std::vector<double> reason_values;
  for (auto& r : reasons) reason_values.push_back(double(Count(st.removed_by_reason, r)));
  std::string removed_svg = SvgBarChart("Article pairs removed, by reason", reasons,
                                        {{"removed", "#cc6677", reason_values}}, false);
  std::vector<double> paper(std::begin(kPaperOps), std::end(kPaperOps));
  std::string ops_svg = SvgBarChart("Operation shares", std::vector<std::string>(kOps, kOps + 6),
                                    {{"this corpus", "#4477aa", OperationShares(st)},
                                     {"Coster & Kauchak 2011", "#999999", paper}},
                                    true);
  std::string sim_svg =
      SvgHistogram("Similarity of every sentence pair", "TF-IDF cosine",
                   {{"sentence pairs", "#4477aa", st.similarities}}, 0, 1, 20, st.min_sim);
  std::string flesch_svg = SvgHistogram("Flesch Reading Ease of the aligned sentences",
                                        "Flesch Reading Ease (higher: easier)",
                                        {{st.normal_edition, "#cc6677", st.normal.sentence_flesch},
                                         {st.simple_edition, "#117733", st.simple.sentence_flesch}},
                                        -50, 150, 20, std::nan(""));
  return {{"counts.svg", counts_svg},
          {"removed.svg", removed_svg},
          {"operations.svg", ops_svg},
          {"similarity.svg", sim_svg},
          {"flesch.svg", flesch_svg}};
}

// A table whose cells are already in the target format: our own text, and data escaped by the
// `escape` function the table was built with.
using Row = std::vector<std::string>;
struct Table {
  std::string title;
  Row head;
  std::vector<Row> rows;
};
using Escape = std::string (*)(std::string_view);

Table CountsTable(const CorpusStats& st) {
  uint64_t unaligned = st.SimpleParagraphsUnaligned();
  auto reason = [&](const char* r) { return Num(Count(st.removed_by_reason, r)); };
  return {
      "Counts at every stage",
      {"stage", "count"},
      {{"title pairs (title in both editions)", Num(st.title_matches)},
       {"removed by the filter", Num(st.removed)},
       {"&nbsp;&nbsp;stub", reason("stub")},
       {"&nbsp;&nbsp;disambiguation", reason("disambiguation")},
       {"&nbsp;&nbsp;meta", reason("meta")},
       {"&nbsp;&nbsp;single_line", reason("single_line")},
       {"article pairs aligned", Num(st.aligned)},
       {"paragraph pairs", Num(st.paragraph_pairs)},
       {"simple paragraphs unaligned",
        Num(unaligned) + " of " + Num(st.simple_paragraphs) + " (" +
            Fmt("%.1f%%", 100 * Share(unaligned, st.simple_paragraphs)) + ")"},
       {"sentence pairs (every similarity)", Num(st.sentence_pairs_all)},
       {"sentence pairs with similarity ≥ " + Fmt("%.2f", st.min_sim), Num(st.sentence_pairs)},
       {"sentence pairs per article pair", Fmt("%.2f", Share(st.sentence_pairs, st.aligned))},
       {"identical pairs", Num(st.identical) + " (" +
                               Fmt("%.1f%%", 100 * Share(st.identical, st.sentence_pairs)) + ")"}}};
}

std::vector<Table> BuildTables(const CorpusStats& st, Escape escape) {
  std::vector<Table> tables = {CountsTable(st)};
  Table ops_table{
      "Operation shares", {"operation", "count", "this corpus", "Coster & Kauchak 2011"}, {}};
  std::vector<double> ours = OperationShares(st);
  for (int k = 0; k < 6; ++k)
    ops_table.rows.push_back({kOps[k], Num(Count(st.operations, kOps[k])),
                              Fmt("%.1f%%", 100 * ours[k]), Fmt("%.0f%%", 100 * kPaperOps[k])});
  tables.push_back(ops_table);
  if (!st.labels.empty()) {
    Table labels{
        "Labels: share of rows labelled good, similarity ≥ 0.5 (docs/method.md, Labels "
        "and export units)",
        {"unit", "operation", "band", "rows", "good", "partial", "good share"},
        {}};
    for (const auto& [key, c] : st.labels) {
      const auto& [unit, op, band] = key;
      labels.rows.push_back({unit, op, escape(band), Num(c.good + c.partial), Num(c.good),
                             Num(c.partial),
                             Fmt("%.1f%%", 100 * Share(c.good, c.good + c.partial))});
    }
    tables.push_back(labels);
  }
  auto side_row = [](const std::string& name, const CorpusStats::Side& s) {
    return Row{name, Num(s.sentences), Num(s.vocabulary),
               Fmt("%.2f", s.sentences ? double(s.words) / double(s.sentences) : 0.0),
               Fmt("%.1f", s.flesch)};
  };
  tables.push_back(
      {"The two sides of the pairs with similarity ≥ " + Fmt("%.2f", st.min_sim) +
           " (Kajiwara & Komachi, Table 3)",
       {"side", "sentences", "vocabulary", "words per sentence", "Flesch Reading Ease"},
       {side_row(escape(st.normal_edition) + " (normal)", st.normal),
        side_row(escape(st.simple_edition) + " (simple)", st.simple)}});
  return tables;
}

std::string Heading(const CorpusStats& st, Escape escape) {
  return "aligndb corpus report: " + escape(st.normal_edition) + " → " + escape(st.simple_edition);
}

// The parameters the records were aligned with, as plain text (each format escapes the line).
std::string Parameters(const CorpusStats& st) {
  return "Aligned with " + DescribeAlignParams(st.params) + "; sentence filter: similarity ≥ " +
         Fmt("%g", st.min_sim) + ".";
}

std::string RenderMarkdown(const CorpusStats& st, const Pictures& pictures) {
  std::ostringstream md;
  md << "# " << Heading(st, MarkdownEscape) << "\n\n" << MarkdownEscape(Parameters(st)) << "\n\n";
  for (const auto& t : BuildTables(st, MarkdownEscape)) {
    md << "## " << t.title << "\n\n|";
    for (const auto& h : t.head) md << " " << h << " |";
    md << "\n|";
    for (size_t k = 0; k < t.head.size(); ++k) md << (k ? "---:|" : "---|");
    md << "\n";
    for (const auto& r : t.rows) {
      md << "|";
      for (const auto& c : r) md << " " << c << " |";
      md << "\n";
    }
    md << "\n";
  }
  md << "## Pictures\n\n";
  for (const auto& [file, svg] : pictures) md << "![" << file << "](" << file << ")\n\n";
  return md.str();
}

std::string RenderHtml(const CorpusStats& st, const Pictures& pictures) {
  std::string heading = Heading(st, HtmlEscape);
  std::ostringstream html;
  html
      << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << heading
      << "</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}"
         "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 10px}"
         "td:not(:first-child){text-align:right}th{background:#f4f4f4}figure{margin:1em 0}"
         "</style></head><body>\n<h1>"
      << heading << "</h1>\n<p>" << HtmlEscape(Parameters(st)) << "</p>\n";
  for (const auto& t : BuildTables(st, HtmlEscape)) {
    html << "<h2>" << HtmlEscape(t.title) << "</h2>\n<table><tr>";
    for (const auto& h : t.head) html << "<th>" << HtmlEscape(h) << "</th>";
    html << "</tr>\n";
    for (const auto& r : t.rows) {
      html << "<tr>";
      for (const auto& c : r) html << "<td>" << c << "</td>";  // data in cells is escaped
      html << "</tr>\n";
    }
    html << "</table>\n";
  }
  html << "<h2>Pictures</h2>\n";
  for (const auto& [file, svg] : pictures) html << "<figure>\n" << svg << "</figure>\n";
  html << "</body></html>\n";
  return html.str();
}

Status WriteFile(const std::string& dir, const std::string& name, const std::string& content,
                 std::vector<std::string>* files) {
  const std::string path = (std::filesystem::path(dir) / name).string();
  OutputFile f;  // a failed write leaves the previous report's file as it was
  RETURN_IF_ERROR(f.Open(path));
  f.stream() << content;
  RETURN_IF_ERROR(f.Commit());
  files->push_back(path);
  return Status::OK();
}

// The report describes an edition pair; a database of paraphrase collections only is told so,
// with what it holds and where its figures are.
Status NoEditionPair(Store* store, const std::string& collection) {
  std::vector<std::pair<std::string, std::string>> aligned;
  RETURN_IF_ERROR(store->Pairings(&aligned));
  std::string collections;
  for (const auto& [normal, simple] : aligned)
    if (normal == simple) collections += (collections.empty() ? "" : ", ") + normal;
  return Status::NotFound(store->dir() + ": " + collection +
                          " is a paraphrase collection, and the report describes an aligned "
                          "edition pair (Wikipedia and Simple Wikipedia); paraphrase collections "
                          "stored: " +
                          collections + " (their figures: `aligndb stats --collection " +
                          collection + "`)");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ReportPictures(const CorpusStats& stats) {
  return DrawPictures(stats);
}

std::string ReportHtml(const CorpusStats& stats) { return RenderHtml(stats, DrawPictures(stats)); }

std::string ReportMarkdown(const CorpusStats& stats) {
  return RenderMarkdown(stats, DrawPictures(stats));
}

Status WriteReport(Store* store, const ReportOptions& options, std::vector<std::string>* files) {
  if (options.out_dir.empty()) return Status::InvalidArgument("report needs --out DIR");
  RETURN_IF_ERROR(CheckOutputDirectory(options.out_dir).WithPrefix("--out"));
  EditionPair pair;
  Status resolved = ResolveEditions(store, options.editions, &pair);
  // No such pair: the statistics' own checks tell a bad --min-sim before that.
  if (!resolved.ok() && !resolved.IsNotFound()) return resolved;
  if (resolved.ok() && pair.normal == pair.simple) return NoEditionPair(store, pair.normal);
  CorpusStats st;
  RETURN_IF_ERROR(ComputeCorpusStats(store, resolved.ok() ? pair : options.editions,
                                     options.min_sim, true, &st));
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec) return Status::IOError("--out: " + options.out_dir + ": cannot create: " + ec.message());
  Pictures pictures = DrawPictures(st);
  RETURN_IF_ERROR(WriteFile(options.out_dir, "report.html", RenderHtml(st, pictures), files));
  RETURN_IF_ERROR(WriteFile(options.out_dir, "report.md", RenderMarkdown(st, pictures), files));
  for (const auto& [file, svg] : pictures)
    RETURN_IF_ERROR(WriteFile(options.out_dir, file, svg, files));
  return Status::OK();
}

}  // namespace aligndb
