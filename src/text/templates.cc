// Template rendering from data/templates.tsv and data/templates-units.tsv (see templates.h).
#include "text/templates.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>

namespace aligndb {
namespace {

std::string_view Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> SplitOn(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t b = 0;
  while (true) {
    size_t e = s.find(sep, b);
    out.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

constexpr const char* kMonths[12] = {"January",   "February", "March",    "April",
                                     "May",       "June",     "July",     "August",
                                     "September", "October",  "November", "December"};

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool IsYes(std::string_view v) {
  std::string l = LowerAscii(Trim(v));
  return l == "y" || l == "yes" || l == "on" || l == "true" || l == "1";
}

}  // namespace

// ------------------------------------------------------------------ calls

std::string_view TemplateCall::Get(std::string_view key) const {
  if (!key.empty() && IsDigits(key)) {
    size_t n = static_cast<size_t>(std::atoi(std::string(key).c_str()));
    // A named "1=" argument also counts as positional 1.
    for (auto& [k, v] : named)
      if (k == key) return Trim(v);
    if (n >= 1 && n <= positional.size()) return Trim(positional[n - 1]);
    return {};
  }
  for (auto& [k, v] : named)
    if (k == key) return Trim(v);
  return {};
}

std::string NormalizeTemplateName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : Trim(name)) {
    if (c == '_' || c == '\t' || c == '\n') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out.push_back(c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  constexpr std::string_view kPrefix = "template:";
  if (out.size() >= kPrefix.size() &&
      std::equal(kPrefix.begin(), kPrefix.end(), out.begin(),
                 [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); }))
    out = std::string(Trim(std::string_view(out).substr(kPrefix.size())));
  // MediaWiki ignores the case of the first letter only: {{bc}} (a braille cell) is not {{BC}}.
  if (!out.empty()) out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  return out;
}

TemplateCall ParseTemplateCall(std::string_view content) {
  TemplateCall call;
  std::vector<std::string_view> parts;
  int braces = 0, brackets = 0;
  size_t start = 0;
  for (size_t i = 0; i < content.size(); ++i) {
    char c = content[i];
    char d = i + 1 < content.size() ? content[i + 1] : '\0';
    if (c == '{' && d == '{') {
      ++braces;
      ++i;
    } else if (c == '}' && d == '}' && braces > 0) {
      --braces;
      ++i;
    } else if (c == '[' && d == '[') {
      ++brackets;
      ++i;
    } else if (c == ']' && d == ']' && brackets > 0) {
      --brackets;
      ++i;
    } else if (c == '|' && braces == 0 && brackets == 0) {
      parts.push_back(content.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(content.substr(start));
  std::string_view raw_name = Trim(parts[0]);
  call.name = NormalizeTemplateName(raw_name);
  call.raw_name = std::string(raw_name);
  for (size_t p = 1; p < parts.size(); ++p) {
    std::string_view part = parts[p];
    size_t eq = part.find('=');
    size_t nested = std::min(part.find("{{"), part.find("[["));
    if (eq != std::string_view::npos && eq < nested) {
      std::string key = LowerAscii(Trim(part.substr(0, eq)));
      if (!key.empty() && key.size() <= 32) {
        call.named.emplace_back(std::move(key), part.substr(eq + 1));
        continue;
      }
    }
    call.positional.push_back(part);
  }
  return call;
}

// ------------------------------------------------------------------ rules

struct RuleNode {
  enum Kind { kLiteral, kArg, kGroup, kName } kind = kLiteral;
  std::string text;                // kLiteral
  std::vector<std::string> keys;   // kArg: the first non-empty one is shown
  std::vector<RuleNode> children;  // kGroup
  bool otherwise = false;  // kGroup written "[!…]": shown only when the group before is not
};

struct TemplateRule {
  std::string function;  // "" for a text pattern, else "convert", "date", …
  std::vector<std::pair<std::string, std::string>> defaults;  // "@convert abbr=on"
  std::vector<RuleNode> pattern;
};

namespace {

constexpr std::string_view kFunctions[] = {
    "convert",  "date",  "dateage", "asof", "harvtxt", "harvnb",  "harv",  "frac",
    "computed", "langx", "ipa",     "zh",   "nihongo", "braille", "coord", "jupiter",
    "ship",     "namerest"};

// Parses a text pattern up to `close` (']' for a group, '\0' for the whole rule).
bool ParsePattern(std::string_view s, size_t* i, char close, std::vector<RuleNode>* out,
                  std::string* error) {
  std::string literal;
  auto flush = [&]() {
    if (!literal.empty()) out->push_back({RuleNode::kLiteral, std::move(literal), {}, {}});
    literal.clear();
  };
  while (*i < s.size()) {
    char c = s[*i];
    if (c == '\\') {
      if (*i + 1 >= s.size()) {
        *error = "a '\\' at the end of the rule";
        return false;
      }
      char e = s[*i + 1];
      literal.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'q' ? kQuotationMarker : e);
      *i += 2;
    } else if (c == '{') {
      size_t end = s.find('}', *i);
      if (end == std::string_view::npos) {
        *error = "'{' without '}'";
        return false;
      }
      flush();
      RuleNode node;
      node.kind = RuleNode::kArg;
      for (auto k : SplitOn(s.substr(*i + 1, end - *i - 1), '|')) {
        std::string key = LowerAscii(Trim(k));
        if (key.empty()) {
          *error = "an empty argument name in '{…}'";
          return false;
        }
        node.keys.push_back(std::move(key));
      }
      if (node.keys.size() == 1 && node.keys[0] == "0") node.kind = RuleNode::kName;
      out->push_back(std::move(node));
      *i = end + 1;
    } else if (c == '[') {
      flush();
      ++*i;
      RuleNode group;
      group.kind = RuleNode::kGroup;
      if (*i < s.size() && s[*i] == '!') {
        if (out->empty() || out->back().kind != RuleNode::kGroup) {
          *error = "'[!' not right after a group";
          return false;
        }
        group.otherwise = true;
        ++*i;
      }
      if (!ParsePattern(s, i, ']', &group.children, error)) return false;
      out->push_back(std::move(group));
    } else if (c == ']' || c == '}') {
      if (c == ']' && close == ']') {
        flush();
        ++*i;
        return true;
      }
      *error = std::string("an unmatched '") + c + "' (write \\" + c + " for the character)";
      return false;
    } else {
      literal.push_back(c);
      ++*i;
    }
  }
  if (close == ']') {
    *error = "'[' without ']'";
    return false;
  }
  flush();
  return true;
}

bool ParseRule(std::string_view text, TemplateRule* rule, std::string* error) {
  if (!text.empty() && text[0] == '@') {
    std::vector<std::string_view> words;
    for (auto w : SplitOn(Trim(text.substr(1)), ' '))
      if (!w.empty()) words.push_back(w);
    std::string fn(words.empty() ? std::string_view() : words[0]);
    for (size_t w = 1; w < words.size(); ++w) {
      size_t eq = words[w].find('=');
      if (eq == std::string_view::npos || eq == 0) {
        *error =
            "a function's defaults are written key=value, found '" + std::string(words[w]) + "'";
        return false;
      }
      rule->defaults.emplace_back(LowerAscii(words[w].substr(0, eq)), words[w].substr(eq + 1));
    }
    for (auto f : kFunctions)
      if (fn == f) {
        rule->function = fn;
        return true;
      }
    *error = "unknown function '@" + fn + "'";
    return false;
  }
  size_t i = 0;
  return ParsePattern(text, &i, '\0', &rule->pattern, error);
}

// ------------------------------------------------------------------ units

// Module:Convert's engineering prefixes of unit codes ("e6mi") and the word each shows.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kEngineeringPrefixes = {
    {{"e3", "thousand"},
     {"e6", "million"},
     {"e9", "billion"},
     {"e12", "trillion"},
     {"e15", "quadrillion"}}};

struct Unit {
  std::string symbol, singular, plural, dimension;
  double factor = 1, offset = 0;
  std::vector<std::string> defaults;
};

}  // namespace

struct TemplateTable::Impl {
  std::vector<TemplateRule> rules;
  std::deque<std::string> name_storage;  // owns the keys of `exact` (a deque never moves them)
  std::unordered_map<std::string_view, size_t> exact;
  std::vector<std::pair<std::string, size_t>> prefixes;  // longest first
  std::vector<Unit> units;
  std::unordered_map<std::string, size_t> unit_codes;

  const Unit* FindUnit(std::string_view code) const {
    auto it = unit_codes.find(std::string(Trim(code)));
    return it == unit_codes.end() ? nullptr : &units[it->second];
  }
  std::string RenderPattern(const std::vector<RuleNode>& nodes, const TemplateCall& call,
                            const ArgCleaner& clean, bool* any_arg) const;
  struct ConvertArgs;
  bool ParseConvert(const std::vector<std::string>& args, ConvertArgs* c,
                    std::string* fallback) const;
  std::string Convert(const TemplateCall& call, const ArgCleaner& clean) const;
};

TemplateTable::TemplateTable() : impl_(std::make_unique<Impl>()) {}
TemplateTable::~TemplateTable() = default;
TemplateTable::TemplateTable(TemplateTable&&) noexcept = default;
TemplateTable& TemplateTable::operator=(TemplateTable&&) noexcept = default;
size_t TemplateTable::size() const { return impl_->exact.size() + impl_->prefixes.size(); }

namespace {

// Calls `row(line_number, fields)` for each non-comment line of a tab-separated table.
template <typename Row>
Status ForEachRow(std::string_view tsv, std::string_view table, Row row) {
  size_t line_no = 0;
  for (auto line : SplitOn(tsv, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (Trim(line).empty() || line[0] == '#') continue;
    std::string error;
    if (!row(SplitOn(line, '\t'), &error))
      return Status::InvalidArgument(std::string(table) + ":" + std::to_string(line_no) + ": " +
                                     error);
  }
  return Status::OK();
}

bool ParseDouble(std::string_view s, double* v) {
  std::string t(Trim(s));
  if (t.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(t.c_str(), &end);
  return end && *end == '\0' && std::isfinite(*v);
}

}  // namespace

Status TemplateTable::Parse(std::string_view templates_tsv, std::string_view units_tsv,
                            TemplateTable* out) {
  TemplateTable table;
  Impl& im = *table.impl_;
  Status s = ForEachRow(templates_tsv, "data/templates.tsv", [&](auto fields, std::string* error) {
    if (fields.size() != 2) {
      *error =
          "expected 2 tab-separated fields (names, rule), found " + std::to_string(fields.size());
      return false;
    }
    TemplateRule rule;
    if (!ParseRule(fields[1], &rule, error)) return false;
    im.rules.push_back(std::move(rule));
    for (auto n : SplitOn(fields[0], ',')) {
      std::string name = NormalizeTemplateName(n);
      if (name.empty()) {
        *error = "an empty template name";
        return false;
      }
      bool prefix = name.size() > 1 && name.back() == '*';
      if (prefix) name.pop_back();
      if (prefix ? std::any_of(im.prefixes.begin(), im.prefixes.end(),
                               [&](auto& p) { return p.first == name; })
                 : im.exact.count(name) > 0) {
        *error = "the name '" + name + "' is listed twice";
        return false;
      }
      if (prefix)
        im.prefixes.emplace_back(name, im.rules.size() - 1);
      else
        im.exact.emplace(im.name_storage.emplace_back(std::move(name)), im.rules.size() - 1);
    }
    return true;
  });
  if (!s.ok()) return s;
  std::stable_sort(im.prefixes.begin(), im.prefixes.end(),
                   [](auto& a, auto& b) { return a.first.size() > b.first.size(); });
  s = ForEachRow(units_tsv, "data/templates-units.tsv", [&](auto f, std::string* error) {
    if (f.size() != 8) {
      *error = "expected 8 tab-separated fields, found " + std::to_string(f.size());
      return false;
    }
    Unit u;
    u.symbol = std::string(Trim(f[1]));
    u.singular = std::string(Trim(f[2]));
    u.plural = std::string(Trim(f[3]));
    u.dimension = std::string(Trim(f[4]));
    if (!ParseDouble(f[5], &u.factor) || u.factor <= 0 || !ParseDouble(f[6], &u.offset)) {
      *error = "FACTOR must be a positive number and OFFSET a number";
      return false;
    }
    for (auto d : SplitOn(Trim(f[7]), ' '))
      if (!Trim(d).empty()) u.defaults.emplace_back(Trim(d));
    if (u.symbol.empty() || u.singular.empty() || u.plural.empty() || u.dimension.empty() ||
        u.defaults.empty()) {
      *error = "SYMBOL, SINGULAR, PLURAL, DIMENSION and DEFAULT must not be empty";
      return false;
    }
    im.units.push_back(std::move(u));
    for (auto c : SplitOn(f[0], ',')) {
      std::string code(Trim(c));
      if (code.empty() || !im.unit_codes.emplace(code, im.units.size() - 1).second) {
        *error = "unit code '" + code + "' is empty or listed twice";
        return false;
      }
    }
    return true;
  });
  if (!s.ok()) return s;
  // Every default output unit must exist and share the dimension.
  for (const Unit& u : im.units)
    for (const auto& d : u.defaults) {
      const Unit* o = im.FindUnit(d);
      if (!o || o->dimension != u.dimension)
        return Status::InvalidArgument("data/templates-units.tsv: default unit '" + d + "' of '" +
                                       u.symbol + "' is not a unit of dimension " + u.dimension);
    }
  // Module:Convert's engineering codes: "e6mi" is a million miles ("4 million miles (6.4 million
  // kilometres)"), with e3, e9, e12 and e15 for thousand, billion, trillion and quadrillion; its
  // default output is the base unit's with the same prefix. Made for every listed code that a
  // row does not define itself (e6m3, e6acre are rows: their names and defaults are as listed).
  // Not for temperatures (an offset) nor "per" units (/km2).
  const size_t listed = im.units.size();
  std::vector<std::pair<std::string, size_t>> base_codes(im.unit_codes.begin(),
                                                         im.unit_codes.end());
  std::sort(base_codes.begin(), base_codes.end());
  for (const auto& [prefix, scale] : kEngineeringPrefixes) {
    const double factor = std::pow(10.0, std::atoi(std::string(prefix.substr(1)).c_str()));
    for (const auto& [code, idx] : base_codes) {
      const Unit& b = im.units[idx];
      if (b.offset != 0 || code.starts_with('/') || code.starts_with('e') ||
          im.unit_codes.count(std::string(prefix) + code) > 0 ||
          b.plural.find("illion") != std::string::npos ||
          b.plural.find("thousand") != std::string::npos)
        continue;
      Unit u = b;
      const std::string word = std::string(scale) + " ";
      u.symbol = word + b.symbol;
      u.singular = word + b.singular;
      u.plural = word + b.plural;
      u.factor = b.factor * factor;
      for (auto& d : u.defaults) {
        auto listed_d = im.unit_codes.find(d);  // defaults name listed units only
        if (im.unit_codes.count(std::string(prefix) + d) > 0 ||
            (listed_d != im.unit_codes.end() && im.units[listed_d->second].offset == 0))
          d = std::string(prefix) + d;
      }
      im.units.push_back(std::move(u));
      im.unit_codes.emplace(std::string(prefix) + code, im.units.size() - 1);
    }
  }
  // A default made above names a prefixed unit that may not exist (a row's default "/km2"):
  // the base unit's default is used then.
  for (size_t i = listed; i < im.units.size(); ++i)
    for (auto& d : im.units[i].defaults)
      if (const Unit* o = im.FindUnit(d); !o || o->dimension != im.units[i].dimension)
        if (size_t base = d.find_first_not_of("e0123456789"); base != std::string::npos)
          d.erase(0, base);
  *out = std::move(table);
  return Status::OK();
}

const TemplateRule* TemplateTable::Find(std::string_view name) const {
  auto it = impl_->exact.find(name);
  if (it != impl_->exact.end()) return &impl_->rules[it->second];
  for (auto& [p, idx] : impl_->prefixes)
    if (name.size() > p.size() && name.substr(0, p.size()) == p) return &impl_->rules[idx];
  return nullptr;
}

// ------------------------------------------------------------------ rendering

std::string TemplateTable::Impl::RenderPattern(const std::vector<RuleNode>& nodes,
                                               const TemplateCall& call, const ArgCleaner& clean,
                                               bool* any_arg) const {
  std::string out;
  bool group_shown = false;  // the last group was shown: an "[!…]" after it is not
  for (const RuleNode& n : nodes) {
    switch (n.kind) {
      case RuleNode::kLiteral:
        out += n.text;
        break;
      case RuleNode::kName:
        out += call.raw_name;
        break;
      case RuleNode::kArg:
        for (const auto& k : n.keys) {
          std::string_view v = call.Get(k);
          if (v.empty()) continue;
          std::string text(Trim(clean(v)));
          if (text.empty()) continue;
          out += text;
          *any_arg = true;
          break;
        }
        break;
      case RuleNode::kGroup: {
        if (n.otherwise && group_shown) break;
        bool inner_any = false;
        std::string inner = RenderPattern(n.children, call, clean, &inner_any);
        if (inner_any) {
          out += inner;
          *any_arg = true;
        }
        group_shown = inner_any;
        break;
      }
    }
  }
  return out;
}

namespace {

// Month from "3", "03", "March" or "Mar"; 0 when not a month.
int ParseMonth(std::string_view s) {
  s = Trim(s);
  if (IsDigits(s)) {
    int m = std::atoi(std::string(s).c_str());
    return m >= 1 && m <= 12 ? m : 0;
  }
  if (s.size() < 3) return 0;
  std::string l = LowerAscii(s);
  for (int m = 0; m < 12; ++m) {
    std::string name = LowerAscii(kMonths[m]);
    if (name.rfind(l, 0) == 0) return m + 1;
  }
  return 0;
}

// "March 14, 1879" (or "14 March 1879" when `dmy`), with month or day left out when absent.
std::string FormatDate(std::string_view y, std::string_view m, std::string_view d, bool dmy) {
  int month = ParseMonth(m);
  std::string day(Trim(d));
  if (IsDigits(day)) day = std::to_string(std::atoi(day.c_str()));
  std::string year(Trim(y));
  if (month == 0) return year;
  std::string mname = kMonths[month - 1];
  if (day.empty()) return mname + " " + year;
  return dmy ? day + " " + mname + " " + year : mname + " " + day + ", " + year;
}

bool DayMonthYear(const TemplateCall& call) {
  return IsYes(call.Get("df")) || LowerAscii(call.Get("df")) == "dmy";
}

std::string RenderDate(const TemplateCall& call) {
  std::string_view y = call.Get("1");
  if (!IsDigits(y)) return std::string(y);  // a date given as text: shown as it is
  return FormatDate(y, call.Get("2"), call.Get("3"), DayMonthYear(call));
}

std::string RenderDateAge(const TemplateCall& call) {
  std::string out = RenderDate(call);
  auto num = [&](const char* k) { return std::atoi(std::string(call.Get(k)).c_str()); };
  if (IsDigits(call.Get("1")) && IsDigits(call.Get("4"))) {
    int age = num("1") - num("4");
    int m1 = num("2"), d1 = num("3"), m0 = num("5"), d0 = num("6");
    if (m1 > 0 && m0 > 0 && (m1 < m0 || (m1 == m0 && d1 > 0 && d0 > 0 && d1 < d0))) --age;
    if (age >= 0 && age < 200) out += " (aged " + std::to_string(age) + ")";
  }
  return out;
}

std::string RenderAsOf(const TemplateCall& call, const TemplateTable::ArgCleaner& clean) {
  std::string_view alt = call.Get("alt");
  if (!alt.empty()) return std::string(alt);
  bool us = LowerAscii(call.Get("df")) == "us";
  std::string out = IsYes(call.Get("since")) ? "Since" : "As of";
  if (IsYes(call.Get("lc"))) out[0] = static_cast<char>(std::tolower(out[0]));
  // A date given by a template ({{As of|{{UN_Population|Year}}}}) is rendered first: its text,
  // or the mark of a value aligndb cannot compute, which then takes its bracket or sentence.
  auto part = [&](const char* k) {
    std::string_view v = call.Get(k);
    return v.find('{') == std::string_view::npos ? std::string(v) : std::string(Trim(clean(v)));
  };
  std::string date = FormatDate(part("1"), part("2"), part("3"), !us);
  if (!date.empty()) out += " " + date;
  out += call.Get("post");  // shown right after the date: "{{As of|2020|post=,}}" → "As of 2020,"
  return out;
}

// Harvard citations: authors are the positional arguments before the year.
std::string RenderHarvard(const TemplateCall& call, const std::string& style,
                          const TemplateTable::ArgCleaner& clean) {
  std::vector<std::string> authors;
  std::string year;
  for (size_t i = 0; i < call.positional.size() && i < 5; ++i) {
    std::string_view a = Trim(call.positional[i]);
    bool is_year = a.size() >= 4 && IsDigits(a.substr(0, 4)) && a.size() <= 6;
    if (is_year || a == "n.d.") {
      year = std::string(a);
      break;
    }
    if (!a.empty()) authors.emplace_back(Trim(clean(a)));
  }
  std::string who;
  if (authors.size() >= 4) {
    who = authors[0] + " et al.";
  } else {
    for (size_t i = 0; i < authors.size(); ++i) {
      if (i > 0) who += i + 1 == authors.size() ? " & " : ", ";
      who += authors[i];
    }
  }
  std::string where;
  for (const char* k : {"p", "pp", "loc"}) {
    std::string_view v = call.Get(k);
    if (v.empty()) continue;
    where = std::string(k) == "p" ? "p. " : std::string(k) == "pp" ? "pp. " : "";
    where += std::string(Trim(clean(v)));
    break;
  }
  if (style == "harvtxt") return who + " (" + year + (where.empty() ? "" : ", " + where) + ")";
  std::string inner = who + (year.empty() ? "" : " " + year) + (where.empty() ? "" : ", " + where);
  return style == "harv" ? "(" + inner + ")" : inner;
}

// {{HMS|Surinam|1805}} and {{ship|HMS|Surinam|1805}}: "HMS Surinam (1805)". The argument after
// the ID is a mask of what is shown (the ship templates' documentation, Template:MV's
// "{{MV|Aurora|2000|2}}" → "Aurora"): 4 the prefix, 2 the name, 1 the ID in brackets; 6 shows
// "HMS Grampus". A mask that is no digit from 1 to 7 shows all, as an absent one does.
std::string RenderShip(const TemplateCall& call, const TemplateTable::ArgCleaner& clean) {
  const bool generic = call.name == "ship";
  std::string prefix = generic ? std::string(Trim(clean(call.Get("1")))) : call.raw_name;
  std::string name(Trim(clean(call.Get(generic ? "2" : "1"))));
  std::string id(Trim(clean(call.Get(generic ? "3" : "2"))));
  std::string_view m = Trim(call.Get(generic ? "4" : "3"));
  int mask = m.size() == 1 && m[0] >= '1' && m[0] <= '7' ? m[0] - '0' : 7;
  std::string out;
  auto add = [&out](const std::string& part) {
    if (part.empty()) return;
    if (!out.empty()) out.push_back(' ');
    out += part;
  };
  if (mask & 4) add(prefix);
  if (mask & 2) add(name);
  if ((mask & 1) && !id.empty()) add("(" + id + ")");
  return out;
}

// Right after a digit the fraction is the whole number's ("a 3{{sfrac|1|2}}-month-long tour"):
// Wikipedia sets them apart, "3 1⁄2", as {{frac|3|1|2}} shows; aligndb writes "3 1/2" for both.
bool AfterWholeNumber(const TemplateCall& call) {
  return !call.before.empty() && std::isdigit(static_cast<unsigned char>(call.before.back()));
}

std::string RenderFrac(const TemplateCall& call, const TemplateTable::ArgCleaner& clean) {
  std::vector<std::string> a;
  for (auto p : call.positional) a.emplace_back(Trim(clean(p)));
  const std::string gap = AfterWholeNumber(call) && a.size() <= 2 ? " " : "";
  if (a.size() == 1) return gap + "1/" + a[0];
  if (a.size() == 2) return gap + a[0] + "/" + a[1];
  if (a.size() >= 3) return a[0] + " " + a[1] + "/" + a[2];
  return "";
}

// ---- {{coord}} (Module:Coordinates): the coordinates as the sentence shows them

// "33.43", "-4.5", "57": a number as Module:Coordinates reads one.
bool IsCoordNumber(std::string_view s) {
  if (s.size() > 16) return false;  // no coordinate needs more; keeps the output buffers whole
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool digit = false, point = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      return false;
    }
  }
  return digit;
}
// A coordinate number whose magnitude is at most `max` (90 for a latitude, 180 for a longitude,
// under 60 for minutes and seconds): Module:Coordinates rejects the others, and so does aligndb.
bool CoordWithin(std::string_view s, double max, bool below = false) {
  if (!IsCoordNumber(s)) return false;
  const double v = std::fabs(std::strtod(std::string(s).c_str(), nullptr));
  return below ? v < max : v <= max;
}
int CoordPrecision(std::string_view s) {
  size_t p = s.find('.');
  return p == std::string_view::npos ? 0 : static_cast<int>(s.size() - p - 1);
}
// "33.43" with "N"/"S" for its sign: "33.43°N" ("-33.43" → "33.43°S"); a leading '+' goes.
std::string DecimalCoord(std::string_view v, const char* pos, const char* neg) {
  bool negative = !v.empty() && v[0] == '-';
  if (!v.empty() && (v[0] == '-' || v[0] == '+')) v.remove_prefix(1);
  return std::string(v) + "\u00b0" + (negative ? neg : pos);
}
// A decimal coordinate in degrees, minutes and seconds to the precision its decimals give
// (Module:Coordinates' determineMode and convert_dec2dms): "44.1124" → "44°06′45″N".
std::string DecimalToDms(std::string_view v, int precision, const char* pos, const char* neg) {
  const double d = std::strtod(std::string(v).c_str(), nullptr);
  const double a = std::fabs(d);
  char buf[64];
  if (precision <= 0) {
    std::snprintf(buf, sizeof buf, "%.0f\u00b0", std::round(a));
  } else if (precision <= 2) {
    const long m = std::lround(a * 60);
    std::snprintf(buf, sizeof buf, "%ld\u00b0%02ld\u2032", (m / 60) % 360, m % 60);
  } else {
    const long sec = std::lround(a * 3600);
    std::snprintf(buf, sizeof buf, "%ld\u00b0%02ld\u2032%02ld\u2033", (sec / 3600) % 360,
                  (sec / 60) % 60, sec % 60);
  }
  return std::string(buf) + (d < 0 ? neg : pos);
}
bool IsHemisphere(std::string_view s, char a, char b) {
  return s.size() == 1 && (std::toupper(static_cast<unsigned char>(s[0])) == a ||
                           std::toupper(static_cast<unsigned char>(s[0])) == b);
}

// {{coord|33.43|N|73.04|E}} → "33.43°N 73.04°E", {{coord|57|18|22|N|4|27|32|W}} → "57°18′22″N
// 4°27′32″W", {{coord|44.112|-87.913}} → "44.112°N 87.913°W": the format the coordinates are
// given in, unless format= asks for the other (dms: by the decimals' precision; dec: as given).
// display=title alone shows them beside the page's title, not in the text: nothing then; nor
// on a line of their own (display=inline,title at a page's end), which is no sentence.
// Arguments it does not understand: nothing, as before.
std::string RenderCoord(const TemplateCall& call) {
  const std::string display = LowerAscii(call.Get("display"));
  if (!display.empty() && display.find("inline") == std::string::npos && display != "i" &&
      display != "it" && display != "ti")
    return "";
  const size_t line = call.before.rfind('\n');
  const std::string_view rest = call.after.substr(0, call.after.find('\n'));
  if (Trim(call.before.substr(line == std::string_view::npos ? 0 : line + 1)).empty() &&
      Trim(rest).empty())
    return "";
  std::string_view a[9];
  for (size_t k = 0; k < 9 && k < call.positional.size(); ++k) a[k] = Trim(call.positional[k]);
  const std::string format = LowerAscii(call.Get("format"));
  if (!IsCoordNumber(a[0])) return "";
  auto dec = [&](std::string_view lat, std::string_view lon) {
    if (format == "dms") {
      const int p = std::max(CoordPrecision(lat), CoordPrecision(lon));
      return DecimalToDms(lat, p, "N", "S") + " " + DecimalToDms(lon, p, "E", "W");
    }
    return DecimalCoord(lat, "N", "S") + " " + DecimalCoord(lon, "E", "W");
  };
  if (a[3].empty() && a[4].empty() && a[5].empty()) {  // {{coord|lat|long}}
    if (!CoordWithin(a[0], 90) || !CoordWithin(a[1], 180)) return "";
    return dec(a[0], a[1]);
  }
  // Degrees [minutes [seconds]] and a hemisphere letter, for each: the letters' places tell.
  size_t parts = 0;
  for (size_t k : {3, 2, 1})
    if (a[k].size() == 1 && a[2 * k + 1].size() == 1 &&
        ((IsHemisphere(a[k], 'N', 'S') && IsHemisphere(a[2 * k + 1], 'E', 'W')) ||
         (IsHemisphere(a[k], 'E', 'W') && IsHemisphere(a[2 * k + 1], 'N', 'S')))) {
      parts = k;
      break;
    }
  if (parts == 0) return "";
  std::string_view lat[4], lon[4];  // degrees, minutes, seconds, letter
  for (size_t k = 0; k < parts; ++k) lat[k] = a[k], lon[k] = a[parts + 1 + k];
  lat[3] = a[parts];
  lon[3] = a[2 * parts + 1];
  if (IsHemisphere(lat[3], 'E', 'W')) std::swap(lat, lon);  // given longitude first
  for (size_t k = 0; k < parts; ++k)
    if (!CoordWithin(lat[k], k ? 60 : 90, k > 0) || !CoordWithin(lon[k], k ? 60 : 180, k > 0))
      return "";
  auto upper = [](std::string_view l) {
    return std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(l[0]))));
  };
  // Degrees alone with decimals are decimal coordinates with letters: shown as decimals.
  if (parts == 1 && (CoordPrecision(lat[0]) > 0 || CoordPrecision(lon[0]) > 0)) {
    const std::string slat = (upper(lat[3]) == "S" ? "-" : "") + std::string(lat[0]);
    const std::string slon = (upper(lon[3]) == "W" ? "-" : "") + std::string(lon[0]);
    return dec(slat, slon);
  }
  auto dms = [&](std::string_view* c) {
    std::string out = std::string(c[0]) + "\u00b0";
    if (parts > 1 && !c[1].empty()) out += std::string(c[1]) + "\u2032";
    if (parts > 2 && !c[2].empty()) out += std::string(c[2]) + "\u2033";
    return out + upper(c[3]);
  };
  if (format == "dec") {
    // Module:Coordinates' convert_dms2dec: decimals by the smallest unit given.
    auto to_dec = [&](std::string_view* c, const char* pos, const char* neg) {
      const double deg = std::strtod(std::string(c[0]).c_str(), nullptr);
      const double min = parts > 1 ? std::strtod(std::string(c[1]).c_str(), nullptr) : 0;
      const double sec = parts > 2 ? std::strtod(std::string(c[2]).c_str(), nullptr) : 0;
      const int precision = parts > 2   ? 5 + std::max(CoordPrecision(c[2]), 0)
                            : parts > 1 ? 3 + std::max(CoordPrecision(c[1]), 0)
                                        : CoordPrecision(c[0]);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*f\u00b0", precision, deg + (min + sec / 60) / 60);
      const char l = static_cast<char>(std::toupper(static_cast<unsigned char>(c[3][0])));
      return std::string(buf) + (l == 'S' || l == 'W' ? neg : pos);
    };
    return to_dec(lat, "N", "S") + " " + to_dec(lon, "E", "W");
  }
  return dms(lat) + " " + dms(lon);
}

// ---- {{langx}}, {{lang-xx}} (docs/text.md, "Language names")

// True when `text` holds a letter of a script other than Latin (Greek, Cyrillic, Arabic, CJK, …):
// code points from U+0370 on, except Latin Extended Additional (U+1E00–U+1EFF), general
// punctuation and symbols (U+2000–U+2BFF). Module:Lang shows a transliteration only then.
bool HasNonLatinLetters(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0xC0) continue;
    uint32_t cp = 0;
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (i + len > text.size()) return false;
    cp = c & (0x3F >> (len - 1));
    for (size_t k = 1; k < len; ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += len - 1;
    if (cp >= 0x370 && !(cp >= 0x1E00 && cp <= 0x1EFF) && !(cp >= 0x2000 && cp <= 0x2BFF))
      return true;
  }
  return false;
}

// As Wikipedia's Module:Lang shows it: "Ancient Greek: Ἰησοῦς", ", romanized: Iēsoûs" when a
// transliteration in Latin script is given and the text is not in Latin script, ", lit. 'sea'" for
// a literal translation; label=none leaves the labels out, another label replaces the language
// name. An unknown language code shows the text only. {{langx|code|text|translit|lit}};
// {{lang-xx|text|translit|lit}} takes the code from its name.
std::string RenderLangx(const TemplateCall& call, const TemplateTable::ArgCleaner& clean) {
  bool xx = call.name.rfind("lang-", 0) == 0;
  std::string_view code = xx ? std::string_view(call.name).substr(5) : call.Get("1");
  auto arg = [&](const char* positional_x, const char* positional_xx,
                 std::initializer_list<const char*> names) {
    std::string_view v = call.Get(xx ? positional_xx : positional_x);
    for (const char* n : names)
      if (v.empty()) v = call.Get(n);
    return v.empty() ? std::string() : std::string(Trim(clean(v)));
  };
  std::string text = arg("2", "1", {"text"});
  std::string_view name = LanguageName(code);
  if (text.empty() || name.empty()) return text;
  std::string label = arg("label", "label", {});  // cleaned: it may hold links or templates
  bool labels = LowerAscii(label) != "none";
  std::string out = !labels ? text : (label.empty() ? std::string(name) : label) + ": " + text;
  std::string translit = arg("3", "2", {"translit"});
  if (!translit.empty() && HasNonLatinLetters(text) && !HasNonLatinLetters(translit))
    out += (labels ? ", romanized: " : ", ") + translit;
  std::string lit = arg("4", "3", {"lit", "translation"});
  // Italic or bold marks inside the quotation marks it is shown in would merge with them into
  // bold: dropped, as Wikipedia's quotation marks stand for them.
  for (size_t q = lit.find("''"); q != std::string::npos; q = lit.find("''", q)) {
    size_t e = lit.find_first_not_of('\'', q);
    lit.erase(q, (e == std::string::npos ? lit.size() : e) - q);
  }
  if (!lit.empty()) out += (labels ? ", lit. '" : ", '") + lit + "'";
  return out;
}

// ---- {{zh}} (docs/text.md, "Language names")

// As Wikipedia's {{zh}} shows it: each given form with its label, in the template's order,
// separated by "; ": "Chinese: 木星; pinyin: mùxīng", "simplified Chinese: …; traditional
// Chinese: …" (first=t: traditional first; the same characters twice, or one of them alone:
// "Chinese: …"), then the romanizations, then the literal meaning "lit. '…'". labels=no leaves
// the labels of the forms out ("民航; lit. 'Civilian Air Transportation'").
std::string RenderZh(const TemplateCall& call, const TemplateTable::ArgCleaner& clean) {
  auto arg = [&](std::string_view key) {
    std::string_view v = call.Get(key);
    return v.empty() ? std::string() : std::string(Trim(clean(v)));
  };
  const bool labels = LowerAscii(call.Get("labels")) != "no";
  std::string s = arg("s"), t = arg("t"), p = arg("p");
  if (p.empty()) p = arg("hp");
  const std::string tp = arg("tp");
  if (s == t) t.clear();
  const bool both = !s.empty() && !t.empty();
  std::vector<std::pair<std::string_view, std::string>> forms = {{"Chinese", arg("c")}};
  if (LowerAscii(call.Get("first")) == "t") {
    forms.emplace_back(both ? "traditional Chinese" : "Chinese", t);
    forms.emplace_back(both ? "simplified Chinese" : "Chinese", s);
  } else {
    forms.emplace_back(both ? "simplified Chinese" : "Chinese", s);
    forms.emplace_back(both ? "traditional Chinese" : "Chinese", t);
  }
  forms.emplace_back(tp.empty() ? "pinyin" : "Hanyu Pinyin", p);
  forms.emplace_back("Tongyong Pinyin", tp);
  for (auto [key, label] : {std::pair{"w", "Wade\u2013Giles"},
                            {"j", "Jyutping"},
                            {"cy", "Cantonese Yale"},
                            {"sl", "Sidney Lau"},
                            {"poj", "Pe\u030Dh-\u014De-j\u012B"},
                            {"zhu", "Zhuyin Fuhao"}})
    forms.emplace_back(label, arg(key));
  std::string out;
  for (const auto& [label, text] : forms) {
    if (text.empty()) continue;
    if (!out.empty()) out += "; ";
    if (labels) out.append(label).append(": ");
    out += text;
  }
  if (std::string lit = arg("l"); !lit.empty()) {
    if (!out.empty()) out += "; ";
    out += "lit. '" + lit + "'";
  }
  return out;
}

// ---- {{IPA}} (docs/text.md, "IPA in prose")

// True when the text before a template on its line puts it in a pronunciation bracket: right
// after the bracket's "(" or a ";" in it, or after nothing but templates and separators since
// the "(" ("Aa (Greek: x; {{IPA|a}})", "Paris ({{IPAc-en|…}}, {{IPA|…}})").
bool InPronunciationBracket(std::string_view before) {
  size_t nl = before.rfind('\n');
  if (nl != std::string_view::npos) before.remove_prefix(nl + 1);
  // The innermost bracket still open before the template.
  int depth = 0;
  size_t open = std::string_view::npos;
  for (size_t i = before.size(); i-- > 0;) {
    if (before[i] == ')') ++depth;
    if (before[i] == '(' && depth-- == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string_view::npos) return false;
  std::string_view seg = Trim(before.substr(open + 1));
  if (seg.empty() || seg.back() == ';') return true;
  int braces = 0;
  for (size_t i = 0; i < seg.size(); ++i) {
    char c = seg[i];
    if (c == '{' || c == '}') {
      braces += c == '{' ? 1 : -1;
    } else if (braces == 0 && seg.compare(i, 2, "or") == 0) {
      ++i;  // a lone "or" between two pronunciations
    } else if (braces == 0 && c != ' ' && c != ',' && c != ';') {
      return false;
    }
  }
  return true;
}

// True when `s` holds only combining diacritical marks (U+0300–U+036F) and spaces, and one mark.
bool IsCombiningMarksOnly(std::string_view s) {
  bool any = false;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ') {
      ++i;
      continue;
    }
    // U+0300–U+036F: CC 80 … CD AF in UTF-8.
    if (i + 1 >= s.size()) return false;
    const unsigned char d = static_cast<unsigned char>(s[i + 1]);
    if (!((c == 0xCC && d >= 0x80 && d <= 0xBF) || (c == 0xCD && d >= 0x80 && d <= 0xAF)))
      return false;
    any = true;
    i += 2;
  }
  return any;
}

// {{IPA|/kɪdz/}} shows its transcription; in a pronunciation bracket (InPronunciationBracket)
// it is a pronunciation and goes, as {{IPAc-en}} does. {{IPA|nl|ˈbɛlɣijə|…}} (a language code
// first, the form of a labelled pronunciation) goes too.
std::string RenderIpa(const TemplateCall& call, const TemplateTable::ArgCleaner& clean) {
  std::string_view text = call.Get("1");
  // The labelled form {{IPA|nl|ˈbɛlɣijə}}: a language code, then the transcription. After a
  // subject ("Belgium {{IPA|nl|…}} is") it is the lead's pronunciation, removed; after a word
  // that announces it ("pronounced {{IPA|nl|…}} by most speakers") it is the sentence's text.
  if (call.positional.size() >= 2 && text.size() >= 2 && text.size() <= 8 &&
      std::all_of(text.begin(), text.end(),
                  [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; })) {
    std::string_view before = Trim(call.before);
    while (!before.empty() && (before.back() == ':' || before.back() == ','))
      before.remove_suffix(1);
    const size_t space = before.find_last_of(" \n\t'");
    const std::string_view word =
        space == std::string_view::npos ? before : before.substr(space + 1);
    static constexpr std::string_view kAnnouncing[] = {"pronounced", "pronunciation", "pronounce",
                                                       "pronounces", "as"};
    if (std::find(std::begin(kAnnouncing), std::end(kAnnouncing), word) == std::end(kAnnouncing))
      return "";
    text = call.Get("2");
  }
  // A pronunciation in a lead's bracket is removed as the pronunciation templates are; in
  // running prose ("pronounced [ˈbɛlɣijə] by most speakers") the transcription is the text.
  if (text.empty()) return "";
  // A diacritic written alone ("the diacritic ({{IPA| ̴}})") is a symbol, not a pronunciation.
  if (!IsCombiningMarksOnly(Trim(text)) && InPronunciationBracket(call.before)) return "";
  return std::string(Trim(clean(text)));
}

// ---- {{nihongo}} (docs/text.md, "Templates rendered as text")

// As Wikipedia's Module:Nihongo shows {{nihongo|english|japanese|romaji|extra|extra2}}: the English
// first, then in brackets the Japanese, the romaji and the gloss (4th argument or extra=), each
// left out when empty; without the English, the romaji comes first and the bracket holds the
// Japanese and the gloss. {{nihongo3}} puts the romaji first and the English in the bracket.
// extra2= follows the whole. lead=yes labels the Japanese "Japanese: " and, when the English is
// given, the romaji "Hepburn: " (not in {{nihongo3}}).
std::string RenderNihongo(const TemplateCall& call, const TemplateTable::ArgCleaner& clean) {
  auto arg = [&](const char* key, const char* alt) {
    std::string_view v = call.Get(key);
    if (v.empty() && alt) v = call.Get(alt);
    return v.empty() ? std::string() : std::string(Trim(clean(v)));
  };
  std::string english = arg("1", nullptr), japanese = arg("2", nullptr), romaji = arg("3", nullptr);
  const std::string extra = arg("extra", "4"), extra2 = arg("extra2", "5");
  if (japanese.empty() && romaji.empty()) return english;  // an error message on Wikipedia
  const bool third = call.name == "nihongo3";
  if (!third && IsYes(call.Get("lead"))) {
    if (!japanese.empty()) japanese = "Japanese: " + japanese;
    if (!romaji.empty() && !english.empty()) romaji = "Hepburn: " + romaji;
  }
  std::string head, second;  // `second` goes into the bracket after the Japanese
  if (third && !romaji.empty()) {
    head = romaji;
    second = english;
  } else if (!english.empty()) {
    head = english;
    second = romaji;
  } else {
    head = romaji;
  }
  std::string inner;
  for (const std::string& part : {japanese, second, extra})
    if (!part.empty()) inner += (inner.empty() ? "" : ", ") + part;
  std::string out = head;
  if (!inner.empty()) out += (out.empty() ? "(" : " (") + inner + ")";
  if (!extra2.empty()) out += (out.empty() ? "" : " ") + extra2;
  return out;
}

// ---- {{braille cell}}, {{bc}}

// Each argument one Unicode braille cell (U+2800 + one bit per raised dot): dot numbers in
// ascending order ("345" → ⠜), a letter of English braille ("y" → ⠽) or "#", the number sign
// (⠼). Anything else (contractions, other braille languages): nothing, the template is dropped.
std::string RenderBraille(const TemplateCall& call) {
  // Dots of the letters a–z in English braille.
  static constexpr std::string_view kLetters[] = {
      "1",   "12",   "14",  "145",  "15",   "124",  "1245",  "125",   "24",
      "245", "13",   "123", "134",  "1345", "135",  "1234",  "12345", "1235",
      "234", "2345", "136", "1236", "2456", "1346", "13456", "1356"};
  std::string out;
  for (std::string_view arg : call.positional) {
    std::string_view a = Trim(arg);
    std::string_view dots = a;
    if (a.size() == 1 && std::isalpha(static_cast<unsigned char>(a[0])))
      dots = kLetters[std::tolower(static_cast<unsigned char>(a[0])) - 'a'];
    else if (a == "#")
      dots = "3456";
    unsigned bits = 0;
    char previous = '0';
    for (char d : dots) {
      if (d <= previous || d > '8') return "";  // not dot numbers in ascending order
      bits |= 1u << (d - '1');
      previous = d;
    }
    if (dots.empty()) return "";
    const unsigned cp = 0x2800 + bits;  // three bytes in UTF-8
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// ---- {{#expr:…}}

// A recursive-descent reader of the arithmetic MediaWiki's {{#expr:}} computes, restricted to
// literal numbers: + - * / div mod, unary signs and brackets. At most kMaxExprBytes of input and
// kMaxExprDepth nested brackets or signs, so a hostile page costs linear time.
class ExprReader {
 public:
  explicit ExprReader(std::string_view s) : s_(s) {}
  // The value of the whole expression; false when it is not such arithmetic or is not finite.
  bool Evaluate(double* v) {
    if (s_.size() > kMaxExprBytes || !Sum(v)) return false;
    SkipSpaces();
    return i_ == s_.size() && std::isfinite(*v);
  }

 private:
  static constexpr size_t kMaxExprBytes = 200;
  static constexpr int kMaxExprDepth = 32;
  void SkipSpaces() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool Word(std::string_view w) {
    SkipSpaces();
    if (s_.compare(i_, w.size(), w) != 0) return false;
    i_ += w.size();
    return true;
  }
  bool Sum(double* v) {
    if (!Product(v)) return false;
    for (;;) {
      double r;
      if (Word("+")) {
        if (!Product(&r)) return false;
        *v += r;
      } else if (Word("-")) {
        if (!Product(&r)) return false;
        *v -= r;
      } else {
        return true;
      }
    }
  }
  bool Product(double* v) {
    if (!Unary(v)) return false;
    for (;;) {
      double r;
      if (Word("*")) {
        if (!Unary(&r)) return false;
        *v *= r;
      } else if (Word("/") || Word("div")) {
        if (!Unary(&r) || r == 0) return false;  // MediaWiki shows an error: not a value
        *v /= r;
      } else if (Word("mod")) {
        if (!Unary(&r) || std::fabs(*v) > 1e15 || std::fabs(r) > 1e15) return false;
        const long long a = std::llround(std::trunc(*v)), b = std::llround(std::trunc(r));
        if (b == 0) return false;
        *v = static_cast<double>(a % b);
      } else {
        return true;
      }
    }
  }
  bool Unary(double* v) {
    if (++depth_ > kMaxExprDepth) return false;
    bool ok;
    if (Word("-")) {
      ok = Unary(v);
      *v = -*v;
    } else if (Word("+")) {
      ok = Unary(v);
    } else if (Word("(")) {
      ok = Sum(v) && Word(")");
    } else {
      ok = Number(v);
    }
    --depth_;
    return ok;
  }
  bool Number(double* v) {
    SkipSpaces();
    const size_t b = i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.'))
      ++i_;
    if (i_ == b || i_ - b > 30 || std::count(s_.begin() + b, s_.begin() + i_, '.') > 1 ||
        (i_ - b == 1 && s_[b] == '.'))
      return false;
    *v = std::strtod(std::string(s_.substr(b, i_ - b)).c_str(), nullptr);
    return true;
  }
  std::string_view s_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

std::string RenderExprFunction(std::string_view expr) {
  double v = 0;
  if (expr.find('{') == std::string_view::npos && ExprReader(Trim(expr)).Evaluate(&v) &&
      std::fabs(v) < 1e15) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.14g", v == 0 ? 0.0 : v);
    if (std::string_view(buf).find('e') == std::string_view::npos) return buf;
  }
  return std::string(1, kComputedValueMarker);
}

namespace {

// "1762949" → "1,762,949", "3008" → "3,008", "12345.678" → "12,345.678" (val's fmt=commas groups
// every integer part); anything but a plain number (a sign aside) is returned as it is.
std::string GroupDigitsWithCommas(std::string_view s) {
  size_t begin = s.starts_with('-') || s.starts_with('+') ? 1 : 0;
  if (s.substr(0, 3) == "\u2212") begin = 3;
  size_t end = begin;
  while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
  if (end == begin) return std::string(s);
  for (size_t j = end; j < s.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(s[j])) && !(j == end && s[j] == '.'))
      return std::string(s);
  std::string out(s.substr(0, begin));
  for (size_t i = begin; i < end; ++i) {
    if (i > begin && (end - i) % 3 == 0) out.push_back(',');
    out.push_back(s[i]);
  }
  out.append(s.substr(end));
  return out;
}

// {{val}}'s power of ten: from E notation in its first argument ("3.5e6": mantissa "3.5") or
// from e= (mantissa left empty). `exponent` is written in superscript digits ("⁶", "⁻¹⁰").
// False when there is none, or it is not a whole number (left as written).
bool ValExponent(const TemplateCall& call, std::string* mantissa, std::string* exponent) {
  static constexpr const char* kSup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string_view value = Trim(call.Get("1")), e = Trim(call.Get("e"));
  if (e.empty()) {
    size_t at = value.find_last_of("eE");
    if (at == std::string_view::npos || at == 0) return false;
    std::string_view m = value.substr(0, at);
    size_t b = m.starts_with('-') || m.starts_with('+') ? 1 : m.starts_with("\u2212") ? 3 : 0;
    if (b == m.size() || m.find_first_not_of("0123456789.,", b) != std::string_view::npos)
      return false;
    *mantissa = std::string(m);
    e = value.substr(at + 1);
  }
  std::string sup;
  size_t i = 0;
  if (e.starts_with('-')) {
    sup = "⁻", i = 1;
  } else if (e.starts_with("\u2212")) {
    sup = "⁻", i = 3;
  } else if (e.starts_with('+')) {
    i = 1;
  }
  if (i == e.size() || e.size() - i > 4) return false;
  for (; i < e.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(e[i]))) return false;
    sup += kSup[e[i] - '0'];
  }
  *exponent = sup;
  return true;
}

}  // namespace

std::string TemplateTable::Render(const TemplateRule& rule, const TemplateCall& given,
                                  const ArgCleaner& clean) const {
  const std::string& f = rule.function;
  TemplateCall with_defaults;
  if (!rule.defaults.empty()) {
    with_defaults = given;
    for (const auto& [k, v] : rule.defaults)
      if (given.Get(k).empty()) with_defaults.named.emplace_back(k, v);
  }
  const TemplateCall& call = rule.defaults.empty() ? given : with_defaults;
  if (f.empty()) {
    bool any = false;
    // {{1/2}} … {{3/4}} after a digit: "3 1/2", as @frac writes it.
    if (call.name.size() == 3 && call.name[1] == '/' && AfterWholeNumber(call))
      return " " + impl_->RenderPattern(rule.pattern, call, clean, &any);
    // {{val|1762949|fmt=commas}}: the value and its uncertainty with commas between groups of
    // three digits, "1,762,949" (Template:Val; its default groups them with gaps, space that is
    // no character). A number of four digits before the point is left as written.
    if (call.name == "val") {
      TemplateCall v = call;
      std::string digits[2];
      const bool commas = LowerAscii(Trim(call.Get("fmt"))) == "commas";
      if (commas) {
        for (size_t k = 0; k < 2 && k < v.positional.size(); ++k) {
          digits[k] = GroupDigitsWithCommas(Trim(v.positional[k]));
          v.positional[k] = digits[k];
        }
      }
      // A power of ten, written in the value ("3.5e6", Module:Val reads E notation in its first
      // argument) or as e=: "3.5×10⁶ K"; with an uncertainty "(1.2±0.3)×10⁵ K".
      std::string mantissa, exponent;
      if (ValExponent(call, &mantissa, &exponent)) {
        if (!mantissa.empty()) {
          digits[0] = commas ? GroupDigitsWithCommas(mantissa) : mantissa;
          v.positional[0] = digits[0];
        }
        TemplateCall number = v, unit = v;
        std::erase_if(number.named, [](const auto& kv) { return kv.first == "u" || kv.first == "ul"; });
        unit.positional.clear();
        std::string n = impl_->RenderPattern(rule.pattern, number, clean, &any);
        const bool uncertain = v.positional.size() > 1 && !Trim(v.positional[1]).empty();
        if (uncertain) n = "(" + n + ")";
        return n + (n.empty() ? "" : "\u00d7") + "10" + exponent +
               impl_->RenderPattern(rule.pattern, unit, clean, &any);
      }
      return impl_->RenderPattern(rule.pattern, v, clean, &any);
    }
    return impl_->RenderPattern(rule.pattern, call, clean, &any);
  }
  if (f == "convert") return impl_->Convert(call, clean);
  if (f == "date") return RenderDate(call);
  if (f == "dateage") return RenderDateAge(call);
  if (f == "asof") return RenderAsOf(call, clean);
  if (f == "frac") return RenderFrac(call, clean);
  if (f == "computed") {
    // blank=ref,…: first arguments that select no value but a reference or a note
    // ({{UN_Population|ref}}), which render nothing, as references do.
    const std::string first = LowerAscii(Trim(call.Get("1")));
    std::string_view blank = call.Get("blank");
    while (!first.empty() && !blank.empty()) {
      const size_t comma = blank.find(',');
      if (LowerAscii(Trim(blank.substr(0, comma))) == first) return "";
      blank = comma == std::string_view::npos ? std::string_view() : blank.substr(comma + 1);
    }
    return std::string(1, kComputedValueMarker);
  }
  if (f == "langx") return RenderLangx(call, clean);
  if (f == "ipa") return RenderIpa(call, clean);
  if (f == "zh") return RenderZh(call, clean);
  if (f == "nihongo") return RenderNihongo(call, clean);
  if (f == "braille") return RenderBraille(call);
  if (f == "coord") return RenderCoord(call);
  if (f == "ship") return RenderShip(call, clean);
  if (f == "namerest") {
    // {{Rut Western Province}}: the team's name, the template's name after its first word.
    const size_t space = call.name.find(' ');
    return space == std::string::npos ? "" : std::string(Trim(call.name.substr(space + 1)));
  }
  if (f == "jupiter") {
    // {{Jupiter mass|0.69}}: "0.69 MJ"; Jup=y writes "MJup" ("MJ or MJup").
    std::string value(Trim(clean(call.Get("1"))));
    return (value.empty() ? "" : value + " ") + std::string(call.Get("symbol")) +
           (IsYes(call.Get("jup")) ? "Jup" : "J");
  }
  return RenderHarvard(call, f, clean);  // harvtxt, harvnb, harv
}

}  // namespace aligndb

// ------------------------------------------------------------------ {{convert}}
namespace aligndb {
namespace {

struct Number {
  double value = 0;
  int precision = 0;    // digits after the point, or minus the trailing zeros of an integer
  std::string display;  // as the page writes it, with thousands separators
};

std::string GroupThousands(std::string digits) {
  size_t dot = digits.find('.');
  size_t int_end = dot == std::string::npos ? digits.size() : dot;
  size_t int_begin = digits.find_first_of("0123456789");
  if (int_begin == std::string::npos || int_end - int_begin < 4) return digits;
  std::string out = digits.substr(0, int_begin);
  for (size_t i = int_begin; i < int_end; ++i) {
    if (i > int_begin && (int_end - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  out += digits.substr(int_end);
  return out;
}

bool ParseNumber(std::string_view s, Number* n) {
  std::string t;
  s = Trim(s);
  bool negative = false;
  if (s.substr(0, 3) == "\u2212") {
    negative = true;
    s.remove_prefix(3);
  } else if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  for (char c : s)
    if (c != ',') t.push_back(c);
  if (t.empty() || t.size() > 30) return false;
  size_t dot = t.find('.');
  for (size_t i = 0; i < t.size(); ++i)
    if (!(std::isdigit(static_cast<unsigned char>(t[i])) || i == dot)) return false;
  if (t == ".") return false;
  n->value = std::strtod(t.c_str(), nullptr) * (negative ? -1 : 1);
  if (dot != std::string::npos) {
    n->precision = static_cast<int>(t.size() - dot - 1);
  } else {
    size_t z = t.find_last_not_of('0');
    n->precision = z == std::string::npos ? 0 : -static_cast<int>(t.size() - 1 - z);
  }
  n->display = (negative ? "\u2212" : "") + GroupThousands(t);
  return true;
}

std::string FormatRounded(double v, int precision) {
  // As Module:Convert rounds: the magnitude, with 2e-14 added at up to 8 decimals (33 K is
  // −240.15 °C, stored as 240.149999…, shown −240.2), or divided by a power of ten and printed
  // with "%.0f" (a tie goes to the even digit).
  char buf[400];  // "%.0f" of the largest double has 309 digits
  const double m = std::fabs(v);
  std::string s;
  if (precision >= 0) {
    std::snprintf(buf, sizeof buf, "%.*f", std::min(precision, 10),
                  m + (precision <= 8 ? 2e-14 : 0));
    s = buf;
  } else {
    const int zeros = precision < -400 ? 400 : -precision;
    std::snprintf(buf, sizeof buf, "%.0f", m / std::pow(10.0, zeros));
    s = buf;
    if (s != "0" && s.find_first_not_of("0123456789") == std::string::npos)
      s.append(static_cast<size_t>(zeros), '0');
  }
  // No minus before a value that rounds to zero.
  if (v >= 0 || s.find_first_of("123456789") == std::string::npos) return GroupThousands(s);
  return "\u2212" + GroupThousands(s);
}

// An integer spelled out as Module:ConvertNumeric spells it for spell=: "four", "twenty-one",
// "one hundred and one" ("one hundred one" with sp=us); empty when `display` is not a whole number
// below a trillion (Wikipedia then shows the digits).
std::string SpellNumber(std::string_view display, bool us) {
  static constexpr const char* kOnes[] = {
      "zero",     "one",     "two",     "three",     "four",     "five",    "six",
      "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",  "thirteen",
      "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
  static constexpr const char* kTens[] = {"",      "",      "twenty",  "thirty", "forty",
                                          "fifty", "sixty", "seventy", "eighty", "ninety"};
  static constexpr const char* kScales[] = {"", " thousand", " million", " billion"};
  std::string digits;
  for (char ch : display) {
    if (ch == ',') continue;
    if (!std::isdigit(static_cast<unsigned char>(ch))) return "";
    digits.push_back(ch);
  }
  if (digits.empty() || digits.size() > 12) return "";
  long long n = std::stoll(digits);
  if (n == 0) return kOnes[0];
  auto below_hundred = [&](int v) {
    if (v < 20) return std::string(kOnes[v]);
    return std::string(kTens[v / 10]) + (v % 10 ? std::string("-") + kOnes[v % 10] : "");
  };
  std::vector<int> groups;  // least significant first
  for (; n > 0; n /= 1000) groups.push_back(static_cast<int>(n % 1000));
  std::string out;
  for (size_t g = groups.size(); g-- > 0;) {
    const int v = groups[g];
    if (v == 0) continue;
    std::string words;
    if (v >= 100) words = std::string(kOnes[v / 100]) + " hundred";
    if (v % 100) {
      // British usage puts "and" before the tens ("one hundred and one", "one thousand and five").
      const bool and_before = !us && (v >= 100 || (g == 0 && groups.size() > 1));
      words += std::string(words.empty() ? "" : " ") + (and_before ? "and " : "") +
               below_hundred(v % 100);
    }
    out += (out.empty() ? "" : " ") + words + kScales[g];
  }
  return out;
}

std::string UsSpelling(std::string name) {
  for (auto [gb, us] :
       {std::pair<std::string_view, std::string_view>{"metre", "meter"}, {"litre", "liter"}}) {
    size_t p;
    while ((p = name.find(gb)) != std::string::npos) name.replace(p, gb.size(), us);
  }
  return name;
}

struct RangeSep {
  std::string_view code, in, out;
};
constexpr RangeSep kRangeSeps[] = {{"-", "\u2013", "\u2013"},
                                   {"\u2013", "\u2013", "\u2013"},
                                   {"to", " to ", " to "},
                                   {"to(-)", " to ", "\u2013"},
                                   {"and", " and ", " and "},
                                   {"and(-)", " and ", "\u2013"},
                                   {"&", " and ", " and "},
                                   {"or", " or ", " or "},
                                   {"x", " by ", " \u00d7 "},
                                   {"by", " by ", " \u00d7 "},
                                   {"\u00d7", " \u00d7 ", " \u00d7 "},
                                   {"+", " + ", " + "},
                                   {"+/-", " \u00b1 ", " \u00b1 "},
                                   {"\u00b1", " \u00b1 ", " \u00b1 "}};

const RangeSep* FindRangeSep(std::string_view s) {
  s = Trim(s);
  for (const auto& r : kRangeSeps)
    if (s == r.code) return &r;
  return nullptr;
}

}  // namespace

struct TemplateTable::Impl::ConvertArgs {
  std::vector<Number> values;         // one, or several joined by range separators
  std::vector<const RangeSep*> seps;  // between consecutive values
  const Unit* in = nullptr;
  const Unit* in2 = nullptr;      // composite input ("5|ft|11|in"): the second unit
  Number second;                  // and its value
  std::vector<std::string> outs;  // output unit codes
  int precision = INT32_MIN;      // asked for, if any
  size_t rest = 0;                // the first positional argument after these
};

namespace {}  // namespace

namespace {

// "5 ft 11 in" (or "5 feet 11 inches") for a length in metres, to the nearest inch.
std::string FeetAndInches(double metres, bool symbol) {
  long inches = std::lround(metres / 0.0254);
  bool neg = inches < 0;
  inches = std::labs(inches);
  long ft = inches / 12, inch = inches % 12;
  std::string s = neg ? "\u2212" : "";
  if (ft > 0)
    s += GroupThousands(std::to_string(ft)) + (symbol ? " ft" : ft == 1 ? " foot" : " feet");
  if (inch > 0 || ft == 0)
    s += std::string(ft > 0 ? " " : "") + std::to_string(inch) +
         (symbol      ? " in"
          : inch == 1 ? " inch"
                      : " inches");
  return s;
}

// Decimals to show for the converted value `v`: as asked (precision argument, sigfig=), else
// Module:Convert's default (its default_precision): the input's precision (decimals, or minus the
// trailing zeros of an integer) shifted by log10 of the size ratio of the units (out/in) plus
// log10 2, rounded down, and at least two significant figures. `whole_to_ft_lb`: a whole number
// converted to feet or pounds, shifted by the input unit's size in metres or kilograms instead
// (Convert's integer_more_precision: 1,234 m is 4,049 ft, not 4,050). Between temperatures
// (`kelvin` >= 0, the value in kelvins): the input's precision and at least three significant
// figures in kelvins.
int OutputPrecision(int input_precision, double ratio, double v, int asked, std::string_view sigfig,
                    double kelvin, double whole_to_ft_lb) {
  if (asked != INT32_MIN) return asked;
  if (!sigfig.empty() && IsDigits(sigfig) && v != 0)
    return std::atoi(std::string(sigfig).c_str()) - 1 -
           static_cast<int>(std::floor(std::log10(std::fabs(v))));
  constexpr double kFudge = 1e-14;  // Convert adds it, as {{Order of magnitude}} does
  if (kelvin >= 0)
    return std::max(
        input_precision,
        kelvin < 1e-8 ? 2 : 2 - static_cast<int>(std::floor(std::log10(kelvin) + kFudge)));
  if (v == 0) return 0;
  const double adjust = whole_to_ft_lb > 0 ? -std::log10(whole_to_ft_lb) : std::log10(ratio);
  const int prec = static_cast<int>(std::floor(input_precision + adjust + 0.30102999566398120));
  return std::max(prec, 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)) + kFudge)));
}

// The input and output texts arranged as disp= asks (default "IN (OUT)").
std::string ArrangeConvert(std::string_view disp, const std::string& in_text,
                           const std::vector<std::string>& out_texts) {
  if (out_texts.empty()) return in_text;
  std::string out_text = out_texts[0];
  for (size_t i = 1; i < out_texts.size(); ++i) out_text += "; " + out_texts[i];
  if (disp == "or") return in_text + " or " + out_text;
  if (disp == "comma") return in_text + ", " + out_text;
  if (disp == "slash") return in_text + "/" + out_text;
  if (disp == "sqbr") return in_text + " [" + out_text + "]";
  if (disp == "out" || disp == "output only") return out_text;
  if (disp == "number" || disp == "output number only") {
    size_t sp = out_texts[0].find(' ');
    return sp == std::string::npos ? out_texts[0] : out_texts[0].substr(0, sp);
  }
  if (disp == "flip") return out_text + " (" + in_text + ")";
  return in_text + " (" + out_text + ")";
}

}  // namespace

// The positional arguments of {{convert}}: values with range separators, the input unit, an
// optional second (smaller) input unit, output units and a precision. False when the first
// argument is not a number or no known unit follows (`fallback` is then the text to show).
bool TemplateTable::Impl::ParseConvert(const std::vector<std::string>& a, ConvertArgs* c,
                                       std::string* fallback) const {
  Number n;
  if (a.empty() || !ParseNumber(a[0], &n)) {
    *fallback = a.empty() ? "" : a[0];
    return false;
  }
  c->values.push_back(n);
  size_t k = 1;
  while (k + 1 < a.size() && FindRangeSep(a[k]) && ParseNumber(a[k + 1], &n)) {
    c->seps.push_back(FindRangeSep(a[k]));
    c->values.push_back(n);
    k += 2;
  }
  c->in = k < a.size() ? FindUnit(a[k]) : nullptr;
  if (!c->in) {  // no unit, or an unknown one: the values (a range whole) and the code as written
    *fallback = c->values[0].display;
    for (size_t v = 1; v < c->values.size(); ++v)
      *fallback += std::string(c->seps[v - 1]->in) + c->values[v].display;
    if (k < a.size()) {
      // An engineering prefix is never shown as a code: "10 e6widget" reads "10 million widget".
      std::string_view code = Trim(a[k]);
      for (const auto& [prefix, scale] : kEngineeringPrefixes)
        if (code.size() > prefix.size() && code.starts_with(prefix) &&
            !std::isdigit(static_cast<unsigned char>(code[prefix.size()]))) {
          *fallback += " " + std::string(scale);
          code.remove_prefix(prefix.size());
          break;
        }
      *fallback += " " + std::string(code);
    }
    return false;
  }
  ++k;
  // Composite input such as "5|ft|11|in": a second value in a smaller unit of the dimension.
  if (c->values.size() == 1 && k + 1 < a.size() && ParseNumber(a[k], &c->second)) {
    const Unit* u = FindUnit(a[k + 1]);
    if (u && u->dimension == c->in->dimension && u->factor < c->in->factor) {
      c->in2 = u;
      k += 2;
    }
  }
  // Output units: one code, several separated by spaces, "ftin", or the input's defaults.
  if (k < a.size() && Trim(a[k]).empty()) {
    ++k;  // an empty output unit: the input's defaults
  } else if (k < a.size() && !ParseNumber(a[k], &n)) {
    for (auto code : SplitOn(a[k], ' '))
      if (!Trim(code).empty()) c->outs.emplace_back(Trim(code));
    ++k;
  }
  if (c->outs.empty()) c->outs = c->in->defaults;
  if (k < a.size() && ParseNumber(a[k], &n) && n.precision >= 0 && n.value < 20 &&
      a[k].find('.') == std::string::npos)
    c->precision = static_cast<int>(n.value), ++k;
  c->rest = k;
  return true;
}

std::string TemplateTable::Impl::Convert(const TemplateCall& call, const ArgCleaner& clean) const {
  std::vector<std::string> a;
  for (auto p : call.positional) a.emplace_back(Trim(clean(p)));
  ConvertArgs c;
  std::string fallback;
  if (!ParseConvert(a, &c, &fallback)) return fallback;
  const Unit* in = c.in;
  std::string abbr = LowerAscii(call.Get("abbr"));
  std::string disp = LowerAscii(call.Get("disp"));
  if (LowerAscii(call.Get("order")) == "flip") disp = "flip";
  bool us = LowerAscii(call.Get("sp")) == "us";
  std::string adj = LowerAscii(call.Get("adj"));
  // "sing" is the old name of "adj", which wins when both are given (Module:Convert's options, as
  // Sweble's port of the module reads them): "a {{convert|600|acre|km2|1|sing=on}} estate" is "a
  // 600-acre (2.4 km2) estate".
  if (adj.empty()) adj = LowerAscii(call.Get("sing"));
  bool adjective = adj == "on" || adj == "yes" || adj == "mid" || adj == "y";
  bool temperature = in->dimension.rfind("temperature", 0) == 0;
  const std::string_view sigfig = call.Get("sigfig");
  double round_to = 0;  // round=N, when N is a positive number
  if (Number r; ParseNumber(std::string(Trim(call.Get("round"))), &r) && r.value > 0)
    round_to = r.value;
  // By default the value shown first has the unit name, the second the symbol; order=flip shows
  // the converted value first ("22 miles (35 km)"). abbr=in/out name the input and output.
  bool flip = disp == "flip", first_named = abbr.empty() && !temperature;
  bool in_symbol =
      abbr == "on" || abbr == "in" || (temperature && abbr != "off") || (flip && abbr.empty());
  bool out_symbol = abbr != "off" && abbr != "in" && !(flip && first_named);
  bool values_only = abbr == "values";

  // Adjectives hyphenate every word of the name: "600,000-square-foot".
  auto unit_name = [&](const Unit& u, bool symbol, bool singular, bool hyphen = false) {
    if (symbol) return u.symbol;
    std::string name = singular ? u.singular : u.plural;
    if (hyphen) std::replace(name.begin(), name.end(), ' ', '-');
    return us ? UsSpelling(name) : name;
  };
  // "15 miles", "10–15 miles", "15-mile", "20 °C".
  auto show = [&](const std::vector<std::string>& nums, bool input, const Unit* u, bool symbol,
                  bool singular) {
    std::string s = nums[0];
    for (size_t i = 1; i < nums.size(); ++i)
      s += (input ? c.seps[i - 1]->in : c.seps[i - 1]->out), s += nums[i];
    if (values_only || !u) return s;
    bool hyphen = input != flip && adjective && !symbol;  // on the value shown first
    std::string name = unit_name(*u, symbol, singular || hyphen, hyphen);
    // Convert puts no space before a symbol that starts with "/" ("11,760/sq mi").
    if (name.starts_with('/')) return s + name;
    return s + (hyphen ? "-" : " ") + name;
  };

  // spell=in spells the input's whole numbers out, spell=on the output's too ("four miles (six
  // kilometres)"); "In"/"On" capitalize the first word.
  const std::string spell_arg(Trim(call.Get("spell")));
  const std::string spell = LowerAscii(spell_arg);
  const bool spell_in = spell == "in" || spell == "on";
  const bool spell_out = spell == "on";
  bool capital = !spell_arg.empty() && std::isupper(static_cast<unsigned char>(spell_arg[0]));
  // A side's values are spelled only when all are whole numbers: a range is not written
  // "6.4–thirteen".
  auto spell_all = [&](std::vector<std::string>* nums) {
    std::vector<std::string> words;
    for (const std::string& n : *nums) {
      words.push_back(SpellNumber(n, us));
      if (words.back().empty()) return;
    }
    if (capital)
      words[0][0] = static_cast<char>(std::toupper(static_cast<unsigned char>(words[0][0])));
    capital = false;  // the first word shown only
    *nums = std::move(words);
  };

  std::vector<std::string> in_nums;
  for (const auto& v : c.values) in_nums.push_back(v.display);
  bool in_singular = c.values.size() == 1 && in_nums[0] == "1";
  if (spell_in && !flip) spell_all(&in_nums);
  std::string in_text = show(in_nums, true, in, in_symbol, in_singular);
  if (c.in2)
    in_text += " " + c.second.display + " " +
               unit_name(*c.in2, in_symbol, c.second.display == "1" && !adjective);

  std::vector<std::string> out_texts;
  for (const auto& code : c.outs) {
    bool ftin = code == "ftin";
    const Unit* out = FindUnit(ftin ? "ft" : code);
    if (!out || out->dimension != in->dimension) continue;
    std::vector<std::string> nums;
    std::vector<std::pair<double, int>> values;  // converted, and its precision
    int widest = INT32_MIN;
    for (const Number& value : c.values) {
      double si = value.value * in->factor + in->offset;
      int prec = value.precision;
      double ratio = out->factor / in->factor;
      if (c.in2) {
        si += c.second.value * c.in2->factor;
        prec = c.second.precision;
        ratio = out->factor / c.in2->factor;
      }
      if (ftin) {
        nums.push_back(FeetAndInches(si, out_symbol));
        continue;
      }
      double v = (si - out->offset) / out->factor;
      const double kelvin = in->dimension == "temperature" ? std::fabs(si) : -1;
      const double whole_to_ft_lb = !c.in2 && (out->symbol == "ft" || out->symbol == "lb") &&
                                            std::floor(value.value) == value.value
                                        ? in->factor
                                        : 0;
      const int p = OutputPrecision(prec, ratio, v, c.precision, sigfig, kelvin, whole_to_ft_lb);
      values.push_back({v, p});
      widest = std::max(widest, p);
    }
    // Module:Convert shows every value of a range at the largest default precision any of them
    // gets ("105 and 130 cm (3.44 and 4.27 ft)"); an asked precision or sigfig= is each value's.
    const bool by_default = c.precision == INT32_MIN && !(!sigfig.empty() && IsDigits(sigfig));
    for (const auto& [v, p] : values) {
      if (by_default && round_to > 0) {
        // round=N: the nearest multiple of N, as Convert computes it ("some 700 feet (213 m)"
        // with round=5); round=0.5 shows a half.
        const double m = std::floor(std::fabs(v) / round_to + 0.5) * round_to;
        const std::string shown = FormatRounded(m, round_to == 0.5 && m != std::floor(m) ? 1 : 0);
        nums.push_back(v < 0 && shown != "0" ? "\u2212" + shown : shown);
      } else {
        nums.push_back(FormatRounded(v, by_default ? widest : p));
      }
    }
    bool singular = nums.size() == 1 && nums[0] == "1";
    if (spell_out && !ftin) spell_all(&nums);
    out_texts.push_back(show(nums, false, ftin ? nullptr : out, out_symbol, singular));
  }
  // adj=mid: the text after the units goes after the first value's unit, joined by its hyphen or
  // spaced ("{{convert|67|km|mi|adj=mid|-long}}" → "67-kilometre-long (42 mi)"; "|long}}" →
  // "67-kilometre long (42 mi)"), as Module:Convert writes it.
  if (adj == "mid" && c.rest < a.size() && !a[c.rest].empty()) {
    const std::string mid = a[c.rest].starts_with('-') ? a[c.rest] : " " + a[c.rest];
    if (!flip) in_text += mid;
    else if (!out_texts.empty()) out_texts[0] += mid;
  }
  return ArrangeConvert(disp, in_text, out_texts);
}

// ------------------------------------------------------------------ the built-in table

namespace {
#include "text/template_tables.inc"  // kTemplatesTsv, kUnitsTsv, kLanguagesTsv (from data/)
}  // namespace

std::string_view BuiltinTemplatesTsv() { return kTemplatesTsv; }
std::string_view BuiltinLanguagesTsv() { return kLanguagesTsv; }
std::string_view BuiltinUnitsTsv() { return kUnitsTsv; }

const TemplateTable& BuiltinTemplateTable() {
  static const TemplateTable* table = [] {
    auto* t = new TemplateTable();
    if (!TemplateTable::Parse(kTemplatesTsv, kUnitsTsv, t).ok()) *t = TemplateTable();
    return t;
  }();
  return *table;
}

Status ParseLanguageNames(std::string_view tsv, std::unordered_map<std::string, std::string>* out) {
  std::unordered_map<std::string, std::string> names;
  Status s = ForEachRow(tsv, "data/languages.tsv", [&](auto f, std::string* error) {
    std::string code = LowerAscii(Trim(f[0]));
    if (f.size() != 2 || code.empty() || Trim(f[1]).empty()) {
      *error = "expected CODE <TAB> NAME";
      return false;
    }
    if (!names.emplace(code, std::string(Trim(f[1]))).second) {
      *error = "the code '" + code + "' is listed twice";
      return false;
    }
    return true;
  });
  if (s.ok()) *out = std::move(names);
  return s;
}

namespace {

// The built-in table as (code, name) views into the embedded file, sorted by code: parsed once
// with no copies (the file is read whole at the first {{langx}}), looked up by binary search.
// Empty if the file is not sorted or not in lower case (a test checks that it is).
const std::vector<std::pair<std::string_view, std::string_view>>& BuiltinLanguageNames() {
  static const auto* table = [] {
    auto* t = new std::vector<std::pair<std::string_view, std::string_view>>();
    std::string_view tsv = kLanguagesTsv;
    while (!tsv.empty()) {
      size_t nl = tsv.find('\n');
      std::string_view line = tsv.substr(0, nl);
      tsv.remove_prefix(nl == std::string_view::npos ? tsv.size() : nl + 1);
      size_t tab = line.find('\t');
      if (line.empty() || line[0] == '#' || tab == std::string_view::npos) continue;
      std::string_view code = line.substr(0, tab);
      if ((!t->empty() && t->back().first >= code) ||
          std::any_of(code.begin(), code.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
        t->clear();
        break;
      }
      t->emplace_back(code, line.substr(tab + 1));
    }
    return t;
  }();
  return *table;
}

}  // namespace

std::string_view LanguageName(std::string_view code) {
  const auto& table = BuiltinLanguageNames();
  auto find = [&](std::string_view tag) -> std::string_view {
    auto it = std::lower_bound(table.begin(), table.end(), tag,
                               [](const auto& row, std::string_view t) { return row.first < t; });
    return it != table.end() && it->first == tag ? it->second : std::string_view();
  };
  std::string tag = LowerAscii(Trim(code));
  std::string_view name = find(tag);
  if (name.empty()) name = find(std::string_view(tag).substr(0, tag.find('-')));  // "fa-Latn"
  return name;
}

}  // namespace aligndb
