#include "util/line_reader.h"

namespace aligndb {

void TrimLineEnd(std::string* line, uint64_t line_number) {
  if (!line->empty() && line->back() == '\r') line->pop_back();
  if (line_number == 1 && line->rfind("\xEF\xBB\xBF", 0) == 0) line->erase(0, 3);
}

bool LineReader::Next(std::string* line) {
  if (!std::getline(in_, *line)) return false;
  TrimLineEnd(line, ++line_number_);
  return true;
}

Status LineSplitter::Emit(const OnLine& on_line) {
  TrimLineEnd(&partial_, ++line_number_);
  Status s = on_line(partial_, line_number_);
  partial_.clear();
  return s;
}

Status LineSplitter::Feed(std::string_view chunk, const OnLine& on_line) {
  size_t start = 0;
  for (size_t nl = chunk.find('\n'); nl != std::string_view::npos; nl = chunk.find('\n', start)) {
    partial_.append(chunk.data() + start, nl - start);
    start = nl + 1;
    RETURN_IF_ERROR(Emit(on_line));
  }
  partial_.append(chunk.data() + start, chunk.size() - start);
  return Status::OK();
}

Status LineSplitter::Finish(const OnLine& on_line) {
  if (partial_.empty()) return Status::OK();
  return Emit(on_line);
}

}  // namespace aligndb
