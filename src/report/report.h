// Corpus reports (docs/method.md, Corpus reports): one self-contained HTML page with SVG pictures,
// the same tables as Markdown, and the pictures as SVG files.
#ifndef ALIGNDB_REPORT_REPORT_H_
#define ALIGNDB_REPORT_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "aligndb/status.h"
#include "export/export.h"
#include "storage/store.h"

namespace aligndb {

struct ReportOptions {
  EditionPair editions;
  // Similarity threshold of the sentence pair filter. Default: 0.5.
  double min_sim = kDefaultMinSimilarity;
  // Directory to write report.html, report.md and the *.svg pictures to (created if missing).
  std::string out_dir;
};

// Writes the report; `files` receives the paths written. Text from the data (edition names)
// is escaped for each format (util/escape.h).
Status WriteReport(Store* store, const ReportOptions& options, std::vector<std::string>* files);

// The report pages of `stats` (computed with distributions): the HTML page with its pictures
// inline, and the Markdown page that links to the picture files. Exposed for tests.
std::string ReportHtml(const CorpusStats& stats);
std::string ReportMarkdown(const CorpusStats& stats);

// The report's pictures of `stats` (computed with distributions), in the report's order: file
// name ("counts.svg", ...) and standalone SVG document, data escaped.
std::vector<std::pair<std::string, std::string>> ReportPictures(const CorpusStats& stats);

// The pictures, as standalone SVG documents (exposed for tests).
struct Series {
  std::string name;
  std::string color;
  std::vector<double> values;
};
// Vertical grouped bars: one group per category, one bar per series; `percent` labels values
// as percentages of 1.
std::string SvgBarChart(const std::string& title, const std::vector<std::string>& categories,
                        const std::vector<Series>& series, bool percent);
// Histograms of each series' samples over [lo, hi) in `bins` bins, as shares of each series,
// drawn as outlined bars; `marker` draws a vertical line there (NaN: none).
std::string SvgHistogram(const std::string& title, const std::string& x_label,
                         const std::vector<Series>& series, double lo, double hi, int bins,
                         double marker);

// Line curves in the unit square (precision–recall curves): each series gives xs and ys.
struct Curve {
  std::string name;
  std::string color;
  std::vector<double> xs, ys;
};
std::string SvgCurves(const std::string& title, const std::string& x_label,
                      const std::string& y_label, const std::vector<Curve>& curves);

// A palette of distinguishable colors (colorblind-safe), cycled.
const char* PaletteColor(size_t i);

}  // namespace aligndb

#endif  // ALIGNDB_REPORT_REPORT_H_
