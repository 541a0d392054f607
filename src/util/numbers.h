// Strict parsing of the integers that come from input data (page ids, revision ids, offsets):
// a value that does not fit is an error, never a wrapped number; and fixed-point printing.
#ifndef ALIGNDB_UTIL_NUMBERS_H_
#define ALIGNDB_UTIL_NUMBERS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace aligndb {

// Parses a decimal integer in [0, 2^64) made of ASCII digits only, with optional surrounding
// white space (" \t\r\n"). False for an empty string, a sign, any other character, or overflow.
bool ParseDecimalU64(std::string_view s, uint64_t* out);

// The same for a signed 32-bit integer (an optional leading '-').
bool ParseDecimalI32(std::string_view s, int32_t* out);

// Appends `v` with `digits` digits after the point, exactly as printf's "%.*f" writes it (the
// C locale), without printf's cost: lookup prints a few hundred similarities a page.
void AppendFixed(double v, int digits, std::string* out);

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_NUMBERS_H_
