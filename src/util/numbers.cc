#include "util/numbers.h"

#include <charconv>
#include <cstdio>
#include <limits>

namespace aligndb {
namespace {

std::string_view TrimSpace(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

bool ParseDecimalU64(std::string_view s, uint64_t* out) {
  s = TrimSpace(s);
  if (s.empty()) return false;
  uint64_t v = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (kMax - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

bool ParseDecimalI32(std::string_view s, int32_t* out) {
  s = TrimSpace(s);
  bool negative = !s.empty() && s.front() == '-';
  if (negative) s.remove_prefix(1);
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;  // "- 5", "--5"
  uint64_t v = 0;
  if (!ParseDecimalU64(s, &v)) return false;
  constexpr uint64_t kLimit = uint64_t{1} << 31;
  if (negative ? v > kLimit : v >= kLimit) return false;
  *out = negative ? static_cast<int32_t>(-static_cast<int64_t>(v)) : static_cast<int32_t>(v);
  return true;
}

void AppendFixed(double v, int digits, std::string* out) {
  char buf[400];  // DBL_MAX is 309 digits before the point
  const auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, digits);
  if (r.ec == std::errc()) {
    out->append(buf, r.ptr);
    return;
  }
  // More digits than the buffer holds: printf into room of the size it asks for.
  const int n = std::snprintf(nullptr, 0, "%.*f", digits, v);
  if (n <= 0) return;
  std::string wide(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(wide.data(), wide.size(), "%.*f", digits, v);
  out->append(wide.data(), static_cast<size_t>(n));
}

}  // namespace aligndb
