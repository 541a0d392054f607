// Table-driven rendering of the wikitext templates that show text in an article
// (docs/text.md, "Templates rendered as text"). The table is data: data/templates.tsv maps
// template names to rendering rules and data/templates-units.tsv lists the units of {{convert}};
// both are embedded into the binary at build time, so nothing is read at run time.
#ifndef ALIGNDB_TEXT_TEMPLATES_H_
#define ALIGNDB_TEXT_TEMPLATES_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "aligndb/status.h"

namespace aligndb {

// A template call split into its name and arguments, as MediaWiki splits it: at '|' outside
// nested {{…}} and [[…]]; "key=value" is a named argument when '=' comes before any nested
// markup; the others are numbered from 1. Values are raw wikitext (not yet cleaned).
struct TemplateCall {
  std::string name;      // normalized: see NormalizeTemplateName
  std::string raw_name;  // as written, trimmed ("HMS")
  std::vector<std::string_view> positional;
  std::vector<std::pair<std::string, std::string_view>> named;  // keys lower-cased, trimmed
  // Up to 512 bytes of the text before the call, for rules that depend on where the template
  // stands ({{IPA}} in a pronunciation bracket). Empty when not known.
  std::string_view before;
  // Up to 512 bytes of the text after the call ({{coord}} on a line of its own). Empty when not
  // known.
  std::string_view after;

  // Argument `key` ("1", "2", … or a name), trimmed; empty when absent.
  std::string_view Get(std::string_view key) const;
};
// Splits the text between "{{" and "}}". Views point into `content`.
TemplateCall ParseTemplateCall(std::string_view content);

// "_" → " ", runs of spaces folded, trimmed, a "Template:" prefix removed, the first letter
// lower-cased (ASCII): MediaWiki's rule, under which only a name's first letter ignores case
// ({{Convert}} is {{convert}}, {{bc}} is not {{BC}}).
std::string NormalizeTemplateName(std::string_view name);

// What a "@computed" template renders: it stands for a value Wikipedia computes from data aligndb
// does not have ({{Inflation}}), until paragraphs are tidied and the bracket holding it is
// removed (CleanWikitext); outside any bracket it stays in the paragraph and TextProcessor drops
// the sentence holding it. A control character that wikitext does not contain.
constexpr char kComputedValueMarker = '\x02';

// Where a block quotation starts ({{quote}}, <blockquote>): a line of its own, written by a
// rule's "\q" and by the tag, so that the line before the quotation can be told to be its label
// ("From Article 6:"), not a sentence (CleanWikitext). A control character that wikitext does not
// contain; it never reaches a paragraph.
constexpr char kQuotationMarker = '\x05';

// What the parser function {{#expr:EXPR}} shows, given EXPR: "24" for "2400/100" (as MediaWiki
// prints a number: up to 14 significant digits, no exponent). Only arithmetic of literal numbers
// is computed (+ - * / div mod, signs, brackets; at most 200 bytes): anything else, such as an
// expression holding a template ({{CURRENTYEAR}}), is a value aligndb cannot compute and renders
// as kComputedValueMarker, as "@computed" does.
std::string RenderExprFunction(std::string_view expr);

// One parsed rule; opaque outside templates.cc.
struct TemplateRule;

class TemplateTable {
 public:
  TemplateTable();
  ~TemplateTable();
  TemplateTable(TemplateTable&&) noexcept;
  TemplateTable& operator=(TemplateTable&&) noexcept;

  // Parses the two tables (formats in the header comments of data/templates.tsv and
  // data/templates-units.tsv). An error names the table, the line and what was expected.
  [[nodiscard]] static Status Parse(std::string_view templates_tsv, std::string_view units_tsv,
                                    TemplateTable* out);

  // The rule for a normalized name (exact names first, then the longest "prefix*" pattern);
  // nullptr when the template is not listed (it is then dropped).
  const TemplateRule* Find(std::string_view normalized_name) const;

  // Renders `call` with `rule`. `clean` turns an argument's raw wikitext into text (it renders
  // nested templates); it is only called for the arguments the rule shows.
  using ArgCleaner = std::function<std::string(std::string_view)>;
  std::string Render(const TemplateRule& rule, const TemplateCall& call,
                     const ArgCleaner& clean) const;

  size_t size() const;  // number of names and patterns

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The name Wikipedia shows for a language code ({{langx}}, {{lang-xx}}): data/languages.tsv,
// built into the binary and parsed once. A tag with subtags ("fa-Latn") is looked up whole,
// then by its first subtag. Case-insensitive; empty when the code is not listed.
std::string_view LanguageName(std::string_view code);
// Parses a table in the format of data/languages.tsv (CODE <TAB> NAME, '#' comments); the error
// names the line and what was expected.
[[nodiscard]] Status ParseLanguageNames(std::string_view tsv,
                                        std::unordered_map<std::string, std::string>* out);

// The table built into the binary (data/templates*.tsv at build time), parsed once.
// If it failed to parse (a test checks that it does not), it is empty: templates are dropped.
const TemplateTable& BuiltinTemplateTable();
// The embedded sources, for tests and for documentation tools.
std::string_view BuiltinTemplatesTsv();
std::string_view BuiltinUnitsTsv();
std::string_view BuiltinLanguagesTsv();

}  // namespace aligndb

#endif  // ALIGNDB_TEXT_TEMPLATES_H_
