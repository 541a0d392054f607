#include "text/math.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace aligndb {
namespace {

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// A letter, a digit or a byte of a non-ASCII character.
bool IsWordByte(char c) {
  return IsAsciiLetter(c) || IsDigit(c) || static_cast<unsigned char>(c) >= 0x80;
}

// Stands for a space of the TeX source while rendering (a control character that Renderer
// rejects in its input); TidySpaces decides whether it shows.
constexpr char kSourceSpace = '\x01';

// A symbol command and its character; `spaced` symbols (relations, binary operators, arrows)
// are written with a space each side, as TeX sets them.
struct Symbol {
  std::string_view name;
  std::string_view text;
  bool spaced;
};
constexpr Symbol kSymbols[] = {
    {"alpha", "α", false},
    {"beta", "β", false},
    {"gamma", "γ", false},
    {"delta", "δ", false},
    {"epsilon", "ϵ", false},
    {"varepsilon", "ε", false},
    {"zeta", "ζ", false},
    {"eta", "η", false},
    {"theta", "θ", false},
    {"vartheta", "ϑ", false},
    {"iota", "ι", false},
    {"kappa", "κ", false},
    {"lambda", "λ", false},
    {"mu", "μ", false},
    {"nu", "ν", false},
    {"xi", "ξ", false},
    {"omicron", "ο", false},
    {"pi", "π", false},
    {"varpi", "ϖ", false},
    {"rho", "ρ", false},
    {"varrho", "ϱ", false},
    {"sigma", "σ", false},
    {"varsigma", "ς", false},
    {"tau", "τ", false},
    {"upsilon", "υ", false},
    {"phi", "ϕ", false},
    {"varphi", "φ", false},
    {"chi", "χ", false},
    {"psi", "ψ", false},
    {"omega", "ω", false},
    {"Gamma", "Γ", false},
    {"Delta", "Δ", false},
    {"Theta", "Θ", false},
    {"Lambda", "Λ", false},
    {"Xi", "Ξ", false},
    {"Pi", "Π", false},
    {"Sigma", "Σ", false},
    {"Upsilon", "Υ", false},
    {"Phi", "Φ", false},
    {"Psi", "Ψ", false},
    {"Omega", "Ω", false},
    {"times", "×", true},
    {"cdot", "·", true},
    {"div", "÷", true},
    {"pm", "±", true},
    {"mp", "∓", true},
    {"circ", "∘", true},
    {"ast", "∗", true},
    {"star", "⋆", true},
    {"bullet", "•", true},
    {"oplus", "⊕", true},
    {"otimes", "⊗", true},
    {"cup", "∪", true},
    {"cap", "∩", true},
    {"setminus", "∖", true},
    {"wedge", "∧", true},
    {"land", "∧", true},
    {"vee", "∨", true},
    {"lor", "∨", true},
    {"le", "≤", true},
    {"leq", "≤", true},
    {"ge", "≥", true},
    {"geq", "≥", true},
    {"ne", "≠", true},
    {"neq", "≠", true},
    {"ll", "≪", true},
    {"gg", "≫", true},
    {"approx", "≈", true},
    {"sim", "∼", true},
    {"simeq", "≃", true},
    {"cong", "≅", true},
    {"equiv", "≡", true},
    {"propto", "∝", true},
    {"in", "∈", true},
    {"notin", "∉", true},
    {"ni", "∋", true},
    {"subset", "⊂", true},
    {"subseteq", "⊆", true},
    {"supset", "⊃", true},
    {"supseteq", "⊇", true},
    {"mid", "∣", true},
    {"parallel", "∥", true},
    {"perp", "⊥", true},
    {"to", "→", true},
    {"rightarrow", "→", true},
    {"leftarrow", "←", true},
    {"gets", "←", true},
    {"Rightarrow", "⇒", true},
    {"Leftarrow", "⇐", true},
    {"implies", "⟹", true},
    {"iff", "⟺", true},
    {"leftrightarrow", "↔", true},
    {"Leftrightarrow", "⇔", true},
    {"mapsto", "↦", true},
    {"rightleftharpoons", "⇌", true},
    {"thicksim", "∼", true},
    // Set 23's relations and arrows (texvc knows them all).
    {"models", "⊨", true},
    {"vDash", "⊨", true},
    {"vdash", "⊢", true},
    {"subsetneq", "⊊", true},
    {"supsetneq", "⊋", true},
    {"triangleq", "≜", true},
    {"preceq", "⪯", true},
    {"succeq", "⪰", true},
    {"prec", "≺", true},
    {"succ", "≻", true},
    {"leqslant", "⩽", true},
    {"geqslant", "⩾", true},
    {"backsim", "∽", true},
    {"bowtie", "⋈", true},
    {"longrightarrow", "⟶", true},
    {"longleftarrow", "⟵", true},
    {"Longrightarrow", "⟹", true},
    {"Longleftarrow", "⟸", true},
    {"longmapsto", "⟼", true},
    {"hookrightarrow", "↪", true},
    {"and", "∧", true},  // MediaWiki's texvc reads \and and \or as \land and \lor
    {"or", "∨", true},
    {"infty", "∞", false},
    {"exist", "∃", false},  // texvc's spelling of \exists
    {"bot", "⊥", false},
    {"top", "⊤", false},
    {"dagger", "†", false},
    {"ddagger", "‡", false},
    {"Box", "□", false},  // the d'Alembertian (`\square` alone is a proof's end: not rendered)
    {"vdots", "⋮", false},
    {"ddots", "⋱", false},
    {"therefore", "∴", false},
    {"because", "∵", false},
    {"iint", "∬", false},
    {"iiint", "∭", false},
    {"bigtriangledown", "▽", false},
    {"triangledown", "▿", false},
    {"bigtriangleup", "△", false},
    {"lrcorner", "⌟", false},
    {"llcorner", "⌞", false},
    {"ulcorner", "⌜", false},
    {"urcorner", "⌝", false},
    // texvc's blackboard-bold letters: \R is \mathbb{R}.
    {"R", "ℝ", false},
    {"C", "ℂ", false},
    {"Z", "ℤ", false},
    {"N", "ℕ", false},
    {"Q", "ℚ", false},
    {"partial", "∂", false},
    {"nabla", "∇", false},
    {"forall", "∀", false},
    {"exists", "∃", false},
    {"neg", "¬", false},
    {"lnot", "¬", false},
    {"emptyset", "∅", false},
    {"varnothing", "∅", false},
    {"sum", "∑", false},
    {"prod", "∏", false},
    {"int", "∫", false},
    {"bigcap", "⋂", false},
    {"bigcup", "⋃", false},
    {"bigvee", "⋁", false},
    {"bigwedge", "⋀", false},
    {"bigoplus", "⨁", false},
    {"bigotimes", "⨂", false},
    {"coprod", "∐", false},
    {"oint", "∮", false},
    {"ldots", "…", false},
    {"dots", "…", false},
    {"dotsc", "…", false},  // amsmath's dots between commas
    {"dotsb", "⋯", false},  // … between binary operators
    {"dotsm", "⋯", false},
    {"cdots", "⋯", false},
    {"prime", "′", false},
    {"ell", "ℓ", false},
    {"hbar", "ℏ", false},
    {"aleph", "ℵ", false},
    {"degree", "°", false},
    {"langle", "⟨", false},
    {"rangle", "⟩", false},
    {"lfloor", "⌊", false},
    {"rfloor", "⌋", false},
    {"lceil", "⌈", false},
    {"rceil", "⌉", false},
    {"angle", "∠", false},
    {"triangle", "△", false},
    {"Re", "ℜ", false},
    {"Im", "ℑ", false},
    {"lbrack", "[", false},
    {"rbrack", "]", false},
    // Bars and set braces as Wikipedia shows them (|x|, ‖v‖, |ψ⟩, {0, 1}): later passes read
    // "|", "{" and "}" as markup, so they reach the text as entities (AppendInlineMath).
    {"vert", "|", false},
    {"lvert", "|", false},
    {"rvert", "|", false},
    {"Vert", "‖", false},
    {"lVert", "‖", false},
    {"rVert", "‖", false},
    {"lbrace", "{", false},
    {"rbrace", "}", false},
    {"quad", " ", false},
    {"qquad", " ", false},
};

// Operator names set upright as words: `\sin x` → `sin x`.
constexpr std::array<std::string_view, 32> kWords = {
    "sin",    "cos",    "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh",   "arcsin", "arccos",
    "arctan", "log",    "ln",  "lg",  "exp", "lim", "max",  "min",  "sup",    "inf",    "det",
    "dim",    "ker",    "gcd", "deg", "arg", "mod", "bmod", "Pr",   "liminf", "limsup"};

// Commands shown as their argument.
// texvc's `\bold`, `\mathop`, `\mathord` and `\underline` (an underline, which plain text
// does not show, as it does not show bold) too.
constexpr std::array<std::string_view, 22> kArgument = {
    "text",         "textrm",     "textit",  "textbf",  "textsf",   "texttt", "mathrm", "mathit",
    "mathbf",       "mathsf",     "mathtt",  "mbox",    "operatorname",       "boldsymbol",
    "mathcal",      "mathscr",    "mathfrak", "hbox",   "bold",     "mathop", "mathord",
    "underline"};

// Commands that only change size or style, shown as nothing; the font switches of plain TeX
// (`{\rm d}t` → "dt") among them.
constexpr std::array<std::string_view, 21> kIgnored = {
    "displaystyle", "textstyle", "scriptstyle", "limits", "nolimits", "big",  "Big",
    "bigl",         "bigr",      "Bigl",        "Bigr",   "bigg",     "Bigg", "biggl",
    "biggr",        "rm",        "it",          "bf",     "sf",       "tt",   "cal"};

// Accents on one character, as a combining mark after it: `\bar{x}` → x̄.
struct Accent {
  std::string_view name;
  std::string_view mark;
};
constexpr std::array<Accent, 14> kAccents = {{{"bar", "\u0304"},
                                              {"overline", "\u0305"},
                                              {"hat", "\u0302"},
                                              {"widehat", "\u0302"},
                                              {"tilde", "\u0303"},
                                              {"widetilde", "\u0303"},
                                              {"vec", "\u20D7"},
                                              {"overrightarrow", "\u20D7"},
                                              {"dot", "\u0307"},
                                              {"ddot", "\u0308"},
                                              {"acute", "\u0301"},
                                              {"grave", "\u0300"},
                                              {"check", "\u030C"},
                                              {"breve", "\u0306"}}};

// Operators whose limits TeX sets below and above them.
bool IsBigOperator(std::string_view name) {
  static constexpr std::string_view kBig[] = {"sum",      "prod",     "coprod",   "int",
                                              "oint",     "bigcap",   "bigcup",   "bigvee",
                                              "bigwedge", "bigoplus", "bigotimes"};
  return std::find(std::begin(kBig), std::end(kBig), name) != std::end(kBig);
}

template <size_t N>
bool Listed(const std::array<std::string_view, N>& list, std::string_view name) {
  for (auto w : list)
    if (w == name) return true;
  return false;
}

// Number of code points in UTF-8 text.
size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Number of combining marks (U+0300–U+036F, U+20D0–U+20FF) in UTF-8 text.
size_t CombiningMarks(std::string_view s) {
  size_t n = 0;
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    const auto b0 = static_cast<unsigned char>(s[k]), b1 = static_cast<unsigned char>(s[k + 1]);
    n += (b0 == 0xCC || (b0 == 0xCD && b1 < 0xB0)) ||
         (b0 == 0xE2 && b1 == 0x83 && k + 2 < s.size() &&
          static_cast<unsigned char>(s[k + 2]) >= 0x90 &&
          static_cast<unsigned char>(s[k + 2]) <= 0xBF);
  }
  return n;
}

bool NeedsBracketsInside(std::string_view s) {
  if (s.find_first_of(" +-=<>/,") != std::string_view::npos) return true;
  // A source space that will show, beside a character that is not a letter or digit
  // (`\frac{n!}{k_1!\, k_2!}` → "n!/(k₁! k₂!)"); between two letters it will not (TidySpaces).
  for (size_t k = s.find('\x01'); k != std::string_view::npos; k = s.find('\x01', k)) {
    const size_t run = k;
    while (k < s.size() && s[k] == '\x01') ++k;
    if (run > 0 && k < s.size() && (!IsWordByte(s[run - 1]) || !IsWordByte(s[k]))) return true;
  }
  for (std::string_view op : {"±", "×", "·", "∓", "√"})
    if (s.find(op) != std::string_view::npos) return true;
  return false;
}

// `s` needs brackets as the numerator, denominator or root of a fraction written on one line.
bool NeedsBrackets(std::string_view s) {
  if (CodePoints(s) <= 1) return false;
  if (s.front() == '(' && s.back() == ')') {  // already bracketed, if the first ( closes last
    int open = 0;
    for (size_t k = 0; k < s.size(); ++k) {
      open += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
      if (open == 0) return k + 1 < s.size() && NeedsBracketsInside(s);
    }
  }
  return NeedsBracketsInside(s);
}

// Unicode superscript or subscript of a script's text, if every character has one.
bool MapScript(std::string_view s, bool super, std::string* out) {
  static constexpr std::array<std::string_view, 10> kSup = {"⁰", "¹", "²", "³", "⁴",
                                                            "⁵", "⁶", "⁷", "⁸", "⁹"};
  static constexpr std::array<std::string_view, 10> kSub = {"₀", "₁", "₂", "₃", "₄",
                                                            "₅", "₆", "₇", "₈", "₉"};
  std::string r;
  for (char c : s) {
    if (IsDigit(c)) {
      r.append((super ? kSup : kSub)[c - '0']);
    } else if (c == '+') {
      r.append(super ? "⁺" : "₊");
    } else if (c == '-') {
      r.append(super ? "⁻" : "₋");
    } else if (c == '=') {
      r.append(super ? "⁼" : "₌");
    } else if (c == '(') {
      r.append(super ? "⁽" : "₍");
    } else if (c == ')') {
      r.append(super ? "⁾" : "₎");
    } else if (super && c == 'n') {
      r.append("ⁿ");
    } else if (super && c == 'i') {
      r.append("ⁱ");
    } else {
      return false;
    }
  }
  if (r.empty()) return false;
  out->append(r);
  return true;
}

class Renderer {
 public:
  explicit Renderer(std::string_view tex) : s_(tex) {}

  // A sequence of items up to the end, or up to and including `}` when `in_group`. `\over`
  // makes what came before it in the sequence the numerator of a fraction and the rest the
  // denominator (plain TeX: `22 \over 7`, `{a \over b}`); a second one in the same sequence is
  // an error in TeX too.
  bool Sequence(int depth, bool in_group, std::string* out, bool after_over = false) {
    if (depth > kMaxMathDepth) return false;
    const size_t start = out->size();
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == '}') {
        if (!in_group) return false;
        ++p_;
        return true;
      }
      if (c == '\\' && (IsOver() || IsChoose())) {
        if (after_over) return false;
        const bool choose = IsChoose();
        p_ += choose ? 7 : 5;
        std::string den;
        if (!Sequence(depth, in_group, &den, /*after_over=*/true)) return false;
        std::string num = out->substr(start);
        out->resize(start);
        if (Trimmed(num).empty() || Trimmed(den).empty()) return false;
        if (choose) {  // `{n \choose k}` → "C(n, k)"
          AppendBinomial(num, den, out);
          return true;
        }
        AppendBracketed(Trimmed(num), out);
        out->push_back('/');
        AppendBracketed(Trimmed(den), out);
        return true;
      }
      if (c == '^' || c == '_') {
        ++p_;
        const bool limits = big_operator_ != 0;  // the script's own items are not its operand
        big_operator_ = 0;
        if (!Script(c == '^', depth, out)) return false;
        big_operator_ = limits ? 2 : 0;
        continue;
      }
      // A big operator's limits written on the line end before its operand: `\sum_{i=1}^n a_i`
      // → "∑i=1ⁿ ai", `\bigcap\nolimits_{ε>0} \textsf{DTIME}` → "⋂ε>0 DTIME". Spaces and
      // sizing commands between them change nothing.
      if (big_operator_ != 0 && c != ' ' && c != '\n' && c != '\t' && !SizingCommandAt()) {
        if (big_operator_ == 2 && c != '}') out->push_back(' ');
        big_operator_ = 0;
      }
      if (!Item(depth, out)) return false;
    }
    return !in_group;  // end of input inside a group: unbalanced
  }

 private:
  void SkipSpaces() { p_ = SpacesEnd(p_); }

  // The first position from `q` on that is not a space, tab or line break.
  size_t SpacesEnd(size_t q) const {
    while (q < s_.size() && (s_[q] == ' ' || s_[q] == '\n' || s_[q] == '\t')) ++q;
    return q;
  }

  // One item: a character, a group or a command with its arguments.
  bool Item(int depth, std::string* out) {
    char c = s_[p_];
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '{') {
      ++p_;
      return Sequence(depth + 1, true, out);
    }
    if (c == '\\') return Command(depth, out);
    ++p_;
    if (IsAsciiLetter(c) || IsDigit(c) || u >= 0x80) {
      out->push_back(c);
      while (u >= 0x80 && p_ < s_.size() && (static_cast<unsigned char>(s_[p_]) & 0xC0) == 0x80)
        out->push_back(s_[p_++]);  // the rest of a UTF-8 character
      return true;
    }
    if (c == ' ' || c == '\n' || c == '\t') {
      // TeX ignores spaces in formulas; as plain text they stay only beside operators.
      out->push_back(text_mode_ ? ' ' : kSourceSpace);
      return true;
    }
    if (c == '~') {
      out->push_back(' ');
      return true;
    }
    if (c == '\'') {
      out->append("′");
      return true;
    }
    static constexpr std::string_view kKept = "+-=<>()[],./!;:*?\"|";
    if (kKept.find(c) != std::string_view::npos) {
      out->push_back(c);
      return true;
    }
    return false;  // & $ # % @ ` ^ _ and control characters
  }

  // The argument of a command or script: one character, one command or one group.
  bool Argument(int depth, std::string* out) {
    SkipSpaces();
    if (p_ >= s_.size() || s_[p_] == '}' || s_[p_] == '^' || s_[p_] == '_') return false;
    return Item(depth + 1, out);
  }

  bool Script(bool super, int depth, std::string* out) {
    std::string arg;
    // A script that is one command (`x^\frac{3}{2} dB`): what follows it is not its factor.
    size_t q = SpacesEnd(p_);
    bare_script_ = q < s_.size() && s_[q] == '\\';
    const bool ok = Argument(depth, &arg);
    bare_script_ = false;
    if (!ok) return false;
    AppendScript(arg, super, out);
    return true;
  }

  // A script's rendered text after what `out` holds, as Script writes it.
  static void AppendScript(std::string_view a, bool super, std::string* out) {
    while (!a.empty() && a.front() == ' ') a.remove_prefix(1);
    while (!a.empty() && a.back() == ' ') a.remove_suffix(1);
    if (a.empty()) return;
    // A relation's script stays between its spaces: `X \preceq_i Y` → "X ⪯i Y".
    const bool spaced = !out->empty() && out->back() == ' ';
    while (!out->empty() && (out->back() == kSourceSpace || out->back() == ' ')) out->pop_back();
    AppendScriptText(a, super, out);
    if (spaced) out->push_back(' ');
  }

  static void AppendScriptText(std::string_view a, bool super, std::string* out) {
    if (MapScript(a, super, out)) return;
    if (!super || a == "′" || a == "′′" || a == "*" || a == "th" || a == "st" || a == "nd" ||
        a == "rd") {
      out->append(a);  // x_i → xi, f^\prime → f′
    } else if (a == "∘") {
      out->append("°");
    } else {
      out->append("^(").append(a).append(")");
    }
  }

  // A symbol with a label above or below it: `\stackrel{\mathrm{def}}{=}`, `\overset{a}{b}` →
  // the symbol with the label as its superscript ("=^(def)"), `\underset{a}{b}` as its
  // subscript; `\xrightarrow{f}` → "→^(f)", as Script writes a script. A label below an arrow
  // (`\xrightarrow[g]{f}`) is not rendered.
  bool Labelled(std::string_view name, int depth, std::string* out) {
    std::string label, base;
    if (name == "xrightarrow" || name == "xleftarrow") {
      if (p_ < s_.size() && s_[p_] == '[') return false;
      if (!Argument(depth, &label)) return false;
      base = name == "xrightarrow" ? "→" : "←";
      out->push_back(' ');
      out->append(base);
      AppendScript(Trimmed(label), true, out);
      out->push_back(' ');
      return true;
    }
    if (!Argument(depth, &label) || !Argument(depth, &base)) return false;
    const std::string_view b = Trimmed(base);
    if (b.empty()) return false;
    // A relation keeps its spaces: "c =^(def) x".
    const bool spaced = b == "=" || (!base.empty() && base.front() == ' ');
    if (spaced) out->push_back(' ');
    out->append(b);
    AppendScript(Trimmed(label), name != "underset", out);
    if (spaced) out->push_back(' ');
    return true;
  }

  // A binomial coefficient, `\binom{n}{k}` or `{n \choose k}`, as the text notation C(n, k).
  static void AppendBinomial(std::string_view n, std::string_view k, std::string* out) {
    out->append("C(").append(Trimmed(n)).append(", ").append(Trimmed(k)).append(")");
  }

  bool Command(int depth, std::string* out) {
    ++p_;  // the backslash
    if (p_ >= s_.size()) return false;
    char c = s_[p_];
    if (!IsAsciiLetter(c)) {  // a control symbol
      ++p_;
      if (c == ',' || c == '!') return true;  // thin and negative space
      if (c == ';' || c == ':' || c == ' ' || c == '>') {
        out->push_back(' ');
        return true;
      }
      if (c == '%' || c == '#' || c == '_' || c == '{' || c == '}') {
        out->push_back(c);  // \{0, 1\} → "{0, 1}"
        return true;
      }
      if (c == '|') {
        out->append("‖");  // a norm: \|v\|
        return true;
      }
      return false;  // \\ \& \$ and the rest
    }
    size_t start = p_;
    while (p_ < s_.size() && IsAsciiLetter(s_[p_])) ++p_;
    std::string_view name = s_.substr(start, p_ - start);
    const size_t word_end = p_;
    // Only a fraction that is itself a script's argument leaves what follows the script alone;
    // one inside another command there (`e^\sqrt{\frac{1}{2} x}`) is as anywhere (review17).
    const bool bare_script = bare_script_;
    bare_script_ = false;
    SkipSpaces();  // TeX ends a control word at the spaces after it
    for (const Symbol& sym : kSymbols) {
      if (sym.name != name) continue;
      if (IsBigOperator(name)) big_operator_ = 1;
      if (sym.spaced) out->push_back(' ');
      out->append(sym.text);
      // Spaces between a symbol and an operator written as a character show, as around other
      // operators (`\omega + 1` → "ω + 1", not "ω+ 1"; `\pi = C` → "π = C").
      if (sym.spaced)
        out->push_back(' ');
      else if (p_ > word_end && p_ < s_.size() &&
               std::string_view("+-=<>").find(s_[p_]) != std::string_view::npos)
        out->push_back(kSourceSpace);
      return true;
    }
    if (Listed(kWords, name)) {
      SpaceBeforeWord(out);
      out->append(name == "bmod"     ? "mod"
                  : name == "liminf" ? "lim inf"
                  : name == "limsup" ? "lim sup"
                                     : name);
      // The limit below `\lim`, `\max`, `\sup` …, written on the line, is set apart from the
      // word and from the operand by a space each side: `\liminf_{n\to\infty} d(n)` →
      // "lim inf n → ∞ d(n)", not "lim infn → ∞d(n)".
      if (name == "lim" || name == "liminf" || name == "limsup" || name == "max" ||
          name == "min" || name == "sup" || name == "inf") {
        size_t q = p_;
        while (true) {
          q = SpacesEnd(q);
          if (s_.substr(q, 7) == "\\limits")
            q += 7;
          else if (s_.substr(q, 9) == "\\nolimits")
            q += 9;
          else
            break;
        }
        if (q < s_.size() && s_[q] == '_') {
          p_ = q + 1;
          std::string limit;
          if (!Argument(depth, &limit) || Trimmed(limit).empty()) return false;
          out->push_back(' ');
          out->append(Trimmed(limit));
          big_operator_ = 2;  // the operand after a space (Sequence)
          return true;
        }
      }
      if (p_ < s_.size() && (IsAsciiLetter(s_[p_]) || IsDigit(s_[p_]) || s_[p_] == '\\'))
        out->push_back(' ');
      return true;
    }
    if (Listed(kIgnored, name)) return true;
    if (Listed(kArgument, name)) {
      const bool was = text_mode_;
      text_mode_ = name.substr(0, 4) == "text" || name == "mbox" || name == "hbox";
      std::string arg;
      const bool ok = Argument(depth, &arg);
      text_mode_ = was;
      if (!ok) return false;
      // An operator name of two letters or more is a word, as `\log` is: apart from a word
      // before it and a letter after it (`\operatorname{colim} \operatorname{GL}` → "colim
      // GL", not "colimGL"); one letter (`\operatorname{d}V`, `\operatorname{E}[X]`) is not.
      if (name == "operatorname" && CodePoints(Trimmed(arg)) >= 2) {
        SpaceBeforeWord(out);
        out->append(arg);
        size_t q = p_;  // past spaces and thin spaces (`\operatorname{sech}\,x` → "sech x")
        while (q < s_.size() && (s_[q] == ' ' || s_[q] == '\n' || s_[q] == '\t' ||
                                 (s_[q] == '\\' && q + 1 < s_.size() && s_[q + 1] == ',')))
          q += s_[q] == '\\' ? 2 : 1;
        if (q < s_.size() && (IsAsciiLetter(s_[q]) || IsDigit(s_[q])))
          out->push_back(' ');
        return true;
      }
      out->append(arg);
      return true;
    }
    if (name == "mathbb" || name == "Bbb") return DoubleStruck(depth, out);
    if (name == "not") return Negated(depth, out);
    if (name == "frac" || name == "dfrac" || name == "tfrac" || name == "cfrac") {
      bare_script_ = bare_script;
      return Fraction(depth, out);
    }
    if (name == "binom" || name == "tbinom" || name == "dbinom") {
      std::string n, k;
      if (!Argument(depth, &n) || !Argument(depth, &k) || Trimmed(n).empty() ||
          Trimmed(k).empty())
        return false;
      AppendBinomial(n, k, out);
      return true;
    }
    if (name == "stackrel" || name == "overset" || name == "underset" || name == "xrightarrow" ||
        name == "xleftarrow")
      return Labelled(name, depth, out);
    if (name == "begin") return Environment(depth, out);
    if (name == "colon") {  // punctuation: no space before it, one after (`f\colon A \to B`)
      out->append(": ");
      return true;
    }
    if (name == "sqrt") {
      std::string arg, root;
      if (p_ < s_.size() && s_[p_] == '[') {
        // `\sqrt[n]{x}` → "ⁿ√x", `\sqrt[3]{x}` → "³√x": the index as a Unicode superscript
        // before the root sign; an index without one (`\sqrt[x]{x}`) is not rendered.
        const size_t close = s_.find(']', p_);
        if (close == std::string_view::npos || close - p_ > 16) return false;
        Renderer index(s_.substr(p_ + 1, close - p_ - 1));
        std::string text;
        if (!index.Sequence(depth + 1, false, &text) || !MapScript(Trimmed(text), true, &root))
          return false;
        p_ = close + 1;
      }
      if (!Argument(depth, &arg)) return false;
      root.append("√");
      AppendBracketed(arg, &root);
      // `\sqrt{x}^2` → "(√x)²", not "√x²".
      const size_t q = s_.find_first_not_of(" \n\t", p_);
      if (q != std::string_view::npos && (s_[q] == '^' || s_[q] == '_'))
        out->append("(").append(root).append(")");
      else
        out->append(root);
      return true;
    }
    if (name == "left" || name == "right") {
      SkipSpaces();
      if (p_ < s_.size() && s_[p_] == '.') {
        ++p_;  // an invisible delimiter
        return true;
      }
      return p_ < s_.size() && Item(depth, out);
    }
    for (const Accent& acc : kAccents) {
      if (acc.name != name) continue;
      std::string arg;
      // One character, with its own accents (`\bar{\bar\alpha}` → ᾱ̄).
      if (!Argument(depth, &arg)) return false;
      const std::string_view a = Trimmed(arg);
      if (CodePoints(a) - CombiningMarks(a) != 1) return false;
      out->append(a).append(acc.mark);
      return true;
    }
    return false;  // a command this renderer does not know
  }

  // `\begin{NAME} … \end{NAME}`: the rows (`\\`) and cells (`&`) of a matrix, `cases` or
  // aligned equations, written on one line as a reader reads them (docs/text.md, "Inline math"):
  // a matrix's cells with ", " between them and its rows with "; " between them, inside its
  // own brackets (`pmatrix` → "(1, 1; 0, 1)", `bmatrix` → "[x; z₁]", `vmatrix` → "|a, b; c, d|";
  // `matrix` and `array` take the brackets of `\left[ … \right]` around them); the rows of
  // `cases` with "; " between them ("0, if x = 0; sin(1/x), if x ≠ 0"); aligned rows with "; "
  // between them, or a space when the next row goes on with a relation or an operator (`a &= b
  // \\ &= c` → "a = b = c"); `\left\{` before an `array` and `\right.` after it read as
  // `cases`. A matrix of one cell is a size switch (`\begin{matrix} \frac{1}{2}
  // \end{matrix}`): its content. An environment inside another, or one not listed, is not
  // rendered.
  bool Environment(int depth, std::string* out) {
    if (p_ >= s_.size() || s_[p_] != '{') return false;
    const size_t close = s_.find('}', p_);
    if (close == std::string_view::npos) return false;
    const std::string_view env = s_.substr(p_ + 1, close - p_ - 1);
    enum Kind { kMatrix, kCases, kAligned };
    std::string_view open_bracket, close_bracket;
    Kind kind;
    if (env == "matrix" || env == "smallmatrix" || env == "array") {
      kind = kMatrix;
    } else if (env == "pmatrix" || env == "bmatrix" || env == "vmatrix" || env == "Vmatrix") {
      kind = kMatrix;
      open_bracket = env[0] == 'p' ? "(" : env[0] == 'b' ? "[" : env[0] == 'v' ? "|" : "‖";
      close_bracket = env[0] == 'p' ? ")" : env[0] == 'b' ? "]" : open_bracket;
    } else if (env == "cases") {
      kind = kCases;
    } else if (env == "aligned" || env == "align" || env == "align*" || env == "gathered" ||
               env == "split" || env == "alignat") {
      kind = kAligned;
    } else {
      return false;
    }
    size_t body = close + 1;
    if (env == "array" || env == "alignat") {  // the column layout or count: `{ccc}`, `{2}`
      while (body < s_.size() && s_[body] == ' ') ++body;
      if (body >= s_.size() || s_[body] != '{') return false;
      const size_t spec_end = s_.find('}', body);
      if (spec_end == std::string_view::npos ||
          s_.substr(body + 1, spec_end - body - 1).find('{') != std::string_view::npos)
        return false;
      body = spec_end + 1;
    }
    const std::string end_tag = "\\end{" + std::string(env) + "}";
    const size_t end = s_.find(end_tag, body);
    if (end == std::string_view::npos) return false;
    const std::string_view inner = s_.substr(body, end - body);
    if (inner.find("\\begin") != std::string_view::npos) return false;
    // Cells, split at `&` and rows at `\\` outside groups (an optional `[2pt]` after `\\`
    // skipped), each rendered as a formula of its own.
    std::vector<std::vector<std::string>> rows(1);
    int open = 0;
    size_t cell = 0;
    auto add_cell = [&](size_t to) {
      Renderer r(inner.substr(cell, to - cell));
      r.text_mode_ = text_mode_;
      std::string text;
      if (!r.Sequence(depth + 1, false, &text)) return false;
      rows.back().emplace_back(Trimmed(text));
      return true;
    };
    for (size_t k = 0; k < inner.size(); ++k) {
      const char c = inner[k];
      if (c == '{') {
        ++open;
      } else if (c == '}') {
        if (--open < 0) return false;
      } else if (c == '\\' && k + 1 < inner.size() && inner[k + 1] != '\\') {
        ++k;  // a command's first letter or a control symbol (`\&`, `\{`) is no separator
      } else if (open == 0 && c == '&') {
        if (!add_cell(k)) return false;
        cell = k + 1;
      } else if (c == '\\' && k + 1 == inner.size()) {
        return false;  // a lone backslash at the end
      } else if (open == 0 && c == '\\') {  // `\\`
        if (!add_cell(k)) return false;
        k += 2;
        while (k < inner.size() && inner[k] == ' ') ++k;
        if (k < inner.size() && inner[k] == '[') {
          const size_t dim = inner.find(']', k);
          if (dim == std::string_view::npos || dim - k > 12) return false;
          k = dim + 1;
        }
        cell = k;
        --k;
        rows.emplace_back();
      }
    }
    if (open != 0 || !add_cell(inner.size())) return false;
    // A row of empty cells (after a last `\\`) is no row.
    while (!rows.empty() && std::all_of(rows.back().begin(), rows.back().end(),
                                        [](const std::string& t) { return t.empty(); }))
      rows.pop_back();
    if (rows.empty()) return false;
    p_ = end + end_tag.size();
    // `\left\{ \begin{array} … \end{array} \right.` is written as `cases` is (Mayer–Vietoris
    // sequence): without a brace that would stay open in the text.
    if (kind == kMatrix && open_bracket.empty()) {
      size_t b = out->size();
      while (b > 0 && ((*out)[b - 1] == kSourceSpace || (*out)[b - 1] == ' ')) --b;
      size_t q = SpacesEnd(p_);
      if (b > 0 && (*out)[b - 1] == '{' && s_.substr(q, 7) == "\\right.") {
        out->resize(b - 1);
        p_ = q + 7;
        kind = kCases;
      }
    }
    // An `array` or `matrix` with a cell of only a relation sign aligns equations (`r_1 &=&
    // r_1(q_1, …) \\\\ …`, "Lagrangian mechanics"): its cells meet as aligned rows' do.
    if (kind == kMatrix && open_bracket.empty()) {
      for (const auto& row : rows)
        for (const std::string& c : row)
          if (CodePoints(c) == 1 && StartsWithRelation(c) && c != "+" && c != "×" && c != "·")
            kind = kAligned;
    }
    if (kind == kMatrix && rows.size() == 1 && rows[0].size() == 1 && open_bracket.empty()) {
      // As a fraction: bracketed when something multiplies it ("(1/2)QV").
      const std::string& r = rows[0][0];
      if (FollowedByFactor(/*commands=*/true) && NeedsBrackets(r))
        out->append("(").append(r).append(")");
      else
        out->append(r);
      return true;
    }
    std::string text(open_bracket);
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string row;
      for (const std::string& c : rows[i]) {
        if (c.empty()) continue;
        if (!row.empty()) {
          // A case's condition after a comma, unless written as words ("1 if |t| < 1/2") or
          // after the source's own comma ("0, if x = 0"); aligned cells meet as TeX sets them.
          if (kind == kAligned)
            row.push_back(kSourceSpace);
          else if (kind == kMatrix || (row.back() != ',' && !StartsWithWord(c)))
            row.append(", ");
          else
            row.push_back(' ');
        }
        row.append(c);
      }
      if (i > 0) {
        // A row's own closing comma or semicolon gives way to the separator.
        while (!text.empty() && (text.back() == ',' || text.back() == ';')) text.pop_back();
        const bool goes_on = kind == kAligned && StartsWithRelation(row);
        text.append(goes_on ? " " : "; ");
      }
      text.append(row);
    }
    text.append(close_bracket);
    out->append(text);
    return true;
  }

  // Whether rendered text starts with a word of two lower-case letters or more (`if`,
  // `otherwise`, `for`).
  static bool StartsWithWord(std::string_view text) {
    size_t n = 0;
    while (n < text.size() && text[n] >= 'a' && text[n] <= 'z') ++n;
    return n >= 2 && (n == text.size() || text[n] == ' ');
  }

  // Whether rendered text starts with a relation sign or a binary operator: the next aligned
  // row goes on with it (`f := √(…) \\ & + Iσ₁₁ … ≤ 0`, "Drucker–Prager yield criterion").
  static bool StartsWithRelation(std::string_view row) {
    for (std::string_view rel : {"=", "<", ">", "≤", "≥", "≠", "≈", "≡", "∼", "≃", "≅", "∝",
                                 "→", "⇒", "⟹", "⇔", "⟺", "⊂", "⊆", "⊃", "⊇", "∈", "≪", "≫",
                                 "+", "- ", "×", "·"})
      if (row.starts_with(rel)) return true;
    return false;
  }

  // A space before an operator word when it follows a letter, digit or symbol, also across the
  // source's own spaces (`n \log n` → "n log n", not "nlog n").
  static void SpaceBeforeWord(std::string* out) {
    size_t b = out->size();
    while (b > 0 && (*out)[b - 1] == kSourceSpace) --b;
    if (b > 0) {
      const unsigned char last = static_cast<unsigned char>((*out)[b - 1]);
      if (IsAsciiLetter(static_cast<char>(last)) || IsDigit(static_cast<char>(last)) ||
          last >= 0x80)
        out->push_back(' ');
    }
  }

  // `\not =` → "≠", `\not\in` → "∉", `\not` before another symbol: the symbol struck through
  // with U+0338, as TeX overlays a slash.
  bool Negated(int depth, std::string* out) {
    std::string arg;
    SkipSpaces();
    if (p_ >= s_.size() || !Item(depth + 1, &arg)) return false;
    std::string_view a = Trimmed(arg);
    if (a.empty() || CodePoints(a) != 1) return false;
    const bool spaced = arg.front() == ' ' || a == "=";
    if (spaced) out->push_back(' ');
    if (a == "=")
      out->append("≠");
    else if (a == "∈")
      out->append("∉");
    else
      out->append(a).append("\u0338");
    if (spaced) out->push_back(' ');
    return true;
  }

  bool DoubleStruck(int depth, std::string* out) {
    std::string arg;
    if (!Argument(depth, &arg)) return false;
    static constexpr std::array<std::pair<char, std::string_view>, 7> kSets = {
        {{'N', "ℕ"}, {'Z', "ℤ"}, {'Q', "ℚ"}, {'R', "ℝ"}, {'C', "ℂ"}, {'P', "ℙ"}, {'H', "ℍ"}}};
    for (auto [letter, text] : kSets) {
      if (arg.size() == 1 && arg[0] == letter) {
        out->append(text);
        return true;
      }
    }
    out->append(arg);
    return true;
  }

  bool Fraction(int depth, std::string* out) {
    const bool script = bare_script_;
    bare_script_ = false;
    std::string num, den, frac;
    if (!Argument(depth, &num) || !Argument(depth, &den)) return false;
    AppendBracketed(num, &frac);
    frac.push_back('/');
    AppendBracketed(den, &frac);
    // Written on one line, a fraction that something multiplies or raises must be bracketed:
    // `\frac{1}{2}mv^2` → "(1/2)mv²", not "1/2mv²".
    if (!script && FollowedByFactor(/*commands=*/true))
      out->append("(").append(frac).append(")");
    else
      out->append(frac);
    return true;
  }

  // Whether what comes next in the source (spaces skipped) multiplies, raises or indexes what
  // was just written: a letter, digit, group, bracket, script or (with `commands`) a command.
  bool FollowedByFactor(bool commands) const {
    size_t q = p_;
    // Spaces and thin spaces (`\frac{1}{2} \, x`) between them change nothing.
    while (q < s_.size()) {
      if (s_[q] == ' ' || s_[q] == '\n' || s_[q] == '\t')
        ++q;
      else if (s_[q] == '\\' && q + 1 < s_.size() && (s_[q + 1] == ',' || s_[q + 1] == '!'))
        q += 2;
      else
        break;
    }
    if (q == s_.size()) return false;
    const char c = s_[q];
    if (c == '\\' && commands) {  // a command, unless an operator written with spaces (\cdot)
      size_t e = q + 1;
      while (e < s_.size() && IsAsciiLetter(s_[e])) ++e;
      const std::string_view name = s_.substr(q + 1, e - q - 1);
      // A closing bracket, spacing or sizing multiplies nothing.
      if (name.empty() || name == "right" || name == "quad" || name == "qquad" ||
          Listed(kIgnored, name))
        return false;
      for (const Symbol& sym : kSymbols)
        if (sym.name == name) return !sym.spaced;
      return true;
    }
    return IsAsciiLetter(c) || IsDigit(c) || c == '{' || c == '(' || c == '^' || c == '_';
  }

  // Whether a command that only changes size or style (kIgnored) starts at the position.
  bool SizingCommandAt() const {
    if (s_[p_] != '\\') return false;
    size_t e = p_ + 1;
    while (e < s_.size() && IsAsciiLetter(s_[e])) ++e;
    return Listed(kIgnored, s_.substr(p_ + 1, e - p_ - 1));
  }

  // `\choose` as a control word of its own.
  bool IsChoose() const {
    return s_.substr(p_, 7) == "\\choose" && (p_ + 7 == s_.size() || !IsAsciiLetter(s_[p_ + 7]));
  }

  // `\over` as a control word of its own (not `\overline`).
  bool IsOver() const {
    return s_.substr(p_, 5) == "\\over" && (p_ + 5 == s_.size() || !IsAsciiLetter(s_[p_ + 5]));
  }

  static std::string_view Trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == kSourceSpace)) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == kSourceSpace)) s.remove_suffix(1);
    return s;
  }

  static void AppendBracketed(std::string_view s, std::string* out) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (NeedsBrackets(s)) {
      out->append("(").append(s).append(")");
    } else {
      out->append(s);
    }
  }

  std::string_view s_;
  size_t p_ = 0;
  bool text_mode_ = false;  // inside \text{…}: spaces are text
  bool bare_script_ = false;  // the argument of a script is one command, not a group
  int big_operator_ = 0;    // 1: a big operator (∑, ⋂, …) was just written; 2: and its limits
};

// Whether s[k] starts a bar: "|" or "‖" (E2 80 96).
bool IsBarAt(std::string_view s, size_t k) {
  return s[k] == '|' || s.substr(k, 3) == "‖";
}

// Whether a source space between `before` (the text so far) and s[next] shows next to a bar:
// TeX sets "|" as an ordinary symbol, with no space beside a letter, digit, bracket or another
// bar (`| f(x) |` → "|f(x)|", `|\psi \rangle` → "|ψ⟩"), only beside an operator (`|x| = 1`).
bool SpaceBesideBarShows(std::string_view before, std::string_view s, size_t next) {
  constexpr std::string_view kOperators = "+-=<>,;:/";
  const bool bar_before = before.ends_with('|') || before.ends_with("‖");
  const bool bar_after = IsBarAt(s, next);
  if (!bar_before && !bar_after) return true;
  const char other = bar_before ? s[next] : before.back();
  return kOperators.find(other) != std::string_view::npos;
}

// Runs of spaces to one, none at either end or inside brackets; a source space shows only when
// it is not between two letters or digits (`s i n` → `sin`, `x = 2` stays) nor beside a bar
// (SpaceBesideBarShows).
std::string TidySpaces(std::string_view s) {
  std::string r;
  r.reserve(s.size());
  size_t next = 0;  // the first byte after the current run of spaces: each run is scanned once
  for (size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    if (c == kSourceSpace) {
      if (next <= k) next = s.find_first_not_of(" \x01", k);
      if (r.empty() || next == std::string_view::npos) continue;
      if (IsWordByte(r.back()) && IsWordByte(s[next])) continue;
      if (!SpaceBesideBarShows(r, s, next)) continue;
      c = ' ';
    }
    if (c == ' ' &&
        (r.empty() || r.back() == ' ' || r.back() == '(' || r.back() == '[' || r.back() == '{'))
      continue;
    if ((c == ')' || c == ']' || c == '}' || c == ',') && !r.empty() && r.back() == ' ')
      r.pop_back();
    r.push_back(c);
  }
  while (!r.empty() && r.back() == ' ') r.pop_back();
  return r;
}

}  // namespace

bool RenderMath(std::string_view tex, std::string* out) {
  out->clear();
  if (tex.size() > kMaxMathTex) return false;
  std::string raw;
  Renderer renderer(tex);
  if (!renderer.Sequence(0, false, &raw)) return false;
  *out = TidySpaces(raw);
  // Nested brackets that would read as a wiki link's (`[[x,y],z]`) or a template's (`\{\{0\}\}`)
  // are not shown: the formula is dropped rather than leave "[[", "]]", "{{" or "}}" in prose.
  if (out->empty() || out->find("[[") != std::string::npos || out->find("]]") != std::string::npos ||
      out->find("{{") != std::string::npos || out->find("}}") != std::string::npos)
    return false;
  // A space the formula shows at an end (`~n~photon` → "n photon") stays, as one space.
  const size_t first = raw.find_first_not_of(kSourceSpace);
  const size_t last = raw.find_last_not_of(kSourceSpace);
  if (raw[first] == ' ') out->insert(out->begin(), ' ');
  if (raw[last] == ' ') out->push_back(' ');
  return out->size() <= 8 * tex.size();
}

}  // namespace aligndb
