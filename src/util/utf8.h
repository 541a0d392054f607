// Small UTF-8 helpers on ICU's macros.
#ifndef ALIGNDB_UTIL_UTF8_H_
#define ALIGNDB_UTIL_UTF8_H_

#include <unicode/utf8.h>

#include <cstddef>
#include <string_view>

namespace aligndb {

// True when `s` is well-formed UTF-8. Otherwise sets `*bad` to the offset of the first byte
// of the first ill-formed sequence. A sequence cut off by the end of `s` counts as ill-formed.
inline bool ValidUtf8(std::string_view s, size_t* bad) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  while (i < n) {
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    int32_t start = i;
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      if (bad) *bad = static_cast<size_t>(start);
      return false;
    }
  }
  return true;
}

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_UTF8_H_
