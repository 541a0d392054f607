// Option wiring shared by the commands: the database option, checked numbers and thread counts,
// and options whose values come from a name table (util/name_table.h). Every check here turns a
// bad value into a parse error naming the option and the value (exit code 2).
#ifndef ALIGNDB_CLI_OPTIONS_H_
#define ALIGNDB_CLI_OPTIONS_H_

#include <CLI/CLI.hpp>
#include <limits>
#include <string>
#include <vector>

#include "eval/eval.h"  // SplitFields
#include "util/name_table.h"

namespace aligndb::cli {

// The most threads a command starts. A larger request (say, a typo of 40000) is refused at the
// command line: the threads' stacks would exhaust the process's address space.
inline constexpr int kMaxThreads = 256;

// `x` as printf's %g writes it ("0.5"), for help text.
std::string ShortNumber(double x);

// --db DIR: required, and not empty.
CLI::Option* AddDbOption(CLI::App* cmd, std::string* db,
                         const std::string& help = "Database directory");

// A finite number in [lo, hi]: "nan", "inf" and numbers that overflow a double ("1e999") are
// refused, as are values out of the range.
CLI::Validator FiniteNumber(double lo = -std::numeric_limits<double>::infinity(),
                            double hi = std::numeric_limits<double>::infinity());
// An integer in [lo, hi].
CLI::Validator IntegerIn(long long lo, long long hi);
// A thread count: 0 (one per core) to kMaxThreads.
CLI::Validator ThreadCount();
// A non-empty string.
CLI::Validator NonEmpty();

// Applies `each` to every piece of a comma-separated list; the first refusal is the list's.
CLI::Validator EachOf(CLI::Validator each);
// A comma-separated list of finite numbers, as one argument ("0.8,0.2"), into `*target`.
CLI::Option* AddNumberListOption(CLI::App* cmd, const std::string& flag,
                                 std::vector<double>* target, const std::string& help);

// Refuses a value that `table` does not name, listing the names.
template <typename E, size_t N>
CLI::Validator OneOfNames(const NameEntry<E> (&table)[N]) {
  return CLI::Validator(
      [&table](std::string& v) -> std::string {
        E e;
        if (ParseName(table, v, &e)) return "";
        return "\"" + v + "\" is not one of " + NameList(table);
      },
      "NAME");
}

// An option whose value is a name of `table`, stored in `*target` as its enum value. The help
// text ends with the names; the default shown is the name of `*target`'s initial value.
template <typename E, size_t N>
CLI::Option* AddNameOption(CLI::App* cmd, const std::string& flag, E* target,
                           const NameEntry<E> (&table)[N], const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      flag, [target, &table](const std::string& v) { (void)ParseName(table, v, target); },
      help + ": " + NameList(table));
  opt->check(OneOfNames(table));
  opt->default_str(NameOf(table, *target));
  return opt;
}

// The same for a comma-separated list of names: one argument ("a,b"), so that a positional
// argument after it is not taken for a further name.
template <typename E, size_t N>
CLI::Option* AddNameListOption(CLI::App* cmd, const std::string& flag, std::vector<E>* target,
                               const NameEntry<E> (&table)[N], const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      flag,
      [target, &table](const std::string& list) {
        target->clear();
        for (const auto& n : SplitFields(list, ',')) {
          E e{};
          if (ParseName(table, n, &e)) target->push_back(e);
        }
      },
      help + ": " + NameList(table, ", "));
  opt->check(EachOf(OneOfNames(table)));
  return opt;
}

}  // namespace aligndb::cli

#endif  // ALIGNDB_CLI_OPTIONS_H_
