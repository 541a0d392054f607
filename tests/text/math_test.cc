// Tests of the inline-math renderer (text/math.h) and of how the wikitext cleaner uses it, on
// formulas from the bundled dumps.
#include "text/math.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "test_util.h"
#include "text/wikitext.h"

namespace aligndb {
namespace {

std::string Render(std::string_view tex) {
  std::string out;
  return RenderMath(tex, &out) ? out : "<dropped>";
}

std::string CleanOne(const std::string& wikitext) {
  std::string out;
  for (const auto& p : CleanWikitext(wikitext).paragraphs) out += (out.empty() ? "" : "\n") + p;
  return out;
}

// TeX → text. The first rows are formulas of "Arithmetic mean", "Analysis of variance", "Albedo"
// and "Ambiguity" (enwiki-gensim-sample).
struct MathCase {
  const char* tex;
  const char* text;
};
const MathCase kCases[] = {
    {"\\bar{x}", "x̄"},
    {"x_1,x_2,\\ldots,x_n", "x₁,x₂,…,xn"},
    {"\\frac{(3+5)}{2} = 4", "(3+5)/2 = 4"},
    {"s^2=\\textstyle\\frac{1}{n-1}\\sum(y_i-\\bar{y})^2", "s²=(1/(n-1))∑(yi-y\u0304)²"},
    {"Z_{k,1}=i", "Zk,1=i"},
    {"k^{th}", "kth"},
    {"~n~", " n "},
    {"\\left( \\frac{1}{2} \\cdot 3\\right) + \\left( \\frac{1}{2} \\cdot 5\\right) = 4",
     "(1/2 · 3) + (1/2 · 5) = 4"},
    {"s i n \\alpha", "sinα"},  // TeX ignores the spaces between letters
    {"\\sin^{-1}\\alpha", "sin⁻¹α"},
    {"(P \\to Q)\\leftrightarrow (\\neg Q \\to \\neg P)", "(P → Q) ↔ (¬Q → ¬P)"},
    {"p", "p"},
    {"a \\times b \\le c", "a × b ≤ c"},
    {"x \\in \\mathbb{R}", "x ∈ ℝ"},
    {"\\sqrt{x+1}", "√(x+1)"},
    {"e^{i\\pi} + 1 = 0", "e^(iπ) + 1 = 0"},
    {"\\text{if } x \\ne 0", "if x ≠ 0"},
    {"\\operatorname{Var}(X)", "Var(X)"},
    {"10\\,000", "10000"},
    {"\\sin x", "sin x"},
    {"f'(x)", "f′(x)"},
    {"90^\\circ", "90°"},
    {"O(n \\log n)", "O(n log n)"},
    {"E_k = \\frac{1}{2}mv^2", "Ek = (1/2)mv²"},  // a fraction something multiplies
    {"\\frac{a}{b}^2", "(a/b)²"},
    {"\\sqrt{x}^2", "(√x)²"},
    {"\\frac{a}{b} + 1", "a/b + 1"},
    {"A =\\left ( \\frac{1329}{D} \\right ) ^2",
     "A =(1329/D)²"},  // \\right is no factor  // an operator word keeps its space after a source
                       // space
    {"2 \\sin \\theta", "2 sin θ"},
    // Plain TeX's \over ("Pi", simplewiki): all before it in its group over all after it.
    {"22 \\over 7", "22/7"},
    {"a \\over b", "a/b"},
    {"x = {C \\over d}", "x = C/d"},
    {"{a+b \\over 2} + 1", "(a+b)/2 + 1"},
    {"\\overline{x}", "x\u0305"},
    // Constructs that kept formulas of the dumps from rendering: text-mode fonts, big operators
    // with \nolimits ("BPP (complexity)"), plain TeX's font switches ("Ambiguity"), \Bbb
    // ("Principal ideal domain"), amsmath's dots ("Arithmetic mean"), \not, texvc's \and and
    // \or ("Peano axioms"), harpoons ("Alanine—oxo acid transaminase"), a double accent.
    {"\\textsf{i.o.-SUBEXP} = \\bigcap\\nolimits_{\\varepsilon>0} \\textsf{i.o.-DTIME} \\left "
     "(2^{n^\\varepsilon} \\right).",
     "i.o.-SUBEXP = \u22c2\u03b5>0 i.o.-DTIME (2^(n^(\u03b5)))."},
    {"A=\\frac{1}{n}\\sum_{i=1}^n a_i.", "A=(1/n)\u2211i=1\u207f ai."},  // limits, then the operand
    {"\\sum(y_i)", "\u2211(yi)"},
    {"\\int f(t) {\\rm d}t", "\u222bf(t) dt"},
    {"(2,X) \\subseteq \\Bbb{Z}[X]", "(2,X) \u2286 \u2124[X]"},
    {"x_1,\\dotsc,x_n", "x\u2081,\u2026,xn"},
    {"0 \\not = S(x_1)", "0 \u2260 S(x\u2081)"},
    {"a \\not\\in B", "a \u2209 B"},
    {"x < y \\or x = y \\and y < z", "x < y \u2228 x = y \u2227 y < z"},
    {"\\varepsilon \\thicksim N(0, \\sigma^2).\\,", "\u03b5 \u223c N(0, \u03c3\u00b2)."},
    {"A \\rightleftharpoons B", "A \u21cc B"},
    {"D \\bar{ \\bar \\alpha}", "D\u03b1\u0304\u0304"},
    // Spaces between a symbol and an operator show ("Mathematics", "Pi"); before a bracket not.
    {"\\omega, \\omega + 1, \\ldots", "\u03c9, \u03c9 + 1, \u2026"},
    {"\\pi = \\frac {C}{d}", "\u03c0 = C/d"},
    {"\\neg (x < x)", "\u00ac(x < x)"},
    // Bars and set braces as Wikipedia shows them (gensim sample: "Analysis of variance",
    // "Ambiguity", "Bootstrap aggregating"); a source space beside a bar shows only beside an
    // operator.
    {"~|\\alpha\\rangle~", " |\u03b1\u27e9 "},
    {" |1\\rangle ", "|1\u27e9"},
    {"\\int |f(x)|^2 {\\rm d}x ", "\u222b|f(x)|\u00b2dx"},
    {"b \\in \\{1,2,...,B\\}", "b \u2208 {1,2,...,B}"},
    {"\\{ x \\mid x > 0 \\}", "{x \u2223 x > 0}"},
    {"| f(x) | = 1", "|f(x)| = 1"},
    {"|0\\rangle + |1\\rangle", "|0\u27e9 + |1\u27e9"},
    {"\\|v\\| \\le \\lVert w \\rVert", "\u2016v\u2016 \u2264 \u2016w\u2016"},
    {"\\left| x \\right|", "|x|"},
    {"\\lbrace a, b \\rbrace", "{a, b}"},
    // Set 23: commands its formulas use, as plain text reads them. Binomial coefficients as
    // C(n, k) ("Binomial theorem"); a label over a symbol or an arrow as its superscript ("Hilbert
    // series and Hilbert polynomial", "Mason\u2013Weaver equation"); more accents ("Geometric
    // algebra", "Two-step M-estimators"); an underline as its argument ("Near sets"); texvc's
    // \R, \exist, \bold; a matrix of one cell ("Legendre transformation").
    {"(x+y)^{n+1} = \\sum_{k=0}^{n+1} \\tbinom{n+1}{k} x^{n+1-k} y^k,",
     "(x+y)\u207f\u207a\u00b9 = \u2211k=0\u207f\u207a\u00b9 C(n+1, k) x^(n+1-k) y^(k),"},
    {"\\binom nr \\times \\binom nr", "C(n, r) \u00d7 C(n, r)"},
    {"{n \\choose k} = \\frac{n!}{k!\\,(n-k)!}", "C(n, k) = n!/(k!(n-k)!)"},
    {"0 \\to A^{[d]} \\xrightarrow{f} A \\to A/f \\to 0\\,,",
     "0 \u2192 A^([d]) \u2192^(f) A \u2192 A/f \u2192 0,"},
    {"c(\\zeta,\\tau) \\ \\stackrel{\\mathrm{def}}{=}\\ c_0", "c(\u03b6,\u03c4) =^(def) c\u2080"},
    {"\\check{e}_i", "e\u030ci"},
    {"\\widehat{\\gamma }", "\u03b3\u0302"},
    {"\\acute{u}^{\\alpha}", "u\u0301^(\u03b1)"},
    {"X \\underline{\\bowtie}_{\\mathbb{F}} Y", "X \u22c8F Y"},
    {"X_j \\preceq_i X_i", "Xj \u2aafi Xi"},
    {"\\varphi\\colon\\operatorname{St}(A)\\to\\mathrm{GL}(A),", "\u03c6: St(A) \u2192 GL(A),"},
    {"\\Sigma \\models \\phi", "\u03a3 \u22a8 \u03d5"},
    {"A \\subsetneq B", "A \u228a B"},
    {"\\exist x \\in \\R", "\u2203x \u2208 \u211d"},
    {"m \\ddot{\\bold{r}}", "mr\u0308"},
    {"\\liminf a_n", "lim inf an"},
    {"f(x) = \\begin{matrix} \\frac{1}{2} \\end{matrix} \\, x^T A x", "f(x) = (1/2) x^(T) Ax"},
    // A fraction that is a script's argument is not multiplied by what follows the script.
    {"\\xi \\nu_t^\\frac{3}{2}\\,dB_t", "\u03be\u03bdt^(3/2)dBt"},
    // review17: only a fraction that is itself the script's argument; one inside another command
    // there is bracketed before its factor as anywhere.
    {"e^\\sqrt{\\frac{1}{2} x}", "e^(\u221a((1/2) x))"},
    // A source space that shows inside a denominator brackets it.
    {"\\frac{n!}{k_1!\\, k_2! \\cdots k_m!}", "n!/(k\u2081! k\u2082! \u22efkm!)"},
    {"\\frac{d  \\mathbf{r}}{d\\theta}", "dr/d\u03b8"},
    // Sets 23\u201324: environments written on one line as a reader reads them: the rows of
    // `cases` ("Bounded variation", "LTI system theory", "Allan variance"), a matrix's rows in
    // its brackets ("Cusp neighborhood", "Backstepping", "Color balance"), aligned rows going on
    // with a relation; a root's index ("E (mathematical constant)"); operator names apart
    // ("Algebraic K-theory", "Hyperbolic function"); a limit apart from its word and operand
    // ("Divisor function").
    {"f(x) = \\begin{cases} 0, & \\mbox{if }x =0 \\\\ x \\sin(1/x), & \\mbox{if } x \\neq 0 "
     "\\end{cases} ",
     "f(x) = 0, if x =0; x sin(1/x), if x \u2260 0"},
    {"\\Pi(t)\\ \\stackrel{\\text{def}}{=}\\ \\begin{cases} 1 &\\text{if } |t| < \\frac{1}{2},\\\\ 0 "
     "&\\text{if } |t| > \\frac{1}{2}.\\end{cases}",
     "\u03a0(t) =^(def) 1 if |t| < 1/2; 0 if |t| > 1/2."},
    {"\\begin{cases} \\frac{2(N-2)}{2.3N-4.9} & n = 1 \\\\ 3 & n \\ge 2\\end{cases}",
     "(2(N-2))/(2.3N-4.9), n = 1; 3, n \u2265 2"},
    {"t(z)=\\begin{pmatrix} 1 & 1 \\\\ 0 & 1 \\end{pmatrix}:z", "t(z)=(1, 1; 0, 1):z"},
    {"\\mathbf{y} \\triangleq \\begin{bmatrix} \\mathbf{x} \\\\ z_1 \\end{bmatrix}\\,",
     "y \u225c [x; z\u2081]"},
    {"\\left[\\begin{array}{c} X \\\\ Y \\\\ Z \\end{array}\\right]\\approx\\mathbf{A}",
     "[X; Y; Z] \u2248 A"},
    {"\\begin{vmatrix} a & b \\\\ c & d \\\\ \\end{vmatrix}", "|a, b; c, d|"},
    {"\\delta_{2n}=\\left\\{\\begin{array}{ll} A & n=2 \\\\ 0 & n\\ne 2\\end{array}\\right.",
     "\u03b42n=A, n=2; 0, n \u2260 2"},
    {"\\{\\begin{array}{c} a \\end{array}\\}", "{a}"},
    {"\\begin{array}{rcl} r_1 &=& r_1(q_1, t) \\\\ \\vdots \\\\ r_n &=& r_n(q_1, t) \\end{array}",
     "r\u2081 = r\u2081(q\u2081, t); \u22ee; rn = rn(q\u2081, t)"},
    {"\\begin{array}{cc} 1 & + \\\\ 0 & 1 \\end{array}", "1, +; 0, 1"},
    {"f := & \\sqrt{x} \\\\ & + y \\le 0 \\\\ g = 1", "<dropped>"},  // `&` outside
    {"\\begin{align} f := & \\sqrt{x} \\\\ & + y \\le 0 \\\\ g &= 1 \\end{align}",
     "f := \u221ax + y \u2264 0; g = 1"},
    {"\\begin{aligned} a &= b+c \\\\[2pt] &= d \\\\ x &= 1 \\end{aligned}", "a = b+c = d; x = 1"},
    {"e = \\lim_{n\\to\\infty} \\frac{n}{\\sqrt[n]{n!}}", "e = lim n \u2192 \u221e n/(\u207f\u221an!)"},
    {"\\sqrt[3]{x+1}", "\u00b3\u221a(x+1)"},
    {"\\operatorname{GL}(A) = \\operatorname{colim} \\operatorname{GL}(n, A)",
     "GL(A) = colim GL(n, A)"},
    {"(\\operatorname{csch}\\,x)' = -\\,\\operatorname{coth}\\,x", "(csch x)\u2032 = -coth x"},
    {"\\frac{\\operatorname dV}{\\operatorname dr} + \\operatorname{E}[X]", "dV/dr + E[X]"},
    {"\\liminf_{n\\to\\infty} d(n)=2.", "lim inf n \u2192 \u221e d(n)=2."},
    {"\\max_i\\left[w_{i}\\right] + \\max x", "max i [wi] + max x"},
};

TEST(MathTest, EveryListedCase) {
  for (const MathCase& c : kCases) EXPECT_EQ(Render(c.tex), c.text) << c.tex;
}

TEST(MathTest, FormulasUpToTheCapRender) {
  // Set 23 ("Rate equation"): 211 bytes of TeX, over the old cap of 160, rendered as one.
  const std::string tex =
      "\\left[ B \\right]=\\left[ A \\right]_{0}\\frac{k_{f}}{k_{f}+k_{b}}\\left( "
      "1-e^{-\\left( k_{f}+k_{b} \\right)t} \\right)+\\left[ B \\right]_{0}\\frac{1}{k_{f}+k_{b}}"
      "\\left( k_{f}+k_{b}e^{-\\left( k_{f}+k_{b} \\right)t} \\right)";
  ASSERT_GT(tex.size(), 160u);
  EXPECT_EQ(Render(tex),
            "[B]=[A]\u2080(kf/(kf+kb))(1-e^(-(kf+kb)t))+[B]\u2080(1/(kf+kb))(kf+kbe^(-(kf+kb)t))");
  EXPECT_EQ(Render(std::string(kMaxMathTex, 'x')), std::string(kMaxMathTex, 'x'));
}

TEST(MathTest, FormulasItDoesNotUnderstandAreDropped) {
  for (const char* tex :
       {"\\begin{matrix} a & b \\end{matrix} \\end{matrix}", "\\begin{tabular}{c} a \\end{tabular}",
        "\\begin{matrix} \\begin{matrix} a \\end{matrix} \\end{matrix}", "\\begin{cases} {a & b} \\end{cases}",
        "\\begin{cases} a \\\\ \\end{array}", "\\begin{array} a \\end{array}", "\\begin{cases} \\\\ \\end{cases}",
        "\\begin{matrix} a", "\\binom{n}", "\\binom{}{k}",
        "\\xrightarrow[g]{f}", "\\stackrel{a}", "a & b", "a \\\\ b", "\\sqrt[x]{x}", "\\sqrt[3]",
        "\\lim_", "\\max_{}",
        "{a", "a}", "x^", "\\unknowncommand x", "\\frac{a}", "", "   ", "\\,", "[[x,y],z]=0",
        "[x,[y,z]]",  // "[[" and "]]" would read as a wiki link's
        "\\{\\{0\\}\\}", "\\{0,\\{1\\}\\}"})  // and "{{", "}}" as a template's
    EXPECT_EQ(Render(tex), "<dropped>") << tex;
  // Two \over in one group are an error in TeX too; each needs both sides.
  for (const char* tex : {"a \\over b \\over c", "\\over b", "a \\over", "{a \\over } b"})
    EXPECT_EQ(Render(tex), "<dropped>") << tex;
  EXPECT_EQ(Render(std::string(kMaxMathTex + 1, 'x')), "<dropped>");
  std::string deep = "x";
  for (int d = 0; d <= kMaxMathDepth; ++d) deep = "{" + deep + "}";
  EXPECT_EQ(Render(deep), "<dropped>");
}

// Random TeX from the characters and commands that matter: whatever the renderer returns holds
// no TeX residue and stays within its bound.
TEST(MathTest, RandomInputNeverLeavesTeXResidue) {
  const std::vector<std::string> pieces = {
      "{",      "}",      "\\",      "^",   "_", "x",       "2",      " ",        "\\frac",
      "\\sqrt", "\\left", "\\right", "(",   ")", "\\alpha", "\\text", "\\mathbb", "\\bar",
      "+",      "=",      "\\,",     "\\;", "'", "~",       "\\sum",  "\\to",     "&",
      "|",      "[",      "]",       ".",   "é", "\\sin",   "\\{",    "\\prime",  "\\over",
      "\\}",     "\\|",     "\\rangle"};
  std::mt19937 rng(16);
  int rendered = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string tex;
    const int len = 1 + static_cast<int>(rng() % 12);
    for (int k = 0; k < len; ++k) tex += pieces[rng() % pieces.size()];
    std::string out;
    if (!RenderMath(tex, &out)) continue;
    ++rendered;
    EXPECT_EQ(out.find_first_of("\\\x01"), std::string::npos) << tex << " → " << out;
    // A brace shows only for a set brace of the source (\{ \}), never two in a row.
    auto count = [](std::string_view t, std::string_view what) {
      size_t n = 0;
      for (size_t k = t.find(what); k != std::string_view::npos; k = t.find(what, k + 1)) ++n;
      return n;
    };
    EXPECT_LE(count(out, "{"), count(tex, "\\{")) << tex << " → " << out;
    EXPECT_LE(count(out, "}"), count(tex, "\\}")) << tex << " → " << out;
    EXPECT_EQ(out.find("{{"), std::string::npos) << tex;
    EXPECT_EQ(out.find("}}"), std::string::npos) << tex;
    EXPECT_EQ(out.find("^{"), std::string::npos) << tex;
    EXPECT_EQ(out.find("[["), std::string::npos) << tex;
    EXPECT_EQ(out.find("]]"), std::string::npos) << tex;
    EXPECT_LE(out.size(), 8 * tex.size()) << tex;
    EXPECT_FALSE(out.empty());
  }
  EXPECT_GT(rendered, 1000);  // the test sees real output, not only drops
}

TEST(MathTest, HostileInputIsLinear) {
  // A formula over kMaxMathTex bytes is not parsed at all, whatever it holds.
  const std::string braces = std::string(10000, '{') + "x" + std::string(10000, '}');
  std::string out;
  EXPECT_FALSE(RenderMath(braces, &out));
  std::string commands;
  for (int k = 0; k < 100000; ++k) commands += "\\alpha";
  EXPECT_FALSE(RenderMath(commands, &out));
  // So the work per formula is bounded, and many formulas of a hard shape under the cap (groups,
  // fractions and roots nested, words, runs of spaces) cost time in proportion to their number:
  // four times the formulas, well under ten times the time (the least of five runs of each, against
  // a loaded machine).
  const std::string hard =
      "{\\frac{\\sqrt{x}}{\\sqrt{y}}^{2} \\sin \\alpha      +      \\log n \\cdot {{z_{1}}}}";
  ASSERT_LT(hard.size(), kMaxMathTex);
  ASSERT_TRUE(RenderMath(hard, &out)) << hard;
  auto page = [&](int formulas) {
    std::string p;
    for (int k = 0; k < formulas; ++k) p += "a <math>" + hard + "</math> ";
    return p;
  };
  auto seconds = [](const std::string& text) {
    double best = 1e9;
    for (int run = 0; run < 5; ++run) {
      const double t0 = testing::ThreadCpuSeconds();
      auto cleaned = CleanWikitext(text);
      (void)cleaned;
      best = std::min(best, testing::ThreadCpuSeconds() - t0);
    }
    return best;
  };
  const double small = seconds(page(2500)), large = seconds(page(10000));
  EXPECT_LT(large, 10 * std::max(small, 1e-3)) << small << " s, then " << large << " s";
  // The same near the cap, with environments, rows, cells, roots and runs of spaces.
  std::string env = "\\begin{pmatrix} \\sqrt[3]{\\operatorname{ab}} & \\lim_{n} x \\\\ ";
  while (env.size() < kMaxMathTex - 40) env += "{a} & b \\\\[1pt] c &     d \\\\ ";
  env += " & y \\end{pmatrix}";
  ASSERT_LE(env.size(), kMaxMathTex);
  ASSERT_TRUE(RenderMath(env, &out)) << env;
  const std::string near_cap = hard + std::string(kMaxMathTex - hard.size(), ' ');
  ASSERT_TRUE(RenderMath(near_cap, &out));
  for (const std::string& tex : {env, near_cap}) {
    auto page_of = [&](int formulas) {
      std::string p;
      for (int k = 0; k < formulas; ++k) p += "a <math>" + tex + "</math> ";
      return p;
    };
    const double few = seconds(page_of(500)), many = seconds(page_of(2000));
    EXPECT_LT(many, 10 * std::max(few, 1e-3)) << few << " s, then " << many << " s";
  }
  std::string many;
  for (int k = 0; k < 3; ++k) many += "a <math>{\\alpha^{2}}</math> ";
  EXPECT_NE(CleanOne(many).find("a α² a α²"), std::string::npos);
}

TEST(MathTest, InlineMathIsShownInTheSentence) {
  // "Albedo": the symbols of a "where" clause after a formula.
  EXPECT_EQ(CleanOne("where <math>p</math> is the astronomical albedo, <math>D</math> is the "
                     "diameter in kilometers."),
            "where p is the astronomical albedo, D is the diameter in kilometers.");
  // Characters that wikitext reads as markup stay text, also inside a template's argument.
  EXPECT_EQ(CleanOne("{{nowrap|<math>x=1</math>}} and <math>[a, b]</math>, <math>#</math>."),
            "x=1 and [a, b].");
  EXPECT_EQ(CleanOne("<math>*x</math> at a line start."), "*x at a line start.");
  // "Pi" (simplewiki): a fraction written with \over, inside brackets of the sentence.
  EXPECT_EQ(
      CleanOne("it cannot be written as a [[Fraction (mathematics)|fraction]] (<math>a \\over "
               "b</math>), where 'a' and 'b' are [[integer]]s."),
      "it cannot be written as a fraction (a/b), where 'a' and 'b' are integers.");
  // "Ambiguity": a non-breaking space of the formula shows.
  EXPECT_EQ(CleanOne("and <math>~n~</math>photon state"), "and n photon state");
}

// A formula with bars or set braces is in the sentence ("Ambiguity", "Analysis of variance",
// gensim sample): "|" and "{" reach the paragraph as text, not as markup.
TEST(MathTest, BarsAndSetBracesAreShownInTheSentence) {
  EXPECT_EQ(CleanOne("It is common to define the [[coherent states]] with <math>~|\\alpha\\rangle~ "
                     "</math> and states with fixed number of photons with "
                     "<math>~|n\\rangle~</math>."),
            "It is common to define the coherent states with |\u03b1\u27e9 and states with "
            "fixed number of photons with |n\u27e9.");
  EXPECT_EQ(CleanOne("factors <math>Z_{k,b}</math> where <math>b \\in \\{1,2,...,B\\}</math> "
                     "denotes the different factors"),
            "factors Zk,b where b \u2208 {1,2,...,B} denotes the different factors");
  EXPECT_EQ(CleanOne("{{nowrap|<math>|x| = 1</math>}} holds."), "|x| = 1 holds.");
  // Counter-example: a formula that would read as a template's braces is left out.
  EXPECT_EQ(CleanOne("The set <math>\\{\\{0\\}\\}</math> has one element."),
            "The set has one element.");
}

TEST(MathTest, DisplayMathStaysOut) {
  // A formula set as a block: display="block", an indented line, or alone on its line (as in
  // "Affirming the consequent", between two paragraphs).
  // A block formula inside a prose line is part of its sentence (set 23, "History of
  // algorithms"); at the line's end before a capital, the paragraph ends after it, so that the next
  // line's sentence does not join it. At its line's start it stays out.
  EXPECT_EQ(CleanOne("The sum is <math display=\"block\">a+b</math> here."), "The sum is a+b here.");
  EXPECT_EQ(CleanOne("The Babylonians used the fact that  <math display=\"block\">a/b=a\\times{(1/b)}"
                     "</math> \nThey created tables of reciprocals."),
            "The Babylonians used the fact that a/b=a × (1/b)\nThey created tables of reciprocals.");
  EXPECT_EQ(CleanOne("It holds that <math display=\"block\">a = b</math>\nwhen a is b."),
            "It holds that a = b when a is b.");
  EXPECT_EQ(CleanOne("It holds that <math display=\"block\">\\sqrt[x]{b}</math>\nThe next."),
            "It holds that\nThe next.");
  EXPECT_EQ(CleanOne("It holds that\n<math display=\"block\">a = b</math>\nwhen a is b."),
            "It holds that\nwhen a is b.");
  EXPECT_EQ(CleanOne("Symbolically:\n\n<math>(P \\to Q)\\leftrightarrow (\\neg Q \\to \\neg P)"
                     "</math>\n\nThe name derives."),
            "Symbolically:\nThe name derives.");
  // An indented formula after a finished sentence stays out; one that a sentence leads into
  // joins it, with a "where" line after it (docs/text.md, "Formula lines").
  EXPECT_EQ(CleanOne("The correlation is known.\n:<math>D = 1</math>\nIt is the diameter."),
            "The correlation is known.\nIt is the diameter.");
  EXPECT_EQ(CleanOne("The correlation is:\n:<math>D = 1</math>\nwhere D is the diameter."),
            "The correlation is: D = 1 where D is the diameter.");
  // A block with its closing period; a block before a list.
  EXPECT_EQ(
      CleanWikitext("Text before.\n\n<math>E = mc^2</math>.\n\nWhere E is energy.").paragraphs,
      (std::vector<std::string>{"Text before.", "Where E is energy."}));
  EXPECT_EQ(CleanWikitext("Text before.\n\n<math>E = mc^2</math>\n* an item").paragraphs,
            (std::vector<std::string>{"Text before."}));
}

TEST(MathTest, AFormulaOnItsOwnLineInsideAParagraphIsInline) {
  // Single line breaks join lines into one paragraph: the formula is part of the sentence.
  EXPECT_EQ(CleanOne("The energy of a body is\n<math>E=mc^2</math>\nwhen it is at rest."),
            "The energy of a body is E=mc² when it is at rest.");
}

}  // namespace
}  // namespace aligndb
