// Name tables of enumerations: one array of (value, name) pairs per vocabulary, read for parsing,
// for help text and for what is written out, so that a name is spelled in one place only.
#ifndef ALIGNDB_UTIL_NAME_TABLE_H_
#define ALIGNDB_UTIL_NAME_TABLE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace aligndb {

template <typename E>
using NameEntry = std::pair<E, const char*>;

// The name of `value`; "?" when the table lacks it (a value cast from an integer).
template <typename E, size_t N>
constexpr const char* NameOf(const NameEntry<E> (&table)[N], E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

// Sets `*value` to the entry named `name`; false (and `*value` untouched) for an unknown name.
template <typename E, size_t N>
bool ParseName(const NameEntry<E> (&table)[N], std::string_view name, E* value) {
  for (const auto& [v, n] : table)
    if (name == n) {
      *value = v;
      return true;
    }
  return false;
}

// "a, b or c": the names for help text and error messages.
template <typename E, size_t N>
std::string NameList(const NameEntry<E> (&table)[N], std::string_view last_separator = " or ") {
  std::string out;
  for (size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? std::string(last_separator) : std::string(", ");
    out += table[i].second;
  }
  return out;
}

}  // namespace aligndb

#endif  // ALIGNDB_UTIL_NAME_TABLE_H_
