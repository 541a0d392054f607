// What the command line writes for a person at a terminal: progress on stderr, and text from
// the data made safe to print.
#ifndef ALIGNDB_CLI_TERMINAL_H_
#define ALIGNDB_CLI_TERMINAL_H_

#include <string>
#include <string_view>

namespace aligndb::cli {

bool StderrIsTerminal();

// `text` with every control character escaped, so that text from the data (titles, sentences,
// edition names, messages) can neither move the cursor, recolour or retitle a terminal nor break
// a line: C0 controls and DEL become \xHH (ESC is \x1b, a newline \x0a), C1 controls (U+0080 to
// U+009F) become \u00HH. Every other byte, backslashes included, is kept as it is. JSON output
// is not escaped this way: it is exact.
std::string TerminalSafe(std::string_view text);

// One progress line on stderr, redrawn in place; drawn only when `enabled` (stderr is a
// terminal) and ended with a newline when the object dies.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled) {}
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // Replaces the line with `text` (escaped as TerminalSafe does).
  void Show(std::string_view text);

 private:
  bool enabled_;
  bool shown_ = false;
};

}  // namespace aligndb::cli

#endif  // ALIGNDB_CLI_TERMINAL_H_
