// Inline TeX (`<math>…</math>` in prose) → the plain text a reader sees (docs/text.md,
// "Inline math").
#ifndef ALIGNDB_TEXT_MATH_H_
#define ALIGNDB_TEXT_MATH_H_

#include <string>
#include <string_view>

namespace aligndb {

// Longest formula rendered, in bytes of TeX; longer ones are dropped. It bounds the work per
// formula (rendering is linear in it, but a cap keeps hostile pages cheap). 400 bytes is the
// longest formula line joined into a sentence ("Formula lines"); set 23's one-line formulas of
// 161–400 bytes render as well as shorter ones (docs/text.md, "Inline math"). Default: 400.
inline constexpr size_t kMaxMathTex = 400;
// Deepest nesting of groups and command arguments rendered. Default: 6.
inline constexpr int kMaxMathDepth = 6;

// Renders short, simple TeX as plain Unicode text: letters, digits and operators as written,
// Greek letters and common symbols (`\alpha`, `\times`, `\le`, `\infty`, …) as their characters,
// `\frac{a}{b}` as `a/b` (an argument of more than one character in brackets: `(a+b)/2`),
// `\sqrt{x}` as `√x`, `\text{…}`/`\mathrm{…}`/`\operatorname{…}`… as their argument, braces,
// `\left`/`\right` and spacing commands dropped. Superscripts of digits, signs, `n` and `i` become
// Unicode superscripts (`x^2` → `x²`), ordinals and primes stay on the line (`k^{th}` → `kth`),
// other superscripts are bracketed after `^` (`e^x` → `e^(x)`); subscripts of
// digits become Unicode subscripts (`x_1` → `x₁`), other subscripts are written on the line
// (`x_i` → `xi`). Bars and set braces show as Wikipedia shows them (`|x|`, `\|v\|` → `‖v‖`,
// `|\psi\rangle` → `|ψ⟩`, `\{0,1\}` → `{0,1}`). Returns false, with `out` unspecified, for a
// formula it does not understand (an unknown command, `&` or `\\` outside a matrix, `cases` or
// `aligned` environment, `$`, longer than kMaxMathTex,
// nested deeper than kMaxMathDepth, unbalanced braces) or that would show `[[`, `]]`, `{{` or
// `}}`: the caller drops it. What it returns never holds `\`, nor `{` or `}` but for a set brace
// of the source. Time linear in `tex`; the output is at most 8 bytes per input byte.
bool RenderMath(std::string_view tex, std::string* out);

}  // namespace aligndb

#endif  // ALIGNDB_TEXT_MATH_H_
