// Escaping of text that comes from the data (edition names, titles, sentences) before it is
// written into HTML, SVG, Markdown or a terminal. Every writer of those formats escapes data
// through these functions, so that a hostile title or edition name is shown as text and never runs
// as markup.
#ifndef ALIGNDB_UTIL_ESCAPE_H_
#define ALIGNDB_UTIL_ESCAPE_H_

#include <string>
#include <string_view>

namespace aligndb {

// Text for HTML and XML (SVG) element content and double- or single-quoted attribute values:
// & < > " ' become entities; C0 control characters other than tab, line feed and carriage return
// (not allowed in XML) become U+FFFD.
std::string HtmlEscape(std::string_view s);

// Text for Markdown (inline text and table cells, CommonMark and GitHub tables): the characters
// that start Markdown syntax inside a line (\ ` * _ [ ] | ~ and ! before [) are backslash-escaped;
// < and > become entities and & becomes &amp; where it would start an entity, so that raw HTML
// cannot pass; line breaks and other control characters become spaces, so that a value cannot
// end a table row or start a block. Plain words, digits, spaces and other punctuation are kept.
std::string MarkdownEscape(std::string_view s);

// `text` with every control character escaped, so that text from the data (titles, sentences,
// edition names, messages) can neither move the cursor, recolour or retitle a terminal nor break
// a line: C0 controls and DEL become \xHH (ESC is \x1b, a newline \x0a), C1 controls (U+0080 to
// U+009F) become \u00HH, and so do the line and paragraph separators and the bidirectional
// controls (U+2028, U+2029, U+202A-202E, U+2066-2069: \u2028 ...), which break a line or reorder
// what is shown. Every other byte, backslashes included, is kept as it is. JSON output is not
// escaped this way: it is exact.
std::string TerminalSafe(std::string_view text);
// TerminalSafe(text) appended to *out (no string made per piece of text).
void AppendTerminalSafe(std::string_view text, std::string* out);

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_ESCAPE_H_
