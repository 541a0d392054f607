// Strict integer parsing of ids from input data, against a slow reference on random strings.
#include "util/numbers.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace aligndb {
namespace {

TEST(NumbersTest, U64AcceptsExactlyTheDecimalsThatFit) {
  uint64_t v = 0;
  EXPECT_TRUE(ParseDecimalU64("0", &v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(ParseDecimalU64(" \n12\t", &v));
  EXPECT_EQ(v, 12u);
  EXPECT_TRUE(ParseDecimalU64("18446744073709551615", &v));
  EXPECT_EQ(v, 18446744073709551615ull);
  for (const char* bad : {"", " ", "-1", "+1", "18446744073709551616", "99999999999999999999",
                          "123456789012345678901234", "1 2", "1x", "0x10", "1.0"})
    EXPECT_FALSE(ParseDecimalU64(bad, &v)) << bad;
}

TEST(NumbersTest, I32AcceptsItsRange) {
  int32_t v = 0;
  EXPECT_TRUE(ParseDecimalI32("-2147483648", &v));
  EXPECT_EQ(v, INT32_MIN);
  EXPECT_TRUE(ParseDecimalI32("2147483647", &v));
  EXPECT_EQ(v, INT32_MAX);
  EXPECT_TRUE(ParseDecimalI32(" -2 ", &v));
  EXPECT_EQ(v, -2);
  for (const char* bad : {"", "-", "--1", "- 1", "2147483648", "-2147483649", "1e3"})
    EXPECT_FALSE(ParseDecimalI32(bad, &v)) << bad;
}

// Reference: big-number comparison on the digit string.
bool ReferenceU64(const std::string& s, uint64_t* out) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  if (b == std::string::npos) return false;
  std::string d = s.substr(b, e - b + 1);
  for (char c : d)
    if (c < '0' || c > '9') return false;
  std::string stripped = d.substr(std::min(d.find_first_not_of('0'), d.size() - 1));
  const std::string max = "18446744073709551615";
  if (stripped.size() > max.size() || (stripped.size() == max.size() && stripped > max))
    return false;
  *out = std::stoull(stripped);
  return true;
}

TEST(NumbersTest, U64AgreesWithAReferenceOnRandomStrings) {
  std::mt19937 rng(11);
  const std::string alphabet = "0123456789 -x";
  for (int round = 0; round < 20000; ++round) {
    std::string s;
    size_t len = rng() % 24;
    for (size_t i = 0; i < len; ++i) s += alphabet[rng() % (round % 2 ? 10 : alphabet.size())];
    uint64_t a = 0, b = 0;
    bool ok = ParseDecimalU64(s, &a);
    ASSERT_EQ(ok, ReferenceU64(s, &b)) << "\"" << s << "\"";
    if (ok) ASSERT_EQ(a, b) << s;
  }
}

}  // namespace
}  // namespace aligndb
