#include "cli/options.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace aligndb::cli {
namespace {

std::string Quoted(const std::string& v) { return "\"" + v + "\""; }

}  // namespace

std::string ShortNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", x);
  return buf;
}

CLI::Option* AddDbOption(CLI::App* cmd, std::string* db, const std::string& help) {
  return cmd->add_option("--db", *db, help)->required()->check(NonEmpty());
}

CLI::Validator FiniteNumber(double lo, double hi) {
  std::string range;
  if (std::isfinite(lo) && std::isfinite(hi))
    range = " in [" + ShortNumber(lo) + ", " + ShortNumber(hi) + "]";
  else if (std::isfinite(lo))
    range = " ≥ " + ShortNumber(lo);
  else if (std::isfinite(hi))
    range = " ≤ " + ShortNumber(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& v) -> std::string {
        const std::string expected = "expected a finite number" + range + ", not " + Quoted(v);
        if (v.empty()) return expected;
        errno = 0;
        char* end = nullptr;
        double x = std::strtod(v.c_str(), &end);
        if (end != v.c_str() + v.size()) return expected;
        // strtod gives ±HUGE_VAL (inf) with ERANGE on overflow; an underflow to 0 is fine.
        if (!std::isfinite(x) || (errno == ERANGE && std::fabs(x) > 1)) return expected;
        if (x < lo || x > hi) return expected;
        return "";
      },
      "");
}

CLI::Validator IntegerIn(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        errno = 0;
        char* end = nullptr;
        long long x = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || end != v.c_str() + v.size() || errno == ERANGE || x < lo || x > hi)
          return "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                 "], not " + Quoted(v);
        return "";
      },
      "");
}

CLI::Validator ThreadCount() {
  CLI::Validator in_range = IntegerIn(0, kMaxThreads);
  return CLI::Validator(
      [in_range](std::string& v) -> std::string {
        std::string copy = v;
        std::string err = in_range(copy);
        if (err.empty()) return "";
        return "expected 0 (one thread per core) to " + std::to_string(kMaxThreads) +
               " threads, not " + Quoted(v);
      },
      "");
}

CLI::Validator EachOf(CLI::Validator each) {
  return CLI::Validator(
      [each](std::string& v) -> std::string {
        for (std::string piece : SplitFields(v, ','))
          if (std::string err = each(piece); !err.empty()) return err;
        return "";
      },
      "");
}

CLI::Option* AddNumberListOption(CLI::App* cmd, const std::string& flag,
                                 std::vector<double>* target, const std::string& help) {
  return cmd
      ->add_option_function<std::string>(
          flag,
          [target](const std::string& list) {
            target->clear();
            for (const auto& x : SplitFields(list, ','))
              target->push_back(std::strtod(x.c_str(), nullptr));
          },
          help)
      ->check(EachOf(FiniteNumber()));
}

CLI::Validator NonEmpty() {
  return CLI::Validator(
      [](std::string& v) -> std::string { return v.empty() ? "must not be empty" : ""; }, "");
}

}  // namespace aligndb::cli
