// Strict integer parsing of ids from input data, against a slow reference on random strings.
#include "util/numbers.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

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

// The similarities lookup prints: equal to printf's "%.3f" on random values, exact ties of the
// binary value (0.0625 -> "0.062", as printf rounds them to even), signs, zeros and non-numbers.
TEST(NumbersTest, AppendFixedWritesWhatPrintfWrites) {
  auto printf_fixed = [](double v, int digits) {
    char buf[512];
    std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
    return std::string(buf);
  };
  std::vector<double> values = {0.0,
                                -0.0,
                                0.0625,
                                0.1875,
                                0.0005,
                                0.0015,
                                1.0,
                                -1.2345,
                                0.9995,
                                1e300,
                                -1e-300,
                                123.4565,
                                2.5e-4,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::max()};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(-1.5, 1.5);
  for (int k = 0; k < 20000; ++k) values.push_back(unit(rng));
  for (int k = 0; k < 2000; ++k) values.push_back(static_cast<double>(rng() % 16001) / 16000);
  for (int digits : {0, 1, 3, 6}) {
    for (double v : values) {
      std::string got = "x";
      AppendFixed(v, digits, &got);
      ASSERT_EQ(got, "x" + printf_fixed(v, digits)) << v << " " << digits;
    }
  }
}

}  // namespace
}  // namespace aligndb
