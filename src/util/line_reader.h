// Reading text line by line, the one way aligndb does it: a line ends at "\n"; a "\r" before it
// (Windows line ends) is not part of the line, nor is a UTF-8 byte order mark at the start of
// the first line; the last line needs no "\n".
#ifndef ALIGNDB_UTIL_LINE_READER_H_
#define ALIGNDB_UTIL_LINE_READER_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "aligndb/status.h"

namespace aligndb {

// Reads lines from a stream.
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}
  // Sets `*line` to the next line; false at the end of the input.
  bool Next(std::string* line);
  // 1-based number of the line returned last (0 before the first).
  uint64_t line_number() const { return line_number_; }

 private:
  std::istream& in_;
  uint64_t line_number_ = 0;
};

// Splits input that arrives in chunks (a decompressing reader) into lines.
class LineSplitter {
 public:
  // Called once per line with the line (which it may modify) and its 1-based number. A failed
  // Status stops the splitting and is returned.
  using OnLine = std::function<Status(std::string& line, uint64_t line_number)>;
  // Hands over every line that `chunk` completes; keeps the unfinished rest for the next chunk.
  Status Feed(std::string_view chunk, const OnLine& on_line);
  // Hands over the last line when the input did not end with "\n".
  Status Finish(const OnLine& on_line);

 private:
  Status Emit(const OnLine& on_line);
  std::string partial_;
  uint64_t line_number_ = 0;
};

// Removes one trailing "\r" and, on line 1, a leading UTF-8 byte order mark.
void TrimLineEnd(std::string* line, uint64_t line_number);

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_LINE_READER_H_
