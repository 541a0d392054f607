// Wikitext → prose paragraphs (docs/text.md, "Wikitext → paragraphs").
#ifndef ALIGNDB_TEXT_WIKITEXT_H_
#define ALIGNDB_TEXT_WIKITEXT_H_

#include <string>
#include <string_view>
#include <vector>

#include "text/text.h"

namespace aligndb {

// Result of cleaning one page of wikitext.
struct CleanedWikitext {
  std::vector<std::string> paragraphs;      // prose paragraphs, in order, whitespace-normalized
  std::vector<std::string> template_names;  // names of the templates used, lower-cased
  // A template rendered a value aligndb cannot compute ({{Inflation}}): a paragraph may hold
  // kComputedValueMarker where such a value stood outside any bracket, a hole in its sentence.
  bool computed_values = false;
};

// Wikitext → prose paragraphs. Templates listed in data/templates.tsv (built into the binary)
// are rendered as the text Wikipedia shows; the others are removed. Runs in time linear in the
// input, whatever it holds (unclosed or deeply nested markup is dropped marker by marker, not
// re-scanned; templates nested in rendered arguments are re-scanned at most 8 levels deep).
CleanedWikitext CleanWikitext(std::string_view wikitext, const TextOptions& options = {});

namespace reference {
// CleanWikitext with every pass copying byte by byte as written (no skipping over runs of plain
// bytes): the slow, obvious version the fast path is tested against.
CleanedWikitext CleanWikitext(std::string_view wikitext, const TextOptions& options = {});
}  // namespace reference

}  // namespace aligndb

#endif  // ALIGNDB_TEXT_WIKITEXT_H_
