// Sentences (ICU), tokens, titles, flags, and the page-level text pipeline.
#include "text/text.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <iterator>

#include "text/templates.h"
#include "text/wikitext.h"

namespace aligndb {

// ---------------------------------------------------------------- flags

std::vector<std::string> FlagNames(uint32_t flags) {
  std::vector<std::string> out;
  if (flags & kFlagStub) out.push_back("stub");
  if (flags & kFlagDisambiguation) out.push_back("disambiguation");
  if (flags & kFlagMeta) out.push_back("meta");
  if (flags & kFlagSingleLine) out.push_back("single_line");
  return out;
}

Status ParseFlagNames(const std::vector<std::string>& names, uint32_t* flags) {
  *flags = 0;
  for (const auto& n : names) {
    if (n == "stub")
      *flags |= kFlagStub;
    else if (n == "disambiguation")
      *flags |= kFlagDisambiguation;
    else if (n == "meta")
      *flags |= kFlagMeta;
    else if (n == "single_line")
      *flags |= kFlagSingleLine;
    else
      return Status::InvalidArgument("unknown article flag \"" + n + "\"");
  }
  return Status::OK();
}

namespace {

bool IsStubTemplate(std::string_view name) { return name.ends_with("stub"); }

bool IsDisambiguationTemplate(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kNames = {
      "disambig",  "disambiguation", "dab",       "disamb",      "hndis",        "geodis",
      "numberdis", "roaddis",        "schooldis", "hospitaldis", "mil-unit-dis", "mathdab"};
  for (auto n : kNames)
    if (name == n) return true;
  return name.find("disambiguation") != std::string_view::npos || name.substr(0, 8) == "disambig";
}

// Project namespaces: a title with one of these prefixes is not an encyclopedia article.
bool HasProjectNamespace(std::string_view title) {
  static constexpr std::array<std::string_view, 22> kPrefixes = {
      "wikipedia",      "wp",       "project",   "help",   "template",
      "category",       "portal",   "file",      "image",  "mediawiki",
      "user",           "talk",     "draft",     "module", "special",
      "media",          "book",     "timedtext", "gadget", "education program",
      "wikipedia talk", "user talk"};
  size_t colon = title.find(':');
  if (colon == std::string_view::npos) return false;
  std::string prefix(title.substr(0, colon));
  for (char& c : prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (auto p : kPrefixes)
    if (prefix == p) return true;
  return prefix.ends_with(" talk");
}

}  // namespace

uint32_t ComputeFlags(std::string_view title, int32_t namespace_id,
                      const std::vector<std::string>& template_names, size_t sentence_count) {
  uint32_t flags = 0;
  for (const auto& n : template_names) {
    if (IsStubTemplate(n)) flags |= kFlagStub;
    if (IsDisambiguationTemplate(n)) flags |= kFlagDisambiguation;
  }
  if (title.ends_with("(disambiguation)")) flags |= kFlagDisambiguation;
  if (namespace_id > 0 || HasProjectNamespace(title)) flags |= kFlagMeta;
  if (sentence_count <= 1) flags |= kFlagSingleLine;
  return flags;
}

// ---------------------------------------------------------------- titles

std::string NormalizeTitle(std::string_view title) {
  std::string s;
  s.reserve(title.size());
  for (char c : title) {
    if (c == '_' || c == '\t' || c == '\n' || c == '\r') c = ' ';
    if (c == ' ' && (s.empty() || s.back() == ' ')) continue;
    s.push_back(c);
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.empty()) return s;
  // Upper-case the first code point.
  int32_t i = 0;
  UChar32 c;
  U8_NEXT(s.data(), i, static_cast<int32_t>(s.size()), c);
  if (c < 0) return s;
  UChar32 upper = u_toupper(c);
  if (upper == c) return s;
  std::string out;
  icu::UnicodeString(upper).toUTF8String(out);
  out.append(s, static_cast<size_t>(i), std::string::npos);
  return out;
}

// ---------------------------------------------------------------- tokens

namespace {
inline bool IsAsciiAlnum(uint8_t b) {
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
}
}  // namespace

void Tokenize(std::string_view text, std::vector<std::string>* tokens) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  int32_t n = static_cast<int32_t>(text.size());
  int32_t i = 0;
  std::string current;
  auto flush = [&]() {
    if (!current.empty()) {
      tokens->push_back(std::move(current));
      current.clear();
    }
  };
  while (i < n) {
    uint8_t b = p[i];
    if (IsAsciiAlnum(b)) {  // a run of ASCII letters and digits, appended at once
      int32_t j = i + 1;
      while (j < n && IsAsciiAlnum(p[j])) ++j;
      size_t at = current.size();
      current.append(reinterpret_cast<const char*>(p + i), static_cast<size_t>(j - i));
      for (size_t k = at; k < current.size(); ++k)
        if (current[k] >= 'A' && current[k] <= 'Z') current[k] = static_cast<char>(current[k] + 32);
      i = j;
      continue;
    }
    if (b < 0x80) {
      ++i;
      if ((b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')) {
        current.push_back(static_cast<char>(b));
      } else if (b >= 'A' && b <= 'Z') {
        current.push_back(static_cast<char>(b + 32));
      } else {
        flush();
      }
      continue;
    }
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      flush();
      continue;
    }
    int8_t type = u_charType(c);
    bool letter_or_digit = u_isalpha(c) || type == U_DECIMAL_DIGIT_NUMBER;
    bool mark =
        type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK || type == U_ENCLOSING_MARK;
    if (letter_or_digit || (mark && !current.empty())) {
      UChar32 folded = u_foldCase(c, U_FOLD_CASE_DEFAULT);
      char buf[4];
      int32_t len = 0;
      UBool err = false;
      U8_APPEND(buf, len, 4, folded, err);
      if (!err) current.append(buf, static_cast<size_t>(len));
    } else {
      flush();
    }
  }
  flush();
}

// ---------------------------------------------------------------- sentences

struct SentenceSplitter::Impl {
  std::unique_ptr<icu::BreakIterator> iter;
};

namespace {

// Abbreviations after which a period does not end a sentence. ICU's rules alone split
// "Dr. | Smith"; a boundary that follows one of these words is removed. Given names shortened
// ("Jos. Kraus", "Wm.", "Thos."), "trans." (translated by) and the Czech and Slovak "sv." (saint:
// "Kostel sv. Jindřicha") come before a name. Words that often end a
// sentence ("etc.", "Inc.") are not listed: ICU already keeps them when a lower-case word follows.
// "Sta." is Santa, as "Ste." is Sainte ("the French sloop Sta. Anna").
// "Pvt." is a private (the soldier) or the "Private" of an Indian company's "Pvt. Ltd."; "ie." is
// "i.e." written without its first period ("the code for \"special vehicles\" ie. TZ"), and so is
// "Ie." opening a sentence's explanation ("Ie. You do something for me, …", set 27).
// Sorted (byte order), for binary search: this is asked at every boundary ICU finds.
constexpr std::array<std::string_view, 76> kAbbreviations = {
    "Adm.", "Apr.", "Aug.", "Brig.", "Bvt.", "Capt.", "Chas.", "Cmdr.", "Col.",
    "Cpl.", "Dec.", "Dr.", "Ex.", "Feb.", "Fig.", "Figs.", "Fr.", "Ft.",
    "Gen.", "Geo.", "Gov.", "Hon.", "Ie.", "Jan.", "Jas.", "Jos.", "Jr.", "Lt.",
    "Maj.", "Mar.", "Messrs.", "Mr.", "Mrs.", "Ms.", "Mssrs.", "Mt.", "No.",
    "Nos.", "Nov.", "Oct.", "Pres.", "Prof.", "Pte.", "Pvt.", "Rep.", "Rev.", "Sen.",
    "Sep.", "Sept.", "Sgt.", "Sir.", "Sr.", "St.", "Sta.", "Ste.", "Thos.", "Vol.",
    "Wm.", "al.", "approx.", "c.", "ca.", "cf.", "e.g.", "ed.", "eds.",
    "i.e.", "ie.", "lit.", "p.", "pp.", "sv.", "trans.", "v.", "viz.", "vs."};
static_assert(std::is_sorted(kAbbreviations.begin(), kAbbreviations.end()));

// Abbreviations that do not end a sentence when a year or number follows ("(b. 1906) was",
// "ranked world no. 91", "vol. 2", "Iolanta, Op. 69", "Art. 15 of the Constitution", "the six
// string quartets opp. 71 and 74", "op. 16 pt. 1", Köchel's "K. 216"), a title's part ("Pt. 1's
// follow up EP"), a regulation's section ("Sec. 10. Cameras") and a mathematical text's
// definitions, equations, theorems and propositions (set 23, "Near sets": "Defn. 7 can be used"),
// a chapter or a television channel (set 26, Suriname: "Sangeetmala (Ch. 26), Ch. 30, Ch. 31");
// not "Def.", which ends a name ("… toured with Mos Def. 2009 saw …", review17).
constexpr std::array<std::string_view, 24> kAbbreviationsBeforeNumbers = {
    "b.",  "d.",   "fl.",  "r.",   "no.", "nos.", "vol.", "vols.", "op.",  "Op.",  "opp.", "Art.",
    "can.", "pt.", "Pt.",  "Sec.", "K.",  "Defn.", "Eq.",  "Eqs.", "Thm.", "Prop.", "Ch.", "ch."};
// Those that number with Roman numerals ("vol. I., 1862; vol. II., 1884", Hoboken's "Hob.
// XVII:6", the Council of Trent's "(Sess. VI, cap. i and v)", set 28); not "no.", as in "He said
// no. I left".
constexpr std::array<std::string_view, 8> kAbbreviationsBeforeRomanNumerals = {
    "vol.", "vols.", "op.", "Op.", "opp.", "Art.", "Hob.", "Sess."};
constexpr std::array<std::string_view, 12> kMonths = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

// "U.S." before a word that commonly follows it in a name ("the U.S. Army") never ends a
// sentence. The same for the other dotted country abbreviations, and for "D.C." (a place that
// ends sentences as they do: "… in Washington, D.C. He kept close tabs …"). Before other
// capitalised words see CountryNameContinues.
constexpr std::array<std::string_view, 5> kCountryAbbreviations = {"U.S.", "U.K.", "U.N.", "E.U.",
                                                                   "D.C."};
constexpr std::array<std::string_view, 44> kNameWordsAfterCountry = {
    "Army",      "Navy",           "Air",        "Marine",  "Marines",  "Coast",
    "Armed",     "Forces",         "Military",   "House",   "Senate",   "Congress",
    "Senator",   "Representative", "Supreme",    "Court",   "Courts",   "Department",
    "Secretary", "President",      "Government", "Federal", "National", "State",
    "States",    "Open",           "Census",     "Route",   "Highway",  "Postal",
    "Forest",    "Geological",     "Virgin",     "Embassy", "Bureau",   "Constitution",
    "Attorney",  "District",       "Treasury",   "Patent",  "Olympic",  "Championships",
    "Billboard", "Securities"};

// An opening bracket or quotation mark, straight or curly (U+201C, U+2018): `(Dr.`, `"Mr.`,
// `\u201cMr. Watson, come here`.
std::string_view StripOpening(std::string_view word) {
  for (;;) {
    if (!word.empty() && (word.front() == '(' || word.front() == '"' || word.front() == '\''))
      word.remove_prefix(1);
    else if (word.starts_with("\u201c") || word.starts_with("\u2018"))
      word.remove_prefix(3);
    else
      return word;
  }
}

// A Roman numeral as a word of its own: "I.,", "II.", "XIV".
bool IsRomanNumeral(std::string_view w) {
  size_t i = 0;
  while (i < w.size() && std::string_view("IVXLCDM").find(w[i]) != std::string_view::npos) ++i;
  return i > 0 && (i == w.size() || std::string_view(".,;:)").find(w[i]) != std::string_view::npos);
}

// "b. 1906", "d. 1950", "fl. 1200", "r. 1509–1547" (born, died, flourished, reigned), "b. March
// 26, 1973", "world no. 1", "vol. 2", "vol. II.": abbreviations before a number or a date.
bool IsAbbreviationBeforeNumber(std::string_view word, std::string_view next) {
  if (word.size() > 5) return false;
  std::string_view n = StripOpening(next);
  if (n.empty()) return false;
  if (std::isdigit(static_cast<unsigned char>(n[0]))) {
    // A year after "no." starts a sentence ("He said no. 2020 was his last campaign"): ranks
    // and numbers of that size are rare, as are channels and chapters ("TV Ch. 2011 saw").
    if ((word == "no." || word == "Ch." || word == "ch.") && n.size() >= 4 &&
        (n[0] == '1' || n[0] == '2') &&
        std::all_of(n.begin(), n.begin() + 4,
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
        (n.size() == 4 || !std::isdigit(static_cast<unsigned char>(n[4]))))
      return false;
    for (auto a : kAbbreviationsBeforeNumbers)
      if (word == a) return true;
    return false;
  }
  if (word == "b." || word == "d.") {
    while (!n.empty() && (n.back() == ',' || n.back() == '.')) n.remove_suffix(1);
    return std::find(kMonths.begin(), kMonths.end(), n) != kMonths.end();
  }
  // A bare "I" is the pronoun ("the Museum of Modern Art. I was told"); "I." or "I," numbers.
  if (!IsRomanNumeral(n) || n == "I") return false;
  for (auto a : kAbbreviationsBeforeRomanNumerals)
    if (word == a) return true;
  return false;
}

// "i" to "xxxix" as written in lower case, and nothing else ("mix", "did", "ill" are words).
bool IsLowerRomanNumeral(std::string_view w) {
  size_t i = 0;
  while (i < w.size() && i < 3 && w[i] == 'x') ++i;
  if (w.substr(i) == "ix" || w.substr(i) == "iv") return true;
  if (i < w.size() && w[i] == 'v') ++i;
  size_t ones = 0;
  while (i < w.size() && w[i] == 'i' && ones < 3) ++i, ++ones;
  return i == w.size() && !w.empty();
}

bool InitialContinues(std::string_view next);
bool StartsSentences(std::string_view w);
bool IsTitleSmallWord(std::string_view w);
std::string_view FirstWord(std::string_view s);

bool IsListedAbbreviation(std::string_view word) {
  return std::binary_search(kAbbreviations.begin(), kAbbreviations.end(), word);
}

// An initial in another script: one capital letter of two bytes in UTF-8 (Cyrillic, Greek, …)
// and a period, as in "М. В. Доўнар-Запольскі" or "І. Б. Матяш".
bool IsInitialInOtherScript(std::string_view word) {
  if (word.size() != 3 || word[2] != '.') return false;
  const auto* p = reinterpret_cast<const uint8_t*>(word.data());
  int32_t i = 0;
  UChar32 c;
  U8_NEXT(p, i, 2, c);
  return i == 2 && c >= 0x80 && u_isupper(c);
}

// Latin initials of two letters that transliterate one Cyrillic letter ("Yu. Lytvyn", "Zh.
// Alferov"), before a capitalised word.
constexpr std::array<std::string_view, 9> kDigraphInitials = {"Ch.", "Kh.", "Sh.", "Ts.", "Ya.",
                                                              "Ye.", "Yo.", "Yu.", "Zh."};
// Abbreviations before a name: a transliteration ("Україна, tr. Ukrayina") and the "versus" of a
// title in capitals ("SNK Vs. Capcom"); they do not end sentences.
constexpr std::array<std::string_view, 2> kAbbreviationsBeforeNames = {"Vs.", "tr."};

bool IsDigraphInitial(std::string_view word, std::string_view next) {
  if (!std::isupper(static_cast<unsigned char>(word[0]))) return false;
  next = StripOpening(next);
  return !next.empty() && std::isupper(static_cast<unsigned char>(next[0])) &&
         std::find(kDigraphInitials.begin(), kDigraphInitials.end(), word) !=
             kDigraphInitials.end();
}

// True when a sentence boundary after `word` (the last word before it) must be removed;
// `next` is the first word after the boundary.
bool IsAbbreviation(std::string_view word, std::string_view next) {
  word = StripOpening(word);
  // An elision before it is no part of the word: "by \u201c\u2026Mr. Joseph Gibbs, Organist".
  if (word.starts_with("\u2026") || word.starts_with("...")) {
    while (word.starts_with("\u2026")) word.remove_prefix(3);
    while (word.starts_with('.')) word.remove_prefix(1);
    word = StripOpening(word);
  }
  for (auto c : kCountryAbbreviations) {
    if (word != c) continue;
    // A curly quotation mark opens a new sentence ("the U.S. \u201cWe are here,\u201d he said").
    if (next.starts_with("\u201c") || next.starts_with("\u2018")) return false;
    // A round bracket goes on the sentence unless a sentence starts in it ("the number two green
    // company in the U.S. (Newsweek), the second-most …"; "… moved to the U.S. (He left.)").
    if (next.starts_with('(')) return !StartsSentences(StripOpening(next));
    // A number goes on it ("Located on U.S. 85 approximately 31 miles", "under the U.S. 8th Air
    // Force"), but a year starts a sentence ("… in the U.S. 1990 was …"), as after "no.".
    if (!next.empty() && std::isdigit(static_cast<unsigned char>(next[0]))) {
      size_t d = 0;
      while (d < next.size() && std::isdigit(static_cast<unsigned char>(next[d]))) ++d;
      return !(d == 4 && (next[0] == '1' || next[0] == '2'));
    }
    next = StripOpening(next);
    // Punctuation goes on the sentence: "Instituto Cultural Mexicano, Washington D.C.; Die Haus",
    // "the U.K. & Ireland" (ASCII punctuation but quotation marks: "the U.S. \u201cWe are
    // here,\u201d he said", "the U.K. \u00c9mile Zola was" and "the U.S. "We" …" are new
    // sentences).
    if (next.empty()) return true;
    if (const auto c = static_cast<unsigned char>(next[0]);
        c < 0x80 && std::ispunct(c) && c != '"' && c != '\'' && c != '`')
      return true;
    while (!next.empty() && !std::isalnum(static_cast<unsigned char>(next.back())))
      next.remove_suffix(1);
    // A possessive continues the name: "the U.S. Congress's taxing authority".
    if (next.size() > 2 && next.substr(next.size() - 2) == "'s") next.remove_suffix(2);
    if (next.size() > 4 && next.substr(next.size() - 4) == "\u2019s") next.remove_suffix(4);
    for (auto n : kNameWordsAfterCountry)
      if (next == n) return true;
    return false;
  }
  // "(sic.)" before a bracket: the bracket goes on the sentence ("\"Queen of Elfame\" (sic.)
  // (\"Elphane\", also …) occur in"), unless a sentence starts in it, as after "Inc." below.
  if (!next.empty() && next.front() == '(' && (word == "sic.)" || word == "sic.]"))
    return !StartsSentences(FirstWord(StripOpening(next)));
  if (word.size() < 2 || word.back() != '.') return false;
  // "Frank Abagnale, Jr. The same year …": a generational suffix ends the name, and the
  // sentence with it, before a word that commonly starts a sentence; before others the name
  // goes on ("Jr. was", "Martin Luther King Jr. Day").
  // The same for a company's "Bros." and a lawyer's "Esq." ("left Warner Bros. Records and …",
  // "Jennifer Newman Sharpe, Esq. (Law Offices of …)").
  if (word == "Jr." || word == "Sr." || word == "Bros." || word == "Esq.")
    return !StartsSentences(FirstWord(next));
  // A company's "Inc." (or "Ltd.", "Corp.", "Co.") before a round bracket: the bracket goes on
  // the sentence ("Apple Computer, Inc. (NASDAQ: AAPL and LSE: ACP) is"), unless a sentence
  // starts in it ("… by Apple Computer, Inc. (The company later …").
  if (!next.empty() && next.front() == '(' &&
      (word == "Inc." || word == "Ltd." || word == "Corp." || word == "Co."))
    return !StartsSentences(FirstWord(StripOpening(next)));
  if (IsListedAbbreviation(word)) return true;
  // After a dash or a slash the abbreviation is a word of its own: "Corktown–St. Lawrence".
  size_t p = word.size() - 1;  // the period
  while (p > 0 && word[p - 1] != '/' && word[p - 1] != '-' && word[p - 1] != '\x93' &&
         word[p - 1] != '\x94')
    --p;
  // A hyphenated initial after a space, as some write the second of "H.-J." ("Prof. H. -J.
  // Zimmermann"): an initial.
  if (word.size() == 3 && word[0] == '-' && word[1] >= 'A' && word[1] <= 'Z')
    return InitialContinues(next);
  if (p > 0) {
    bool dash = word[p - 1] == '/' || word[p - 1] == '-' ||
                (p >= 3 && word[p - 3] == '\xE2' && word[p - 2] == '\x80');
    if (dash && (IsListedAbbreviation(word.substr(p)) ||
                 IsAbbreviationBeforeNumber(word.substr(p), next)))  // "three—K. 216"
      return true;
    // Hyphenated initials: "J.-H. Rosny", "J.-P. Sartre".
    if (word[p - 1] == '-' && p >= 3 && word[p - 2] == '.' && word.size() - p == 2 &&
        word[p] >= 'A' && word[p] <= 'Z')
      return true;
    // Initials after a slash are a name of their own, as without it: "the Okura Films/O.P. Films
    // theatrically-released …" (twenty-fourth held-out set), but "… the U.S./U.K. Then …" ends.
    if (word[p - 1] == '/' && word.size() - p >= 4) {
      size_t k = p;
      while (k + 1 < word.size() && word[k] >= 'A' && word[k] <= 'Z' && word[k + 1] == '.') k += 2;
      if (k == word.size() &&
          std::find(kCountryAbbreviations.begin(), kCountryAbbreviations.end(), word.substr(p)) ==
              kCountryAbbreviations.end())
        return InitialContinues(next);
    }
  }
  if (IsAbbreviationBeforeNumber(word, next)) return true;
  // A volume in lower-case Roman numerals before its page: "Rivista musicale italiana, viii. 75."
  if (!next.empty() && std::isdigit(static_cast<unsigned char>(next[0])) &&
      IsLowerRomanNumeral(word.substr(0, word.size() - 1)))
    return true;
  // Initials: "J." (but not "I.", which ends sentences such as "... World War I.").
  if (word.size() == 2 && word[0] >= 'A' && word[0] <= 'Z' && word[0] != 'I')
    return InitialContinues(next);
  if (word.size() == 3 && word[2] == '.') {  // rarer forms of three bytes, asked together
    for (std::string_view a : kAbbreviationsBeforeNames)
      if (word[0] == a[0] && word == a) return true;
    if (IsInitialInOtherScript(word) || IsDigraphInitial(word, next)) return InitialContinues(next);
  }
  // Dotted abbreviations: "U.S.", "U.K.", "D.C.", "a.m.". One ends the sentence before a word that
  // commonly starts one ("… an employee named B.J. This web series …", "… until 6 a.m. Since
  // 2015, …"), not before a name, a number or an acronym ("B.J. Smith", "9:32 a.m. EDT").
  if (word.size() >= 4) {
    for (size_t i = 0; i < word.size(); i += 2)
      if (!(std::isalpha(static_cast<unsigned char>(word[i])) && i + 1 < word.size() &&
            word[i + 1] == '.'))
        return false;
    return !StartsSentences(FirstWord(next));
  }
  return false;
}

// Words are separated by ASCII spaces, tabs and newlines, and by the Unicode spaces a plain text
// (JSON lines) may hold where typesetting asks for one: U+00A0 no-break ("Dr.\u00a0Smith"),
// U+2002–U+200A (thin: "c.\u2009470"), U+202F. The length in bytes of such a space ending at byte
// `e` (inclusive), or starting at byte `b`; 0 when there is none.
size_t SpaceEndingAt(std::string_view s, size_t e) {
  const auto u = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  if (s[e] == ' ' || s[e] == '\t' || s[e] == '\n') return 1;
  if (e >= 1 && u(e) == 0xA0 && u(e - 1) == 0xC2) return 2;
  if (e >= 2 && u(e - 2) == 0xE2 && u(e - 1) == 0x80 &&
      ((u(e) >= 0x82 && u(e) <= 0x8A) || u(e) == 0xAF))
    return 3;
  return 0;
}

size_t SpaceStartingAt(std::string_view s, size_t b) {
  const auto u = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  if (s[b] == ' ' || s[b] == '\t' || s[b] == '\n') return 1;
  if (b + 1 < s.size() && u(b) == 0xC2 && u(b + 1) == 0xA0) return 2;
  if (b + 2 < s.size() && u(b) == 0xE2 && u(b + 1) == 0x80 &&
      ((u(b + 2) >= 0x82 && u(b + 2) <= 0x8A) || u(b + 2) == 0xAF))
    return 3;
  return 0;
}

std::string_view LastWord(std::string_view s) {
  size_t e = s.size();
  for (size_t n; e > 0 && (n = SpaceEndingAt(s, e - 1)) > 0;) e -= n;
  size_t b = e;
  while (b > 0 && SpaceEndingAt(s, b - 1) == 0) --b;
  return s.substr(b, e - b);
}

std::string_view FirstWord(std::string_view s) {
  size_t b = 0;
  for (size_t n; b < s.size() && (n = SpaceStartingAt(s, b)) > 0;) b += n;
  size_t e = b;
  while (e < s.size() && SpaceStartingAt(s, e) == 0) ++e;
  return s.substr(b, e - b);
}

// "Emergency! fifth season", "Help! (1965)": a "!" or "?" (with closing quotes or brackets)
// followed by a lower-case word, a bracket opening on one or a bracketed year is part of a title
// or of a longer sentence, not a sentence end. Closing quotation marks are straight or curly
// (U+201D, U+2019): `\u201cDo you understand what I say?\u201d and Mr. Watson answered`.
bool ContinuesAfterExclamation(std::string_view before, std::string_view next) {
  // A mark between letters or digits is inside a word or a title ("O!RUL8,2?", "Go!Animate"): a
  // sentence's end has a space after it. Not after a word of two or more capitals: shouted text
  // runs its sentences together ("… VOL MET POOLEN!EEN BUSSIE …", a vandal's, repeated).
  if (before.size() >= 2 && (before.back() == '!' || before.back() == '?') && !next.empty() &&
      std::isalnum(static_cast<unsigned char>(next.front())) &&
      std::isalnum(static_cast<unsigned char>(before[before.size() - 2]))) {
    size_t k = before.size() - 1;
    while (k > 0 && std::isupper(static_cast<unsigned char>(before[k - 1]))) --k;
    const bool shouted = before.size() - 1 - k >= 2 &&
                         (k == 0 || !std::isalnum(static_cast<unsigned char>(before[k - 1])));
    if (!shouted) return true;
  }
  // A factorial inside a formula, with no space after it: before a bracket (`n!/(k!(n-k)!)`,
  // where ICU reads "(" as closing the sentence) or a superscript (`(p-1)!ⁿ`).
  if (!next.empty() && next.front() != ' ' && next.front() != '\n') {
    if (before.ends_with("!(") || before.ends_with("![")) return true;
    if (before.ends_with(")!") && std::isalnum(static_cast<unsigned char>(next.front())))
      return true;  // `(p-1)!2`
    if (before.ends_with('!') && before.size() >= 2 && before[before.size() - 2] != '!') {
      static constexpr std::string_view kSuperscripts[] = {"\u00B2", "\u00B3", "\u00B9", "\u2070",
                                                           "\u2071", "\u2074", "\u2075", "\u2076",
                                                           "\u2077", "\u2078", "\u2079", "\u207A",
                                                           "\u207B", "\u207F"};
      for (std::string_view sup : kSuperscripts)
        if (next.starts_with(sup)) return true;
    }
  }
  // A mark set over a relation, rendered as its superscript (`\stackrel{!}{=}`, "must equal", is
  // "=^(!)"; `\overset{?}{=}`), review17.
  if (std::string_view b = before.substr(0, before.find_last_not_of(" \t\n") + 1);
      b.ends_with("^(!)") || b.ends_with("^(?)") || b.ends_with("^(!") || b.ends_with("^(?"))
    return true;
  size_t e = before.find_last_not_of(" \t\n");
  for (; e != std::string_view::npos && e > 0; --e) {
    if (before[e] == '"' || before[e] == '\'' || before[e] == ')' || before[e] == ']') continue;
    if (e >= 3 && (before[e] == '\x9D' || before[e] == '\x99') && before[e - 1] == '\x80' &&
        before[e - 2] == '\xE2') {
      e -= 2;
      continue;
    }
    break;
  }
  // A full-width mark ("(魔法先生ネギま！) based on the manga", twenty-fourth held-out set) is read as
  // "!" and "?" are.
  if (e != std::string_view::npos && e >= 2 &&
      (before.substr(e - 2, 3) == "\uFF01" || before.substr(e - 2, 3) == "\uFF1F")) {
    const std::string_view w = FirstWord(next);
    return !w.empty() && w[0] >= 'a' && w[0] <= 'z';
  }
  if (e == std::string_view::npos || (before[e] != '!' && before[e] != '?')) return false;
  // A factorial in a formula ("n! = n · (n-1)!", "Hence 0! = 1"): "!" right after a letter, digit
  // or ")" and followed by an operator.
  if (before[e] == '!' && e > 0 &&
      (std::isalnum(static_cast<unsigned char>(before[e - 1])) || before[e - 1] == ')' ||
       static_cast<unsigned char>(before[e - 1]) >= 0x80)) {  // "k₂! ⋯"
    const size_t k = next.find_first_not_of(" \t\n");
    if (k != std::string_view::npos) {
      const std::string_view rest = next.substr(k);
      for (std::string_view op : {"=", "+", "<", ">", "\u00B7", "\u00D7", "\u2212", "\u2260",
                                  "\u2264", "\u2265", "\u2248", "\u2192", "\u22EF"})
        if (rest.substr(0, op.size()) == op) return true;
    }
  }
  std::string_view w = FirstWord(next);
  if (w.empty()) return false;
  if (w[0] >= 'a' && w[0] <= 'z') return true;
  // A bracket opening on a lower-case word goes on the sentence as the word does: `…this living
  // thing?" (comparative anatomy); "How do the parts work?" (physiology); …`.
  if (w[0] == '(' && w.size() >= 2 && w[1] >= 'a' && w[1] <= 'z') return true;
  if (w[0] == '(' && w.size() >= 6 && std::isdigit(static_cast<unsigned char>(w[1]))) {
    size_t d = 1;
    while (d < w.size() && std::isdigit(static_cast<unsigned char>(w[d]))) ++d;
    return d == 5 && d < w.size() && w[d] == ')';
  }
  return false;
}

// "IBM", "NASA's", "USB,": two or more capitals and nothing else but trailing punctuation or a
// possessive; not a Roman numeral ("II", "XIV"). A name after an initial is not written so:
// "… and Nintendo's Wii U. IBM Secure Blue is …" ends a sentence at "U.".
bool IsAcronym(std::string_view w) {
  size_t n = 0;
  while (n < w.size() && w[n] >= 'A' && w[n] <= 'Z') ++n;
  if (n < 2 || IsRomanNumeral(w)) return false;
  std::string_view rest = w.substr(n);
  if (rest.substr(0, 2) == "'s" || rest.substr(0, 4) == "\u2019s")
    rest.remove_prefix(rest[0] == '\'' ? 2 : 4);
  return std::all_of(rest.begin(), rest.end(), [](char c) {
    return c == '.' || c == ',' || c == ';' || c == ':' || c == ')' || c == '"';
  });
}

// An imperial unit's abbreviation after a number, before another number or a bracket: "a camber
// of 3.75 in. (9.05 cm)", "a wingspan of 33 ft. 6 in. (10.21 m)", "10.5 sq. ft. (0.98 sq.m.)",
// "10.5 sq.ft. (0.98 sq.m.)" (Pfitzner Flyer, heldout20). The sentence goes on, unless a
// sentence starts in the bracket ("… 100 ft. (The tower was …") or the number is a year ("… 6 ft.
// 1990 saw …").
bool IsImperialUnitAfterNumber(std::string_view sentence, std::string_view next) {
  std::string_view last = LastWord(sentence);
  if (last != "ft." && last != "in." && last != "sq.ft." && last != "sq.in.") return false;
  if (next.empty()) return false;
  if (next.front() == '(') {
    if (StartsSentences(FirstWord(StripOpening(next)))) return false;
  } else if (std::isdigit(static_cast<unsigned char>(next.front()))) {
    size_t d = 0;
    while (d < next.size() && std::isdigit(static_cast<unsigned char>(next[d]))) ++d;
    if (d == 4 && (next[0] == '1' || next[0] == '2')) return false;
  } else {
    return false;
  }
  const auto before = [](std::string_view s, std::string_view word) {
    return s.substr(0, static_cast<size_t>(word.data() - s.data()));
  };
  std::string_view number = LastWord(before(sentence, last));
  if (number == "sq." && (last == "ft." || last == "in."))
    number = LastWord(before(sentence, number));
  // The number before it: "3.75", "1,200", "6" (a fraction's "6 1/2" ends in a digit too).
  return !number.empty() && std::isdigit(static_cast<unsigned char>(number.back())) &&
         number.find_first_not_of("0123456789.,/") == std::string_view::npos;
}

// "33.Kxf2", "1.e4", "12.O-O" (chess notation): a period between a number and a move, with no
// space after it, does not end a sentence. The move holds a digit, starts in lower case or is a
// castling, or is in capitals (a ticker: "012750.KS"); a capitalised plain word ("in
// 2011.Albania", a missing space) starts a sentence.
bool IsGluedAfterNumber(std::string_view sentence, std::string_view next) {
  size_t n = sentence.size();
  if (n < 2 || sentence[n - 1] != '.' || !std::isdigit(static_cast<unsigned char>(sentence[n - 2])))
    return false;
  std::string_view w = FirstWord(next);
  if (w.empty() || w.data() != next.data() || !std::isalpha(static_cast<unsigned char>(w[0])))
    return false;
  if (std::islower(static_cast<unsigned char>(w[0])) || w.substr(0, 3) == "O-O") return true;
  // A stock ticker's exchange suffix, one or two capitals ("(number 012750.KS)", "7203.T"), or a
  // code with digits; a longer word in capitals starts a sentence ("in 1998.NASA launched").
  std::string_view letters = w;
  while (!letters.empty() && !std::isalnum(static_cast<unsigned char>(letters.back())))
    letters.remove_suffix(1);
  const bool suffix = !letters.empty() && letters.size() <= 2 &&
                      std::all_of(letters.begin(), letters.end(), [](char c) {
                        return std::isupper(static_cast<unsigned char>(c));
                      });
  return suffix || std::any_of(w.begin(), w.end(),
                               [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "a U.S. Magistrate Judge", "the 1993 U.S. Base Realignment": a dotted country abbreviation after
// "a", "an" or a number is an adjective, never the end of a sentence, whatever word follows.
// (After "the" it may end one: "… in the U.S. The next …"; then only kNameWordsAfterCountry
// keep the sentence whole.)
bool IsCountryAdjective(std::string_view sentence) {
  size_t e = sentence.find_last_not_of(" \t\n");  // ICU's segment ends in the space after it
  if (e == std::string_view::npos || e < 4 || sentence[e] != '.' || sentence[e - 2] != '.')
    return false;
  std::string_view last = LastWord(sentence);
  if (std::find(kCountryAbbreviations.begin(), kCountryAbbreviations.end(), last) ==
      kCountryAbbreviations.end())
    return false;
  std::string_view before = LastWord(sentence.substr(0, sentence.rfind(last)));
  if (before == "a" || before == "an" || before == "A" || before == "An") return true;
  return !before.empty() && std::all_of(before.begin(), before.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// Words that commonly start an English sentence: determiners, pronouns, prepositions,
// conjunctions and sentence adverbs. Sorted, for binary search.
constexpr std::array<std::string_view, 101> kSentenceStarters = {
    "A",          "About",     "According", "After",     "Afterwards", "Again",  "Against",
    "All",        "Also",      "Although",  "Among",     "An",         "And",    "Another",
    "Any",        "As",        "At",        "Because",   "Before",     "Both",   "But",
    "By",         "Currently", "Despite",   "During",    "Each",       "Even",   "Eventually",
    "Every",      "Few",       "Finally",   "Following", "For",        "From",   "Furthermore",
    "He",         "Her",       "Here",      "His",       "However",    "I",      "If",
    "In",         "Indeed",    "Initially", "Instead",   "It",         "Its",    "Later",
    "Like",       "Many",      "Meanwhile", "Moreover",  "Most",       "My",     "Nevertheless",
    "No",         "Not",       "On",        "Once",      "One",        "Only",   "Or",
    "Originally", "Other",     "Our",       "Over",      "Several",    "She",    "Since",
    "So",         "Some",      "Soon",      "Still",     "Such",       "That",   "The",
    "Their",      "Then",      "There",     "These",     "They",       "This",   "Those",
    "Though",     "Through",   "Thus",      "Today",     "Under",      "Unlike", "Until",
    "We",         "What",      "When",      "Where",     "Whereas",    "Which",  "While",
    "Who",        "With",      "Within"};

// `w` (a word as split at spaces) is one of kSentenceStarters, with what punctuation or
// possessive follows it ("The", "However,", "It's").
bool StartsSentences(std::string_view w) {
  while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.remove_suffix(1);
  if (size_t apos = w.find('\''); apos != std::string_view::npos) w = w.substr(0, apos);
  return std::binary_search(kSentenceStarters.begin(), kSentenceStarters.end(), w);
}

// `next` opens a bracket of a few words that closes in it, holding no end mark and no lower-case
// word that title case would capitalise: a name ("(John Henry)", "(The Elder)"), not a sentence
// ("(The book was a best seller.)", "(In 1932 the vitamin was isolated.)"). Looks at 120 bytes.
bool BracketHoldsName(std::string_view next) {
  const size_t reach = std::min<size_t>(next.size(), 120);
  const size_t close = next.substr(0, reach).find(')');
  if (close == std::string_view::npos || close < 2) return false;
  const std::string_view inside = next.substr(1, close - 1);
  const char last = inside.back();
  if (last == '.' || last == '!' || last == '?' || last == ' ') return false;
  for (size_t k = inside.find(' '); k != std::string_view::npos; k = inside.find(' ', k + 1)) {
    size_t e = k + 1;
    while (e < inside.size() && inside[e] >= 'a' && inside[e] <= 'z') ++e;
    if (e > k + 1 && (e == inside.size() || !std::isalpha(static_cast<unsigned char>(inside[e]))) &&
        !IsTitleSmallWord(inside.substr(k + 1, e - k - 1)))
      return false;
  }
  return true;
}

// `last` is an initial ("J.") and `next`, the segment after it, a name of several words in
// brackets (BracketHoldsName) that goes on the name: "J. (John Henry) Smith", "Henry W. (The
// Elder) Longfellow" (review18); InitialContinues sees one word only.
bool InitialBeforeBracketedName(std::string_view last, std::string_view next) {
  return last.size() == 2 && last[1] == '.' && last[0] >= 'A' && last[0] <= 'Z' &&
         last[0] != 'I' && next.size() > 1 && next[0] == '(' && BracketHoldsName(next);
}

// "George H. Thomas", "J. A. Smith": a capital letter and a period is an initial, so the name
// goes on, unless the next word commonly starts a sentence or is an acronym: then the letter was
// a symbol or a name that ends the sentence ("high in Vitamin C. They have …", "the sets V and E.
// The set V …", "set V. Each pair …", "Nintendo's Wii U. IBM Secure Blue …").
bool InitialContinues(std::string_view next) {
  std::string_view w = FirstWord(next);
  // Another initial ("A.", "A.,"), with what punctuation follows it.
  if (w.size() >= 2 && w[1] == '.' && std::isupper(static_cast<unsigned char>(w[0])) &&
      (w.size() == 2 || !std::isalnum(static_cast<unsigned char>(w[2]))))
    return true;
  // "Still" is a surname ("Andrew T. Still", "A. T. Still University") more often than it starts
  // a sentence right after a single capital, where the adverb takes a comma ("C. Still, …").
  // Other starters that are also surnames ("Most", "Her") start sentences after symbol letters
  // more often ("Hepatitis B. Most people …", "Henry V. Her son …").
  if (w == "Still") return true;
  // A sentence in brackets after the letter: it was a symbol that ended its sentence ("… whose
  // interiors cover X. (The interiors of A and B need not be disjoint.)", set 23). A nickname
  // of one word in brackets goes on with the name ("B. F. (Fred) Skinner", set 5).
  // Several words in brackets are looked at by InitialBeforeBracketedName.
  if (w.size() >= 2 && w[0] == '(' && std::isupper(static_cast<unsigned char>(w[1])) &&
      w.find(')') == std::string_view::npos)
    return false;
  return !StartsSentences(w) && !IsAcronym(w);
}

// `next` starts with one capitalised word in quotation marks, straight or curly, and a capitalised
// word after it: a nickname inside a name ("\"Dick\" Bong", "\u201cTommy\u201d McGuire").
bool IsQuotedNickname(std::string_view next) {
  std::string_view w = FirstWord(next);
  size_t open = w.starts_with('"') ? 1 : w.starts_with("\u201c") ? 3 : 0;
  if (open == 0 || w.size() <= open || !std::isupper(static_cast<unsigned char>(w[open])))
    return false;
  if (!w.ends_with('"') && !w.ends_with("\u201d")) return false;
  const size_t end = static_cast<size_t>(w.data() - next.data()) + w.size();
  std::string_view after = FirstWord(next.substr(end));
  return !after.empty() && std::isupper(static_cast<unsigned char>(after[0]));
}

// "I." is no initial in general: it ends sentences as a numeral ("… World War I.", "Grade I.",
// "topoisomerase I."). It is one where no word of the sentence could carry a numeral: alone
// ("Professor. I. Matias monograph was prepared"), after a colon or a comma ("Eds.: I. Matias
// (leader)", "his stepfather, I. Fedotov, a soldier") or
// after a title ("Prof. I. Matias"); before a capitalised word that InitialContinues.
[[gnu::noinline]] bool IsInitialI(std::string_view sentence, std::string_view next) {
  std::string_view last = LastWord(sentence);
  std::string_view before =
      LastWord(sentence.substr(0, static_cast<size_t>(last.data() - sentence.data())));
  // Titles only: after "Vol." or "No." it is a numeral ("Vol. I. Chapter 3").
  static constexpr std::string_view kTitles[] = {"Dr.",  "Prof.", "Mr.",   "Mrs.", "Ms.",
                                                 "Rev.", "Gen.",  "Capt.", "Col.", "Lt."};
  // After a comma too, as in an apposition ("his stepfather, I. Fedotov, a soldier").
  if (!before.empty() && before.back() != ':' && before.back() != ',' &&
      std::find(std::begin(kTitles), std::end(kTitles), before) == std::end(kTitles)) {
    // After a capitalised given name it is an initial where a numeral would leave no sentence
    // ("George I. Sanchez, \"Arithmetic in Maya\", …": the name starts the sentence) or where a
    // nickname in quotation marks follows ("Majors Richard I. \"Dick\" Bong"); elsewhere a
    // monarch's numeral ends the sentence ("… united under Clovis I. Charlemagne, a Frankish
    // king …").
    if (!std::isupper(static_cast<unsigned char>(before[0]))) return false;
    // Words that take a numeral are no given names ("Phase I. Construction began …").
    static constexpr std::string_view kNumbered[] = {
        "Phase",  "Part",  "Stage", "Book",  "Volume",  "Chapter",  "Act",      "Title",
        "Type",   "Class", "Grade", "Level", "Section", "Article",  "Division", "Group",
        "Series", "Round", "Tier",  "Step",  "Period",  "Category", "Schedule", "Appendix"};
    if (std::find(std::begin(kNumbered), std::end(kNumbered), before) != std::end(kNumbered))
      return false;
    const size_t b = static_cast<size_t>(before.data() - sentence.data());
    if (!LastWord(sentence.substr(0, b)).empty() && !IsQuotedNickname(next)) return false;
  }
  return InitialContinues(next);
}

// Lower-case words that continue a name ("the U.N. Register on Conventional Weapons", "the U.S.
// Food and Drug Administration").
constexpr std::array<std::string_view, 9> kNameConnectors = {"and", "of", "for", "on", "de",
                                                             "du",  "la", "&",   "des"};

// "approved by the U.S. Food and Drug Administration", "the finals of the U.S. Chess
// Championship", "before U.S. Grant's force": a dotted country abbreviation before a capitalised
// word is part of a name, unless that word commonly starts a sentence ("… in the U.S. The next
// …") or, after a lower-case "the", is followed by a lower-case word that does not continue a
// name ("… and the U.S. Polk insisted …").
[[gnu::noinline]] bool CountryNameContinues(std::string_view sentence, std::string_view next) {
  std::string_view last = LastWord(sentence);
  if (last.size() != 4 || last[1] != '.' || last[3] != '.' ||
      std::find(kCountryAbbreviations.begin(), kCountryAbbreviations.end(), last) ==
          kCountryAbbreviations.end())
    return false;
  std::string_view w = FirstWord(next);
  if (w.empty() || !std::isupper(static_cast<unsigned char>(w[0]))) return false;
  if (StartsSentences(w)) return false;
  // A number word starts a sentence, whatever follows it ("… an import in the U.S. Two of the
  // three songs …": "of" after it is no name's).
  static constexpr std::string_view kNumberWords[] = {"Two",   "Three", "Four", "Five", "Six",
                                                      "Seven", "Eight", "Nine", "Ten"};
  if (std::find(std::begin(kNumberWords), std::end(kNumberWords), w) != std::end(kNumberWords))
    return false;
  std::string_view before =
      LastWord(sentence.substr(0, static_cast<size_t>(last.data() - sentence.data())));
  // "the D.C. Council voted": after "the", "D.C." names a local body, not a place at the end.
  if (before != "the" || last == "D.C.") return true;
  std::string_view after =
      FirstWord(next.substr(static_cast<size_t>(w.data() - next.data()) + w.size()));
  if (after.empty() || !std::islower(static_cast<unsigned char>(after[0]))) return true;
  return std::find(kNameConnectors.begin(), kNameConnectors.end(), after) != kNameConnectors.end();
}

// A chess move in algebraic notation, with an optional move number ("25.Qd5", "24...fxe3"),
// check or mate sign and annotation marks ("Ng3+!", "Rxc8+!!", "O-O"). `w` has no spaces.
bool IsChessMove(std::string_view w) {
  size_t d = 0;
  while (d < w.size() && std::isdigit(static_cast<unsigned char>(w[d]))) ++d;
  if (d > 0) {
    if (d == w.size() || w[d] != '.') return false;
    while (d < w.size() && w[d] == '.') ++d;
    w.remove_prefix(d);
  }
  while (!w.empty() && (w.back() == '!' || w.back() == '?' || w.back() == ',' || w.back() == '.' ||
                        w.back() == ';'))
    w.remove_suffix(1);
  if (!w.empty() && (w.back() == '+' || w.back() == '#')) w.remove_suffix(1);
  if (w == "O-O" || w == "O-O-O") return true;
  if (w.size() >= 2 && w[w.size() - 2] == '=') w.remove_suffix(2);  // promotion "e8=Q"
  if (!w.empty() && std::strchr("KQRBN", w[0]) != nullptr) w.remove_prefix(1);
  auto file = [](char c) { return c >= 'a' && c <= 'h'; };
  auto rank = [](char c) { return c >= '1' && c <= '8'; };
  if (w.size() < 2 || !file(w[w.size() - 2]) || !rank(w.back())) return false;
  w.remove_suffix(2);
  if (!w.empty() && w.back() == 'x') w.remove_suffix(1);
  if (!w.empty() && rank(w.back())) w.remove_suffix(1);
  if (!w.empty() && file(w.back())) w.remove_suffix(1);
  return w.empty();
}

// The number of chess moves in `sentence` when every word is a chess move, a move number or a
// result ("Qxf7 31.Qc8+ Qe8 … 48.Ke1!", "1.", "1–0"); -1 when a word is not.
int GameScoreMoves(std::string_view sentence) {
  // Most sentences start with a letter no move starts with.
  char c0 = sentence.empty() ? ' ' : sentence[0];
  if (!(c0 >= '0' && c0 <= '9') && !(c0 >= 'a' && c0 <= 'h') && c0 != 'K' && c0 != 'Q' &&
      c0 != 'R' && c0 != 'B' && c0 != 'N' && c0 != 'O')
    return -1;
  int moves = 0;
  for (size_t b = 0; b < sentence.size();) {
    size_t e = sentence.find(' ', b);
    if (e == std::string_view::npos) e = sentence.size();
    std::string_view w = sentence.substr(b, e - b);
    b = e + 1;
    if (w.empty()) continue;
    if (IsChessMove(w)) {
      ++moves;
      continue;
    }
    size_t d = 0;
    while (d < w.size() && std::isdigit(static_cast<unsigned char>(w[d]))) ++d;
    bool number = d > 0 && d < w.size() && w.find_first_not_of('.', d) == std::string_view::npos;
    if (!number && w != "1\u20130" && w != "0\u20131" && w != "\u00bd\u2013\u00bd" && w != "1-0" &&
        w != "0-1")
      return -1;
  }
  return moves;
}

// Game scores are not prose: a paragraph of moves (at least two) goes, and so does a sentence of
// moves inside prose.
void DropGameScores(std::vector<std::string>* sentences) {
  int total = 0, with_moves = 0;
  bool all = true;
  for (const auto& s : *sentences) {
    int m = GameScoreMoves(s);
    all = all && m >= 0;
    total += std::max(m, 0);
    with_moves += m >= 2;
  }
  if (all && total >= 2)
    sentences->clear();
  else if (with_moves > 0)
    std::erase_if(*sentences, [](const std::string& s) { return GameScoreMoves(s) >= 2; });
}

// "鼠 (子) Rat - 05.": a sentence that ends in a dash and a number with its period is an item of
// a numbered list run into one line and cut at its numbers ("A. 01. 鼠 (子) Rat - 05. 龍 (辰)
// Dragon - 09. 猴 (申) Monkey; B. 02. …", a zodiac table of "List of kanji by concept").
bool EndsInDashedNumber(std::string_view s) {
  if (s.size() < 5 || s.back() != '.') return false;
  size_t k = s.size() - 1;
  const size_t digits_end = k;
  while (k > 0 && std::isdigit(static_cast<unsigned char>(s[k - 1]))) --k;
  if (k == digits_end || k < 3 || s[k - 1] != ' ') return false;
  std::string_view before = s.substr(0, k - 1);
  return before.ends_with(" -") || before.ends_with(" \u2013");
}

// A word of prose: one that starts with a lower-case letter ("was", "the"). The items of such a
// list are names and numbers; "The final score was 5 - 3." is prose.
bool HasLowerCaseWord(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] >= 'a' && s[i] <= 'z' && (i == 0 || s[i - 1] == ' ')) return true;
  return false;
}

// Such a list is not prose: a paragraph with three or more such items goes whole.
void DropNumberedRuns(std::vector<std::string>* sentences) {
  if (sentences->size() < 3) return;
  int items = 0;
  for (const auto& s : *sentences) items += EndsInDashedNumber(s) && !HasLowerCaseWord(s);
  if (items >= 3) sentences->clear();
}

// An enumeration's number that ICU cut off as a sentence of its own: "Notes: 1. Astronomical
// Easter is …<br /> 2. Passover commences …" (Easter's table note) is stored as "Notes: 1." |
// "Astronomical Easter is …" | "2." | "Passover …". The number (1–2 digits and a period, alone or
// after "Note:" or "Notes:") is no sentence and goes; the items stay as they were stored.
bool IsListNumberAlone(std::string_view s) {
  if (s.starts_with("Notes: "))
    s.remove_prefix(7);
  else if (s.starts_with("Note: "))
    s.remove_prefix(6);
  return (s.size() == 2 || s.size() == 3) && s.back() == '.' &&
         std::all_of(s.begin(), s.end() - 1,
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "32.c6 Ng3+! 33.Kxf2", "After 30.Qxe8+? Kxe8": "!" and "?" after a chess move annotate it; they
// end no sentence when a move or a move number follows.
[[gnu::noinline]] bool IsChessAnnotation(std::string_view sentence, std::string_view next) {
  std::string_view last = LastWord(sentence);
  if (last.empty() || (last.back() != '!' && last.back() != '?') || !IsChessMove(last))
    return false;
  std::string_view w = FirstWord(next);
  if (w.empty()) return false;
  if (IsChessMove(w)) return true;
  size_t d = 0;
  while (d < w.size() && std::isdigit(static_cast<unsigned char>(w[d]))) ++d;
  return d > 0 && d < w.size() && w[d] == '.';
}

// True when the quotation closing at `q` in `next` ends in a short piece (`inside`, at most six
// words: `No,`, a title's second half) and words follow it (`No," he said.`): the "?" or "!"
// before `next` is then inside a sentence that goes on.
bool ShortQuotedTail(std::string_view next, size_t q, size_t mark_size) {
  std::string_view inside = next.substr(0, q);
  int words = 0;
  for (size_t k = 0; k < inside.size(); ++k)
    if (inside[k] != ' ' && (k == 0 || inside[k - 1] == ' ') && ++words > 6) return false;
  std::string_view tail = next.substr(q + mark_size);
  return std::any_of(tail.begin(), tail.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

// Quotation marks in the sentence being built, counted once per byte however many boundaries it
// is merged across (so that a paragraph of merges stays linear).
struct QuoteCount {
  size_t upto = 0;  // text[start, upto) is counted
  size_t straight = 0, open = 0, close = 0;

  void CountUpTo(std::string_view text, size_t end) {
    for (; upto < end; ++upto) {
      if (text[upto] == '"') {
        ++straight;
      } else if (text[upto] == '\xE2' && upto + 2 < end && text[upto + 1] == '\x80') {
        open += text[upto + 2] == '\x9C';   // U+201C
        close += text[upto + 2] == '\x9D';  // U+201D
      }
    }
  }
};

// `Robert Phiddian's article "Have you eaten yet? The Reader in A Modest Proposal" focuses on`,
// `"Was this achieved by racial whitening? No," he said.`: a "?" or "!" inside a quotation that
// closes soon after it, in a sentence that goes on, ends no sentence. A quotation of whole
// sentences is split as sentences are (`"How is New Orleans different …? | New Orleans is known
// as …," she says.`). `quotes` counts the quotation marks of the sentence.
[[gnu::noinline]] bool ContinuesInsideQuote(const QuoteCount& quotes, std::string_view next) {
  if (quotes.straight % 2 == 1) {
    // The first quotation mark in `next` must close ("prize\","), not open ("that \"reviewers").
    size_t q = next.find('"');
    return q != std::string_view::npos && (q == 0 || next[q - 1] != ' ') &&
           ShortQuotedTail(next, q, 1);
  }
  size_t q = next.find("\u201d");
  return quotes.open > quotes.close && q != std::string_view::npos && ShortQuotedTail(next, q, 3);
}

// An ellipsis marks words left out of a quotation. It ends no sentence when the quotation opens
// right before it (`Einstein wrote, "... I must confess`), or when the quotation is open and
// closes in the next segment with the outer sentence going on (`"the most spiritually awakened
// person ... I have ever known", and …`). A quotation of whole sentences is still split as
// sentences are (`"… attitude to life... The American is friendly …"`). An ellipsis alone (a
// quotation that starts in the middle) belongs to the sentence after it.
bool EndsInEllipsis(std::string_view word) {
  return word.size() >= 3 &&
         (word.substr(word.size() - 3) == "..." || word.substr(word.size() - 3) == "\u2026");
}
// `"...` or `“…`: a quotation mark and an ellipsis.
bool OpensWithEllipsis(std::string_view word) {
  if (!word.empty() && word[0] == '"')
    word.remove_prefix(1);
  else if (word.substr(0, 3) == "\u201c")
    word.remove_prefix(3);
  else
    return false;
  return word == "..." || word == "\u2026";
}
// True when `sentence` is `word` and white space.
bool IsWholeSentence(std::string_view sentence, std::string_view word) {
  size_t b = sentence.find_first_not_of(" \t\n");
  return b != std::string_view::npos && sentence.substr(b, word.size()) == word &&
         sentence.find_first_not_of(" \t\n", b + word.size()) == std::string_view::npos;
}
// Inside a quotation, one word and an ellipsis is no sentence but speech trailing off at its
// first word, which the rest continues (`"… [from Vietnam]. But... I do not believe he knew …"`):
// "But..." or "But ...", after an opening quotation mark or not. Outside one it may stand alone
// ("Wait... What? No!"). `paragraph_quotes` counts the quotation marks of the paragraph up to the
// boundary, which tell whether a quotation is open there.
bool IsOneWordTrailingOff(std::string_view sentence, std::string_view last,
                          const QuoteCount& paragraph_quotes) {
  const size_t b = sentence.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return false;
  sentence = sentence.substr(b, sentence.rfind(last) + last.size() - b);  // trimmed
  std::string_view word = sentence;
  if (last == "..." || last == "\u2026") {  // "But ...": the word before the lone ellipsis
    word = sentence.substr(0, sentence.size() - last.size());
    while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
  } else {
    word = sentence.substr(0, sentence.size() - 3);
  }
  if (word.empty() || word.find(' ') != std::string_view::npos) return false;
  if (word[0] == '"')
    word.remove_prefix(1);
  else if (word.starts_with("\u201c"))
    word.remove_prefix(3);
  const unsigned char c = word.empty() ? ' ' : static_cast<unsigned char>(word[0]);
  if (!std::isalpha(c) && c < 0x80) return false;
  return paragraph_quotes.straight % 2 == 1 || paragraph_quotes.open > paragraph_quotes.close;
}
bool ContinuesAfterElision(const QuoteCount& quotes, std::string_view next) {
  size_t q = std::string_view::npos, size = 1;
  if (quotes.straight % 2 == 1) {
    q = next.find('"');
    if (q == 0 || (q != std::string_view::npos && next[q - 1] == ' ')) return false;
  } else if (quotes.open > quotes.close) {
    q = next.find("\u201d");
    size = 3;
  }
  if (q == std::string_view::npos) return false;
  // The outer sentence goes on: ", and", "; then", "); a lower-case word.
  std::string_view tail = next.substr(q + size);
  size_t t = tail.find_first_not_of(" '\"");
  if (t == std::string_view::npos) return false;
  char c = tail[t];
  return c == ',' || c == ';' || c == ':' || c == ')' || (c >= 'a' && c <= 'z');
}

// The words that title case leaves in lower case ("Dance with Wolves", "Vie de la Vierge").
bool IsTitleSmallWord(std::string_view w) {
  static constexpr std::array<std::string_view, 24> kSmall = {
      "a",  "an", "and", "as",  "at", "but", "by", "de",  "del", "der", "du",  "for",
      "in", "la", "le",  "nor", "of", "on",  "or", "the", "to",  "und", "von", "with"};
  return std::find(kSmall.begin(), kSmall.end(), w) != kSmall.end();
}

// `his first feature "Carlos Morales: Exposed. Home Movies Vol 1." and working on …`, `the film
// "Kyiv. Limited Edition", which …`, `("Rome. De l'Imprimerie du Vatican, 1787")`: a period
// inside a quotation that opened in `sentence` on a title (at most eight words in title case:
// each capitalised, a number, or a small word) and closes in the next segment after a short piece
// (at most six words), with the outer sentence going on right after the closing mark (",", ";",
// ":", ")" or a lower-case word), is a title's or an imprint's, not a sentence end (twenty-fourth
// set). Speech is split inside the quotation as before (`"Out of detent. | Auto" and Aldrin
// continued`, `"For sure. | We're trying," he added`), as is a quotation of whole sentences
// followed by a new one (`"I came. I saw." Then …`). `quotes` counts the sentence's marks.
// Bounded: the title is looked for in the sentence's last 160 bytes.
[[gnu::noinline]] bool PeriodInsideShortQuote(std::string_view sentence, const QuoteCount& quotes,
                                              std::string_view next) {
  size_t q = std::string_view::npos, size = 1;
  size_t e = sentence.find_last_not_of(" \t\n");
  if (e == std::string_view::npos || sentence[e] != '.') return false;
  const size_t from = e > 160 ? e - 160 : 0;
  const std::string_view tail = sentence.substr(from, e - from);  // before the period
  size_t open = std::string_view::npos, open_size = 1;
  if (quotes.straight % 2 == 1) {
    q = next.find('"');
    if (q == 0 || (q != std::string_view::npos && next[q - 1] == ' ')) return false;
    open = tail.rfind('"');
  } else if (quotes.open > quotes.close) {
    q = next.find("\u201d");
    size = 3;
    open = tail.rfind("\u201c");
    open_size = 3;
  }
  if (q == std::string_view::npos || open == std::string_view::npos) return false;
  // A mark glued to a word after it, or after a bracket, opens a quotation (`I said blue ("ao"
  // in Japanese).`): the one open before the period goes on past `next`.
  if (q + size < next.size() && std::isalnum(static_cast<unsigned char>(next[q + size])))
    return false;
  if (q > 0 && (next[q - 1] == '(' || next[q - 1] == '[')) return false;
  int words = 0;
  for (size_t k = 0; k < q; ++k)
    if (next[k] != ' ' && (k == 0 || next[k - 1] == ' ') && ++words > 6) return false;
  // The title before the period.
  const std::string_view title = tail.substr(open + open_size);
  if (title.empty() || title[0] == ' ') return false;
  words = 0;
  for (size_t k = 0; k < title.size(); ++k) {
    if (title[k] == ' ' || (k > 0 && title[k - 1] != ' ')) continue;
    if (++words > 8) return false;
    size_t w = k;
    while (w < title.size() && title[w] != ' ') ++w;
    const std::string_view word = title.substr(k, w - k);
    const unsigned char c = static_cast<unsigned char>(word[0]);
    if (!(std::isupper(c) || std::isdigit(c) || c >= 0x80 || (words > 1 && IsTitleSmallWord(word))))
      return false;
  }
  return ContinuesAfterElision(quotes, next);
}

// The ellipsis rules above, for a boundary after `last` (a word ending in an ellipsis), with the
// sentence's quotation marks counted: out of line, as few boundaries need them.
[[gnu::noinline]] bool ContinuesAtEllipsis(std::string_view sentence, std::string_view last,
                                           std::string_view next, const QuoteCount& quotes,
                                           const QuoteCount& paragraph_quotes) {
  return OpensWithEllipsis(last) ||
         ((last == "..." || last == "\u2026") && IsWholeSentence(sentence, last)) ||
         IsOneWordTrailingOff(sentence, last, paragraph_quotes) ||
         ContinuesAfterElision(quotes, next);
}

// A word of a law report's citation between its volume and its page ("483 F 3d. 475", "347
// U.S. 483", "74 S. Ct. 686", "98 L. Ed. 873", "123 F. Supp. 2d 456", "9 N.E.2d. 12"): ASCII
// letters, digits and periods, at most 8 bytes, starting with a capital or a digit. `strong`:
// a capital alone ("F", "S."), dotted capitals ("U.S.", "N.E.2d"), or a series ("3d.", "2d",
// "4th", "F.3d"), which a word of prose seldom is.
bool IsReporterWord(std::string_view w, bool* strong) {
  if (w.empty() || w.size() > 8) return false;
  const auto u = [&](size_t k) { return static_cast<unsigned char>(w[k]); };
  if (!std::isupper(u(0)) && !std::isdigit(u(0))) return false;
  for (size_t k = 0; k < w.size(); ++k)
    if (!std::isalnum(u(k)) && w[k] != '.') return false;
  std::string_view b = w.back() == '.' ? w.substr(0, w.size() - 1) : w;
  if (b.empty()) return false;
  // A series ends the word: digits and "d", "nd", "rd", "th" or "st".
  size_t e = b.size();
  while (e > 0 && std::islower(static_cast<unsigned char>(b[e - 1]))) --e;
  const std::string_view suffix = b.substr(e);
  size_t d = e;
  while (d > 0 && std::isdigit(static_cast<unsigned char>(b[d - 1]))) --d;
  if (d < e &&
      (suffix == "d" || suffix == "nd" || suffix == "rd" || suffix == "th" || suffix == "st")) {
    *strong = true;
    b = b.substr(0, d);
    if (b.empty()) return true;
    if (b.back() == '.') b.remove_suffix(1);  // "N.E.2d", "F.3d"
  }
  if (b.empty() || std::isdigit(static_cast<unsigned char>(b[0]))) return false;
  // "F", "U.S", "N.E": capitals alone, dotted.
  bool capitals = true;
  for (size_t k = 0; k < b.size(); ++k)
    if (k % 2 == 0 ? !std::isupper(static_cast<unsigned char>(b[k])) : b[k] != '.')
      capitals = false;
  if (capitals) {
    *strong = true;
    return true;
  }
  // Else an abbreviated word with its period ("Ct.", "Supp.", "App."): a capital, then lower case.
  if (w.back() != '.' && d == e) return false;
  for (size_t k = 1; k < b.size(); ++k)
    if (!std::islower(static_cast<unsigned char>(b[k]))) return false;
  return b.size() <= 5;
}

// True when the period that ends `before` (its last word, trailing spaces allowed) is inside a
// law report's citation: a volume number, one to three reporter words, at least one of them a
// capital or a series (IsReporterWord), then `rest` (the text after the boundary) starts with a
// digit: the page, or a series and the page ("41 So. 2d 456"). "… won 3 Cups. 475 fans came",
// "… won 3 Cups. 2nd place went …" and "… in 2007. 51 F. Supp. …" end sentences as before.
[[gnu::noinline]] bool IsReporterCitation(std::string_view before, std::string_view rest) {
  if (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0]))) return false;
  bool strong = false;
  if (const std::string_view series = FirstWord(rest); IsReporterWord(series, &strong) && strong) {
    const std::string_view page = FirstWord(rest.substr(series.size()));
    strong = !page.empty() && std::isdigit(static_cast<unsigned char>(page[0]));
  }
  for (int words = 0; words <= 3; ++words) {
    std::string_view w = LastWord(before);
    if (w.empty()) return false;
    if (words > 0 && w.size() <= 4 && w.find_first_not_of("0123456789") == std::string_view::npos)
      return strong;
    if (words == 3 || !IsReporterWord(w, &strong)) return false;
    before = before.substr(0, static_cast<size_t>(w.data() - before.data()));
  }
  return false;
}

// A classical citation's numbers, each with its period: book, poem and line ("Horace, Satires I.
// 4. 85.", "Livy 21. 4. 9"), twenty-first held-out set. A boundary after `before` (trailing spaces
// allowed) is inside one when three numbers stand in a row there, each but the last with a
// period: a Roman or Arabic number before a number with its period and a number, or a number
// between such a number and a number. A period before one number alone ends a sentence ("… in
// 1985. 4 people came", "… World War I. 4 divisions"), as does one before a word ("1. Mix it.").
[[gnu::noinline]] bool IsCitationNumbers(std::string_view before, std::string_view rest) {
  if (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0]))) return false;
  // "4.", "85.", "I.", "XIV.", "iv.": a number of at most four digits, or a Roman one.
  auto numbered = [](std::string_view w, bool roman) {
    w = StripOpening(w);
    if (w.size() < 2 || w.size() > 7 || w.back() != '.') return false;
    w.remove_suffix(1);
    if (w.size() <= 4 && std::all_of(w.begin(), w.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        }))
      return true;
    return roman && ((w.find_first_not_of("IVXLC") == std::string_view::npos) ||
                     IsLowerRomanNumeral(w));
  };
  const std::string_view last = LastWord(before);
  if (!numbered(last, true)) return false;
  const std::string_view next = FirstWord(rest);
  // "I. 4. 85": the next word a number with its period, a number after it.
  if (numbered(next, false)) {
    const std::string_view after =
        FirstWord(rest.substr(static_cast<size_t>(next.data() - rest.data()) + next.size()));
    if (!after.empty() && std::isdigit(static_cast<unsigned char>(after[0]))) return true;
  }
  // "I. 4. | 85": the last word a number, a numbered word before it.
  if (!numbered(last, false)) return false;
  return numbered(LastWord(before.substr(0, static_cast<size_t>(last.data() - before.data()))),
                  true);
}

// "… except for *ʄ. *ʄ is better preserved …", "… pronunciations. [d͡ʒ] is characteristic …",
// "… as /ʃ/. /ʒ/ is …": a sound in IPA, starred (a reconstructed form), in square brackets or in
// slashes, then a space, starts a sentence that ICU runs on (it reads the lower-case letter as a
// continuation). `s` starts at the "*", "[" or "/". The sound holds no space, no capital and no
// digit, and a letter outside ASCII (an editor's word in a quotation, "... [and] he called", is
// all ASCII); at most 40 bytes. An abbreviation or an ellipsis before it ("cf. *ʄ") is looked at
// by the caller.
bool StartsWithSound(std::string_view s) {
  if (s.size() < 3) return false;
  const char open = s[0];
  const char close = open == '[' ? ']' : open == '/' ? '/' : ' ';
  size_t k = 1;
  bool ipa = false;
  while (k < s.size() && k <= 40 && s[k] != close) {
    const auto c = static_cast<unsigned char>(s[k]);
    if (c == ' ' || c == '\t' || c == '\n' || std::isupper(c) || std::isdigit(c)) return false;
    if (c < 0x80) {
      ++k;
      continue;
    }
    // A letter outside ASCII (ʄ, ʒ, ɛ), not any non-ASCII character: "[…]", "[†]", "*†" are marks.
    int32_t i = static_cast<int32_t>(k);
    UChar32 cp;
    U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), i, static_cast<int32_t>(s.size()), cp);
    if (cp >= 0 && u_isalpha(cp)) ipa = true;
    k = static_cast<size_t>(i);
  }
  if (!ipa || k >= s.size() || s[k] != close) return false;
  if (open != '*') ++k;
  return k + 1 < s.size() && s[k] == ' ' && s[k + 1] != ' ';
}

// ICU does not break before a sentence that starts with a digit ("... in 2011. 51% of ...") or
// with a sound (StartsWithSound). Splits `segment` after ". " (or "?", "!", closing quotes)
// followed by a digit or a sound, unless the word before the period is an abbreviation ("No. 5",
// "p. 23"), a law report's volume and reporter come before a digit (IsReporterCitation), an
// ellipsis comes before a sound, or a round bracket is open. `slowly`: the reference
// (SplitSlowly), which tests every byte and counts brackets from the start anew.
void SplitBeforeDigitsAndSounds(std::string_view segment, bool slowly,
                                std::vector<std::string_view>* parts) {
  size_t start = 0;
  // Round brackets opened and not closed in segment[start, counted): counted only when a split
  // is about to be made, each byte once, so that the scan of every byte stays as cheap as it was.
  size_t counted = 0;
  int open = 0;
  // The next ".", "?" or "!" at or after `from` (before the last two bytes); most sentences hold
  // no "?" or "!", and then memchr finds the periods.
  const size_t end = segment.size() < 2 ? 0 : segment.size() - 2;
  const bool marks = std::memchr(segment.data(), '?', segment.size()) != nullptr ||
                     std::memchr(segment.data(), '!', segment.size()) != nullptr;
  auto next_terminator = [&](size_t from) -> size_t {
    if (from >= end) return std::string_view::npos;
    if (!marks && !slowly) {
      const void* p = std::memchr(segment.data() + from, '.', end - from);
      return p ? static_cast<size_t>(static_cast<const char*>(p) - segment.data())
               : std::string_view::npos;
    }
    for (size_t i = from; i < end; ++i)
      if (segment[i] == '.' || segment[i] == '?' || segment[i] == '!') return i;
    return std::string_view::npos;
  };
  for (size_t i = next_terminator(0); i != std::string_view::npos; i = next_terminator(i + 1)) {
    char c = segment[i];
    size_t j = i + 1;
    while (j < segment.size() && (segment[j] == '"' || segment[j] == '\'' || segment[j] == ')'))
      ++j;
    if (j >= segment.size() || segment[j] != ' ') continue;
    size_t k = j;
    while (k < segment.size() && segment[k] == ' ') ++k;
    if (k >= segment.size()) continue;
    // A quoted number starts a sentence too ("… yaoi is 801. \"801\" can be read as …",
    // twenty-fourth held-out set).
    const bool digit = std::isdigit(static_cast<unsigned char>(segment[k])) ||
                       (segment[k] == '"' && k + 1 < segment.size() &&
                        std::isdigit(static_cast<unsigned char>(segment[k + 1])));
    if (!digit && !((segment[k] == '*' || segment[k] == '[' || segment[k] == '/') &&
                    StartsWithSound(segment.substr(k))))
      continue;
    std::string_view before = LastWord(std::string_view(segment).substr(start, j - start));
    const std::string_view next = FirstWord(std::string_view(segment).substr(k));
    if (c == '.' && (IsAbbreviation(before, next) ||
                     IsImperialUnitAfterNumber(segment.substr(start, j - start), next)))
      continue;
    if (!digit && EndsInEllipsis(before)) continue;
    if (c == '.' && digit && j == i + 1 &&
        (IsReporterCitation(segment.substr(start, j - start), segment.substr(k)) ||
         IsCitationNumbers(segment.substr(start, j - start), segment.substr(k))))
      continue;
    if (c != '.' && IsChessAnnotation(segment.substr(start, j - start), segment.substr(k)))
      continue;
    // Inside a bracket a number after a period is a citation's, not a sentence's start:
    // "(533 U.S. 27)", "(7th Cir. 2007)".
    if (slowly) counted = start, open = 0;  // the reference counts from the start every time
    for (; counted < i; ++counted) {
      if (segment[counted] == '(') ++open;
      if (segment[counted] == ')' && open > 0) --open;
    }
    if (open > 0) continue;
    parts->push_back(segment.substr(start, j - start));
    start = k;
    counted = k;
    open = 0;
  }
  parts->push_back(segment.substr(start));
}

}  // namespace

SentenceSplitter::SentenceSplitter() : impl_(std::make_unique<Impl>()) {
  UErrorCode status = U_ZERO_ERROR;
  impl_->iter.reset(icu::BreakIterator::createSentenceInstance(icu::Locale::getEnglish(), status));
}

SentenceSplitter::~SentenceSplitter() = default;

namespace {

// Whether `text` holds kNoSentenceBreak (E2 81 A0): found by its middle byte, rare in text
// (memchr is many times faster than memmem here).
bool HoldsNoBreakMark(std::string_view text) {
  const char* p = text.data();
  const char* end = p + text.size();
  while (const void* hit = p < end ? std::memchr(p, 0x81, static_cast<size_t>(end - p)) : nullptr) {
    const char* m = static_cast<const char*>(hit);
    if (m > text.data() && m + 1 < end &&
        (std::string_view(m - 1, 3) == kNoSentenceBreak ||
         std::string_view(m - 1, 3) == kSentenceBreak))
      return true;
    p = m + 1;
  }
  return false;
}

// Whether s[0, end) ends in a "!", "?", "." or an ellipsis ("..." or "\u2026"): the marks after
// which CleanWikitext puts kNoSentenceBreak (a "." only inside a link's text).
bool EndsInMarkable(std::string_view s, size_t end) {
  if (end == 0) return false;
  const char c = s[end - 1];
  return c == '!' || c == '?' || c == '.' ||
         (end >= 3 && (s.substr(end - 3, 3) == "..." || s.substr(end - 3, 3) == "\u2026"));
}

// "Battle!\u2060", "On...\u2060": a "!", "?" or ellipsis that CleanWikitext marked as ending no
// sentence.
bool EndsWithNoBreakMark(std::string_view word) {
  return word.size() > kNoSentenceBreak.size() && word.ends_with(kNoSentenceBreak) &&
         EndsInMarkable(word, word.size() - kNoSentenceBreak.size());
}

// `s` without the kNoSentenceBreak marks that follow a "!", "?", "." or an ellipsis, or that
// stand between an italic variable and its period ("under G\u2060. Using", see CleanWikitext),
// and without kSentenceBreak (a "Jr." before a reference).
std::string WithoutNoBreakMarks(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t m = s.find(kNoSentenceBreak, i);
    if (m == std::string_view::npos) m = s.size();
    // Every kSentenceBreak goes: the source's were removed before (WithoutSentenceBreaks), so
    // each is CleanWikitext's, one whose "Jr." a dropped link took with it included.
    for (size_t b = s.substr(0, m).find(kSentenceBreak, i); b != std::string_view::npos;
         b = s.substr(0, m).find(kSentenceBreak, i)) {
      out.append(s.substr(i, b - i));
      i = b + kSentenceBreak.size();
    }
    if (i >= s.size()) break;
    out.append(s.substr(i, m - i));
    const size_t after = m + kNoSentenceBreak.size();
    if (m < s.size() && !EndsInMarkable(s, m) && !(after < s.size() && s[after] == '.'))
      out.append(kNoSentenceBreak);  // a word joiner of the source, kept as written
    i = m + kNoSentenceBreak.size();
  }
  return out;
}

// "(violation of can. 1452 CCEO)", "Ukraine (Ukrainian: Україна, tr. Ukrayina), sometimes …",
// "(Ukrainian: Український дім. Міжнародний конгрес-центр)": no sentence ends inside a round
// bracket that opened within `sentence` (not at its start) and closes later in the paragraph
// (`rest` is the text after the boundary) when what lies between the boundary and the ")" is no
// sentence: at most 12 words and 192 bytes, at most one word starting in lower case. A bracket that
// holds whole sentences ("(… as slaves. They were taken from Africa by force)") is split as before.
// A bracket opening the sentence counts only before a number (below).
[[gnu::noinline]] bool ContinuesInsideBracket(std::string_view sentence, std::string_view rest) {
  // The ")" must come within 192 bytes (a dozen short words): without one there, nothing else
  // needs looking at.
  const size_t window = std::min<size_t>(rest.size(), 192);
  if (std::memchr(rest.data(), ')', window) == nullptr) return false;
  const void* last = memrchr(sentence.data(), '(', sentence.size());
  if (last == nullptr) return false;
  size_t open = static_cast<size_t>(static_cast<const char*>(last) - sentence.data());
  if (std::memchr(sentence.data() + open, ')', sentence.size() - open) != nullptr) {
    // The last bracket closes: an earlier one may still be open ("(… Лебедзева (кіраўнік), В.").
    int closed = 0;
    size_t i = open;
    while (i-- > 0 && !(sentence[i] == '(' && closed-- == 0)) closed += sentence[i] == ')';
    if (i == static_cast<size_t>(-1)) return false;
    open = i;
  }
  // A bracket opening the sentence may hold sentences ("(He died in 1900. His son …)"); but a
  // number right after the boundary is a citation's ("(Q. Review VIII. 72, 1812)", a journal's
  // volume and page), as SplitBeforeDigitsAndSounds holds where ICU does not break.
  if (sentence.find_first_not_of(" \t\n\"'") == open &&
      (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0]))))
    return false;
  const auto* p = reinterpret_cast<const uint8_t*>(rest.data());
  const int32_t n = static_cast<int32_t>(window);
  int depth = 0, words = 0, lower = 0;
  bool in_word = false, cased = false;  // inside a word; its first letter seen
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c == '(') ++depth;
    if (c == ')' && depth-- == 0) return true;
    if (c == ' ' || c == '\t' || c == '\n' || c == 0xA0) {
      in_word = false;
      continue;
    }
    if (!in_word) {
      in_word = true;
      cased = false;
      if (++words > 12) return false;
    }
    if (!cased && c > 0 && u_isalpha(c)) {
      cased = true;
      if (u_islower(c) && ++lower > 1) return false;
    }
  }
  return false;
}

// "(Matias I. Archival Ukrainika in Canada: … - K.: Horobets, 2008. - 152 p.: ill.)", "(… State
// Committee of Ukraine. URIAR; Editorial: IB Matias (chairman) and others., K. 2008. - c. 680)":
// a bracket that ends in a page count after a dash, as a library reference (GOST style: "- 152
// p.", "- 168 с.", "- c. 680") ends, is a book reference, and no sentence ends inside it however
// many words it holds. Both ends are looked for within 640 bytes of the boundary.
// Whether `b` (a bracket's content) ends in such a page count: "- 152 p.", "- c. 680", "- 168 с.",
// with ": ill." after it or not.
bool EndsInPageCount(std::string_view b) {
  auto trim = [&]() {
    while (!b.empty() && b.back() == ' ') b.remove_suffix(1);
  };
  auto strip = [&](std::string_view end) {
    if (!b.ends_with(end)) return false;
    b.remove_suffix(end.size());
    trim();
    return true;
  };
  auto digits = [&]() {
    size_t n = 0;
    while (!b.empty() && std::isdigit(static_cast<unsigned char>(b.back())))
      b.remove_suffix(1), ++n;
    trim();
    return n > 0;
  };
  auto page = [&]() { return strip("pp.") || strip("p.") || strip("c.") || strip("\u0441."); };
  trim();
  strip(": ill.");
  const bool count = page() ? digits() : digits() && page();  // "152 p." or "c. 680"
  return count && (strip("-") || strip("\u2013"));
}

[[gnu::noinline]] bool InsideReferenceBracket(std::string_view sentence, std::string_view rest) {
  constexpr size_t kReach = 640;
  // Most boundaries have no ")" ending a page count ahead: each ")" is found by memchr and only
  // such a one is looked at further.
  const size_t reach = std::min(rest.size(), kReach);
  size_t close = 0;
  for (size_t from = 0;; from = close + 1) {
    const void* hit = from < reach ? std::memchr(rest.data() + from, ')', reach - from) : nullptr;
    if (hit == nullptr) return false;
    close = static_cast<size_t>(static_cast<const char*>(hit) - rest.data());
    if (EndsInPageCount(rest.substr(0, close))) break;
  }
  // That ")" must close the bracket open at the boundary, and the bracket open in the sentence.
  int depth = 0;
  for (size_t k = 0; k < close; ++k) {
    if (rest[k] == '(') ++depth;
    if (rest[k] == ')' && depth-- == 0) return false;
  }
  if (depth != 0) return false;
  size_t k = sentence.size();
  for (size_t n = 0; k > 0 && n < kReach; --k, ++n) {
    if (sentence[k - 1] == ')') ++depth;
    if (sentence[k - 1] == '(' && depth-- == 0) break;
  }
  return k > 0 && sentence[k - 1] == '(' && depth < 0;
}

// A nickname of initials in quotation marks between the parts of a name: `Eugene Paul "E. P."
// Wigner`, `John "J.R." Smith` (twenty-first held-out set). The quotation's last initial is no
// sentence end before a capitalised word that starts no sentence (`He said "O.K." Then …` is
// cut).
[[gnu::noinline]] bool IsQuotedInitials(std::string_view sentence, std::string_view last,
                                        std::string_view next) {
  std::string_view w = last;
  if (w.ends_with("\u201d"))
    w.remove_suffix(3);
  else if (w.ends_with('"'))
    w.remove_suffix(1);
  else
    return false;
  auto initials = [](std::string_view t) {  // "E.", "E.P.", "J.R.R."
    if (t.size() < 2 || t.size() % 2 != 0) return false;
    for (size_t i = 0; i < t.size(); i += 2)
      if (t[i] < 'A' || t[i] > 'Z' || t[i + 1] != '.') return false;
    return true;
  };
  auto opens = [](std::string_view t) { return t.starts_with('"') || t.starts_with("\u201c"); };
  bool quoted = false;
  if (opens(w)) {
    quoted = initials(StripOpening(w));
  } else if (initials(w)) {
    const std::string_view before =
        LastWord(sentence.substr(0, static_cast<size_t>(last.data() - sentence.data())));
    quoted = opens(before) && initials(StripOpening(before));
    if (quoted) last = before;  // where the quotation opens
  }
  if (!quoted) return false;
  // A nickname stands after a given name ("Paul", "John"); after a lower-case word the quotation
  // is a name of its own, and what follows may start a sentence ("… fans of \"R.E.M.\" Michael
  // Stipe said …", review15).
  // After a lower-case word, a surname alone still goes on the name: one capitalised word, then
  // a comma or a lower-case word (`the singer "K.D." Lang recorded it`, review16); a given name
  // and a surname (`"R.E.M." Michael Stipe said`) start a sentence.
  const std::string_view given =
      LastWord(sentence.substr(0, static_cast<size_t>(last.data() - sentence.data())));
  if (given.empty()) return false;
  const std::string_view n = FirstWord(next);
  if (n.empty() || n[0] < 'A' || n[0] > 'Z' || StartsSentences(n)) return false;
  if (std::isupper(static_cast<unsigned char>(given[0]))) return true;
  const bool comma = n.back() == ',';
  const std::string_view word = comma ? n.substr(0, n.size() - 1) : n;
  if (word.size() < 2 ||
      !std::all_of(word.begin() + 1, word.end(), [](char c) { return c >= 'a' && c <= 'z'; }))
    return false;
  if (comma) return true;
  const std::string_view after =
      FirstWord(next.substr(static_cast<size_t>(n.data() + n.size() - next.data())));
  return !after.empty() && after[0] >= 'a' && after[0] <= 'z';
}

// `… the reality belongs to Christ." (Col. 2:16–17, NAB)`: a citation in brackets after a quotation
// that ends a sentence belongs to it. The citation is the rest of the paragraph (or ends in a
// period), of at most eight words with a digit in it (a verse, a page), and holds no other
// bracket and no "!" or "?"; `rest` is the paragraph after the boundary. A sentence in brackets
// ("(He left.)") has no digit, or ends its period inside. Bounded: looks at 120 bytes.
[[gnu::noinline]] bool IsCitationAfterQuote(std::string_view sentence, std::string_view rest) {
  const size_t e = sentence.find_last_not_of(" \t\n");
  if (e == std::string_view::npos || e < 2) return false;
  size_t q = e;  // the byte before the closing quotation mark
  if (sentence[e] == '"')
    q = e - 1;
  else if (e >= 3 && sentence.substr(e - 2, 3) == "\u201d")
    q = e - 3;
  else
    return false;
  if (sentence[q] != '.' && sentence[q] != '!' && sentence[q] != '?') return false;
  size_t b = 0;
  while (b < rest.size() && (rest[b] == ' ' || rest[b] == '\t' || rest[b] == '\n')) ++b;
  if (b >= rest.size() || rest[b] != '(') return false;
  bool digit = false;
  int words = 1;
  size_t k = b + 1;
  for (; k < rest.size() && k - b < 120 && rest[k] != ')'; ++k) {
    const char c = rest[k];
    if (c == '(' || c == '!' || c == '?' || c == '\n') return false;
    if (c == ' ' && ++words > 8) return false;
    digit = digit || (c >= '0' && c <= '9');
  }
  if (!digit || k >= rest.size() || rest[k] != ')') return false;
  ++k;  // past ')'
  if (k < rest.size() && rest[k] == '.') return k + 1 == rest.size() || rest[k + 1] == ' ';
  while (k < rest.size() && (rest[k] == ' ' || rest[k] == '\t' || rest[k] == '\n')) ++k;
  return k == rest.size();
}

// `(Nobody did)`, `(Yes to all)`: a bracket's content that is a sentence of its own, a capitalised
// word and then a lower-case word that title case would capitalise (not "of", "the", "to", …);
// a title's original or translation (`(Yaru!)`, `(August 2004)`, `(Dance with Wolves)`, one in
// another script) is not. Words hold ASCII letters only.
bool HoldsASentence(std::string_view b) {
  if (b.empty() || b[0] < 'A' || b[0] > 'Z') return false;
  bool first = true;
  for (size_t k = 0; k < b.size();) {
    size_t e = k;
    while (e < b.size() && std::isalpha(static_cast<unsigned char>(b[e]))) ++e;
    if (e == k || (e < b.size() && b[e] != ' ')) return false;  // not a plain word
    const std::string_view w = b.substr(k, e - k);
    if (!first && w[0] >= 'a' && w[0] <= 'z' && !IsTitleSmallWord(w)) return true;
    first = false;
    k = e + 1;
  }
  return false;
}

// `In ''Shooting!'' (August 2004), Ozawa exposes …`, `''Raping!'' (''Yaru!'').`: a title ending in
// "!" or "?" before a bracket (its date, its original title) goes on when the sentence goes on
// after the bracket: a ",", ";", ":" or "." right after its ")", or a lower-case word. A bracket
// after a real end is followed by a new sentence or ends the paragraph ("What is it? (It is a
// cat.) Then …"), or holds a sentence of its own before its "." (`Who knows? (Nobody did).`,
// HoldsASentence). `rest` is the paragraph after the boundary; looks at 240 bytes at most.
[[gnu::noinline]] bool TitleMarkBeforeBracket(std::string_view rest) {
  if (rest.empty() || rest[0] != '(') return false;
  const size_t reach = std::min<size_t>(rest.size(), 240);
  size_t k = 1;
  for (; k < reach && rest[k] != ')'; ++k)
    if (rest[k] == '(' || rest[k] == '\n') return false;
  if (k >= reach) return false;
  if (++k >= rest.size()) return false;  // the bracket ends the paragraph
  const char c = rest[k];
  if (c == ',' || c == ';' || c == ':') return true;
  if (c == '.') return !HoldsASentence(rest.substr(1, k - 2));
  if (c != ' ') return false;
  while (k < rest.size() && rest[k] == ' ') ++k;
  return k < rest.size() && rest[k] >= 'a' && rest[k] <= 'z';
}

// `(ミス２０才　快感！百合子の本番) in 1986`: a full-width "！" or "？" inside a bracket open in
// `sentence` that closes later in the paragraph (`rest`, within 480 bytes, on the same line) ends
// no sentence: it is a Japanese title's mark, and ICU breaks after it with no space.
[[gnu::noinline]] bool FullWidthMarkInsideBracket(std::string_view sentence, std::string_view rest) {
  size_t e = sentence.find_last_not_of(" \t\n");
  if (e == std::string_view::npos || e < 2) return false;
  const std::string_view m = sentence.substr(e - 2, 3);
  if (m != "\uFF01" && m != "\uFF1F") return false;
  int depth = 0;  // brackets closed after the point walked to
  size_t k = sentence.size();
  for (size_t n = 0; k > 0 && n < 480; --k, ++n) {
    const char c = sentence[k - 1];
    if (c == '\n') return false;
    if (c == ')') ++depth;
    if (c == '(' && depth-- == 0) break;
  }
  if (k == 0 || sentence[k - 1] != '(') return false;
  const size_t reach = std::min<size_t>(rest.size(), 480);
  depth = 0;
  for (size_t i = 0; i < reach; ++i) {
    if (rest[i] == '\n') return false;
    if (rest[i] == '(') ++depth;
    if (rest[i] == ')' && depth-- == 0) return true;
  }
  return false;
}

// A section's number standing before its title ("Sec. 10. ''Cameras''. (a) No alien …", "Art. 5.
// The President …"): a sentence of that alone, a capitalised abbreviation before a number and the
// number's period, is the label of the sentence after it, which it goes on.
bool IsSectionNumber(std::string_view sentence) {
  size_t b = 0, e = sentence.size();
  while (b < e && (sentence[b] == ' ' || sentence[b] == '\n')) ++b;
  while (e > b && (sentence[e - 1] == ' ' || sentence[e - 1] == '\n')) --e;
  const std::string_view t = sentence.substr(b, e - b);
  const size_t space = t.find(' ');
  if (space == std::string_view::npos || t.size() < space + 3 || t.back() != '.') return false;
  const std::string_view abbr = t.substr(0, space), number = t.substr(space + 1);
  if (!std::isupper(static_cast<unsigned char>(abbr[0])) ||
      std::find(kAbbreviationsBeforeNumbers.begin(), kAbbreviationsBeforeNumbers.end(), abbr) ==
          kAbbreviationsBeforeNumbers.end())
    return false;
  return std::all_of(number.begin(), number.end() - 1,
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The end of "[sic]" in `s` when it follows a sentence's end and a capitalised word that starts a
// sentence follows it (`"teh end." [sic] Then`), with one space after it; npos when none does.
// Not after an abbreviation (`Dr. [sic] Smith`), nor before a lower-case word.
size_t SicEndsSentence(std::string_view s) {
  for (size_t at = s.find(" [sic] "); at != std::string_view::npos;
       at = s.find(" [sic] ", at + 1)) {
    const size_t after = at + 7;
    if (after >= s.size() || s[after] < 'A' || s[after] > 'Z') continue;
    size_t m = at;
    while (m > 0 && (s[m - 1] == '"' || s[m - 1] == '\'' || s[m - 1] == ')')) --m;
    if (m >= 3 && (s.substr(m - 3, 3) == "\u201d" || s.substr(m - 3, 3) == "\u2019")) m -= 3;
    if (m == 0 || (s[m - 1] != '.' && s[m - 1] != '!' && s[m - 1] != '?')) continue;
    if (s[m - 1] == '.' && IsAbbreviation(LastWord(s.substr(0, m)), FirstWord(s.substr(after))))
      continue;
    return at + 6;
  }
  return std::string_view::npos;
}

// Where the sentence after a citation starts in `segment` (a bracket and the text after it, up to
// ICU's next boundary): the bracket follows a quotation's end in `before` (`God." (`, `done.”
// (`), holds at most eight words and no other bracket, "!" or "?", names a place (a comma or a
// colon and a digit: `(E. Burke, l.c., pp. 31, 32)`, `(John 19:30)`, or `l.c.`, `loc. cit.`, `op.
// cit.`, `ibid.`: `(Ibid.)`) and does not end in a period (`(He left at 5.)` is a sentence), and
// a capitalised word follows it after a space. `(1990) Others followed` keeps its bracket (a year
// alone is no citation). npos when not. Bounded: looks at 120 bytes.
size_t CitationEnd(std::string_view before, std::string_view segment) {
  size_t e = before.find_last_not_of(" \t");
  if (e == std::string_view::npos || e == before.size() - 1 || e < 2) return std::string_view::npos;
  if (before[e] == '"')
    e -= 1;
  else if (e >= 3 && before.substr(e - 2, 3) == "\u201d")
    e -= 3;
  else
    return std::string_view::npos;
  if (before[e] != '.' && before[e] != '!' && before[e] != '?') return std::string_view::npos;
  bool digit = false, place = false;
  int words = 1;
  size_t k = 1;
  for (; k < segment.size() && k < 120 && segment[k] != ')'; ++k) {
    const char c = segment[k];
    if (c == '(' || c == '!' || c == '?' || c == '\n') return std::string_view::npos;
    if (c == ' ' && ++words > 8) return std::string_view::npos;
    digit = digit || (c >= '0' && c <= '9');
    place = place || c == ',' || c == ':';
  }
  if (k < 2 || k >= segment.size() || segment[k] != ')') return std::string_view::npos;
  const std::string_view inside = segment.substr(1, k - 1);
  bool marker = false;
  for (std::string_view m :
       {"l.c.", "loc. cit.", "op. cit.", "ibid.", "Ibid.", "Op. cit.", "Loc. cit."})
    marker = marker || inside.find(m) != std::string_view::npos;
  if (!(marker || (digit && place)) || (inside.back() == '.' && !inside.ends_with("bid.") &&
                                        !inside.ends_with("cit.") && !inside.ends_with("l.c.")))
    return std::string_view::npos;
  size_t n = k + 1;
  if (n >= segment.size() || segment[n] != ' ') return std::string_view::npos;
  while (n < segment.size() && segment[n] == ' ') ++n;
  if (n >= segment.size() || segment[n] < 'A' || segment[n] > 'Z') return std::string_view::npos;
  return n;
}

// ICU's segments (`bounds`: byte offsets into `text`, first 0, last text.size()), merged across
// boundaries that follow an abbreviation or a marked "!" or "?", then split before digits and
// sounds (`slowly`: the reference way, see SplitBeforeDigitsAndSounds); trimmed, empty ones
// dropped, the marks removed.
std::vector<std::string> MergeSegments(std::string_view text, const std::vector<size_t>& icu_bounds,
                                       bool slowly) {
  // ICU ends a sentence after a period and an opening bracket glued to it, cutting a note
  // number off from its bracket ("in the groundwater.(2) Many other countries" → "… groundwater.("
  // | "2) Many …"): such a number (1–3 digits, closed at once, then a space) is the note of the
  // sentence before, so the boundary moves after it. One look at each boundary.
  std::vector<size_t> moved;
  for (size_t i = 1; i + 1 < icu_bounds.size(); ++i) {
    const size_t b = icu_bounds[i];
    if (b < 2 || (text[b - 1] != '(' && text[b - 1] != '[') || text[b - 2] != '.') continue;
    const char close = text[b - 1] == '(' ? ')' : ']';
    size_t q = b;
    while (q < text.size() && q - b < 4 && std::isdigit(static_cast<unsigned char>(text[q]))) ++q;
    if (q == b || q - b > 3 || q + 1 >= text.size() || text[q] != close || text[q + 1] != ' ')
      continue;
    q += 1;
    while (q < text.size() && text[q] == ' ') ++q;
    if (q >= icu_bounds[i + 1]) continue;
    if (moved.empty()) moved = icu_bounds;
    moved[i] = q;
  }
  // ICU ends a sentence after an opening quotation mark glued to the word after it when a mark
  // ends the sentence before ("Beethoven used to say...'They who …" → "… say...'" | "They who
  // …"): the mark opens the next sentence's quotation (an even count of its kind before it,
  // apostrophes between letters aside), so the boundary moves before it.
  size_t counted = 0, singles = 0, doubles = 0;  // the marks in text[0, counted), each byte once
  for (size_t i = 1; i + 1 < icu_bounds.size(); ++i) {
    const size_t b = icu_bounds[i];
    if (b < 3 || b >= text.size() || (text[b - 1] != '\'' && text[b - 1] != '"')) continue;
    const unsigned char after = static_cast<unsigned char>(text[b]);
    if (!(std::isalpha(after) || after >= 0x80)) continue;
    const char m = text[b - 2];
    if (m != '.' && m != '!' && m != '?' && !(b >= 4 && text.substr(b - 4, 3) == "\u2026"))
      continue;
    for (; counted + 1 < b; ++counted) {
      const char c = text[counted];
      doubles += c == '"';
      singles += c == '\'' &&
                 !(counted > 0 && std::isalpha(static_cast<unsigned char>(text[counted - 1])) &&
                   std::isalpha(static_cast<unsigned char>(text[counted + 1])));
    }
    if ((text[b - 1] == '"' ? doubles : singles) % 2 != 0) continue;
    if (moved.empty()) moved = icu_bounds;
    moved[i] = b - 1;
  }
  // `"… the laws of God." (E. Burke, l.c., pp. 31, 32) No wonder that, …` (twenty-first set): a
  // citation in brackets after a quotation that ends a sentence belongs to it. ICU's boundary
  // before the bracket moves after it when a capitalised word follows (CitationEnd), and those
  // inside it ("E. | Burke") go.
  {
    const std::vector<size_t>& b0 = moved.empty() ? icu_bounds : moved;
    std::vector<size_t> cited;
    for (size_t i = 1; i + 1 < b0.size(); ++i) {
      const size_t b = b0[i];
      size_t q = std::string_view::npos;
      if (b < text.size() && text[b] == '(') q = CitationEnd(text.substr(0, b), text.substr(b));
      if (q == std::string_view::npos) {
        if (!cited.empty()) cited.push_back(b);
        continue;
      }
      if (cited.empty()) cited.assign(b0.begin(), b0.begin() + static_cast<std::ptrdiff_t>(i));
      cited.push_back(b + q);
      while (i + 2 < b0.size() && b0[i + 1] <= b + q) ++i;
    }
    if (!cited.empty()) {
      cited.push_back(b0.back());
      moved = std::move(cited);
    }
  }
  // A kSentenceBreak that ICU put no boundary after gets one, after the spaces that follow it:
  // before a lower-case word ICU sees no sentence start ("Call this angle θc.\u2063 θc is …", a
  // formula that starts a sentence, marked by CleanWikitext). Found in order, merged once.
  if (HoldsNoBreakMark(text)) {
    std::vector<size_t> forced;
    for (size_t m = text.find(kSentenceBreak); m != std::string_view::npos;
         m = text.find(kSentenceBreak, m + kSentenceBreak.size())) {
      size_t q = m + kSentenceBreak.size();
      while (q < text.size() && text[q] == ' ') ++q;
      if (q < text.size() && (forced.empty() || forced.back() != q)) forced.push_back(q);
    }
    if (!forced.empty()) {
      const std::vector<size_t>& from = moved.empty() ? icu_bounds : moved;
      std::vector<size_t> merged;
      merged.reserve(from.size() + forced.size());
      std::merge(from.begin(), from.end(), forced.begin(), forced.end(),
                 std::back_inserter(merged));
      merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
      moved = std::move(merged);
    }
  }
  const std::vector<size_t>& bounds = moved.empty() ? icu_bounds : moved;
  // A mark stands before a word, where ICU puts a boundary: seen at the boundaries; but not before
  // every word ("Wow!\u2060 \u2014 the Musical" has none), so a paragraph holding one is looked at.
  bool marked = HoldsNoBreakMark(text);
  std::vector<std::string> out;
  std::vector<std::string_view> parts;
  size_t pending = 0;  // start of the sentence being built
  QuoteCount quotes;   // its quotation marks, counted only when a rule needs them
  // The paragraph's quotation marks from its start, counted as far as a rule needs them (each
  // byte once: a paragraph of one-word ellipses stays linear).
  QuoteCount paragraph_quotes;
  // Only a boundary between the paragraph's first "(" and its last ")" can be inside a bracket.
  const size_t first_open = text.find('(');
  const void* close = first_open == std::string_view::npos
                          ? nullptr
                          : memrchr(text.data() + first_open, ')', text.size() - first_open);
  const size_t last_close =
      close ? static_cast<size_t>(static_cast<const char*>(close) - text.data()) : 0;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    std::string_view sentence = text.substr(pending, bounds[i + 1] - pending);
    std::string_view last = LastWord(sentence);
    // "King Jr.\u2063 Baker": CleanWikitext saw the name end; the sentence ends with it. (A mark
    // whose "Jr." went with a dropped link follows no "." and ends nothing.)
    if (i + 2 < bounds.size() &&
        !(last.ends_with(kSentenceBreak) && last.size() > kSentenceBreak.size() &&
          last[last.size() - kSentenceBreak.size() - 1] == '.')) {
      std::string_view next = text.substr(bounds[i + 1], bounds[i + 2] - bounds[i + 1]);
      if (EndsWithNoBreakMark(last)) {
        marked = true;
        continue;
      }
      // No sentence starts with a slash ("fighters from I./JG 53 and 2./JG 77 fought") or a
      // semicolon glued to the mark before it ("Alaska, Inc.; ConocoPhillips", "''Tora! Tora!
      // Tora!''; but Fox", "\"What color is Saturday?\"; they"): the sentence goes on, though ICU
      // breaks there (as it does not before a glued ',' or ':').
      // Nor with an IPA stress mark: "/ə.ˈstɹæɪ.ljə/" is not cut at its syllable dots.
      if ((!next.empty() && (next.front() == '/' || next.front() == ';')) ||
          next.starts_with("\u02c8") || next.starts_with("\u02cc") ||
          IsAbbreviation(last, FirstWord(next)) || InitialBeforeBracketedName(last, next) ||
          (!next.empty() && std::isdigit(static_cast<unsigned char>(next.front())) &&
           !last.empty() && last.back() == '.' &&
           (IsReporterCitation(sentence, next) ||
            IsCitationNumbers(sentence, text.substr(bounds[i + 1])))) ||
          ContinuesAfterExclamation(sentence, next) || IsGluedAfterNumber(sentence, next) ||
          IsImperialUnitAfterNumber(sentence, next) ||
          IsCountryAdjective(sentence) ||
          (sentence.size() < 16 && !last.empty() && last.back() == '.' &&
           IsSectionNumber(sentence)))
        continue;
      // The rules below look at few sentences: those ending in "X.Y.", in "!" or "?", or in an
      // ellipsis. (They are kept out of line: inlined here, they made every boundary dearer.)
      char end = last.empty() ? ' ' : last.back();
      if (end == '.' && last.size() == 4 && CountryNameContinues(sentence, next)) continue;
      if ((end == '"' || end == '\x9D') &&
          (IsCitationAfterQuote(sentence, text.substr(bounds[i + 1])) ||
           IsQuotedInitials(sentence, last, next)))
        continue;
      if (end == '.' && last.size() >= 2 && last.size() <= 3 && last[last.size() - 2] == 'I' &&
          StripOpening(last) == "I." && IsInitialI(sentence, next))
        continue;
      if (end == '.' && bounds[i + 1] > first_open && bounds[i + 1] < last_close &&
          (ContinuesInsideBracket(sentence, text.substr(bounds[i + 1])) ||
           InsideReferenceBracket(sentence, text.substr(bounds[i + 1]))))
        continue;
      // A doubtful date in brackets, "(13 February? 1778 (baptised …) – 10 July 1839, Paris)":
      // a "?" before a number inside a bracket that closes soon after is no sentence end.
      if (end == '?' && bounds[i + 1] > first_open && bounds[i + 1] < last_close && !next.empty() &&
          std::isdigit(static_cast<unsigned char>(next.front())) &&
          ContinuesInsideBracket(sentence, text.substr(bounds[i + 1])))
        continue;
      // A period inside a quoted title that the sentence goes on after. Only a
      // segment holding a closing mark is looked at, so most periods cost one memchr.
      if (end == '.' && last.size() > 1 && !EndsInEllipsis(last) &&
          (std::memchr(next.data(), '"', next.size()) != nullptr ||
           next.find("\u201d") != std::string_view::npos)) {
        quotes.CountUpTo(text, bounds[i + 1]);
        if (PeriodInsideShortQuote(sentence, quotes, next)) continue;
      }
      bool mark = end == '!' || end == '?';
      if (mark && TitleMarkBeforeBracket(text.substr(bounds[i + 1]))) continue;
      if ((end == '\x81' || end == '\x9F') && bounds[i + 1] > first_open &&
          bounds[i + 1] < last_close &&
          FullWidthMarkInsideBracket(sentence, text.substr(bounds[i + 1])))
        continue;
      if (mark || ((end == '.' || end == '\xA6') && EndsInEllipsis(last))) {
        if (mark && IsChessAnnotation(sentence, next)) continue;
        quotes.CountUpTo(text, bounds[i + 1]);
        if (mark ? ContinuesInsideQuote(quotes, next)
                 : (paragraph_quotes.CountUpTo(text, bounds[i + 1]),
                    ContinuesAtEllipsis(sentence, last, next, quotes, paragraph_quotes)))
          continue;
      }
    }
    parts.clear();
    SplitBeforeDigitsAndSounds(sentence, slowly, &parts);
    pending = bounds[i + 1];
    quotes = QuoteCount{pending};
    for (std::string_view p : parts) {
      // Spaces around a sentence (Unicode ones too: "It rained.\u00a0Then") are not part of it.
      size_t b = 0, e = p.size();
      for (size_t n; b < e && (n = SpaceStartingAt(p, b)) > 0;) b += n;
      for (size_t n; e > b && (n = SpaceEndingAt(p, e - 1)) > 0;) e -= n;
      // Nor is a full-width space (U+3000), which alone is no sentence ("|}\u3000" after a
      // table, twenty-fourth held-out set); between Japanese words it stays.
      while (e - b >= 3 && p.compare(b, 3, "\u3000") == 0) b += 3;
      while (e - b >= 3 && p.compare(e - 3, 3, "\u3000") == 0) e -= 3;
      for (size_t n; b < e && (n = SpaceStartingAt(p, b)) > 0;) b += n;
      for (size_t n; e > b && (n = SpaceEndingAt(p, e - 1)) > 0;) e -= n;
      if (b >= e) continue;
      // An elision mark standing between sentences ("… singing \u201cAmerica\u201d. [...] Going
      // to another instrument, …") marks words left out, and is no sentence; inside one it stays.
      if (p[b] == '[' && e - b >= 5 &&
          (p.substr(b, 5) == "[...]" || p.substr(b, 5) == "[\u2026]")) {
        if (e - b == 5) continue;
        // The same mark at the start of a sentence goes as that one does: ICU ends a sentence
        // after "[...]" (its periods) but not after "[\u2026]" ("Soon was heard a voice. [\u2026]
        // Going on, he spoke." kept the mark on the second sentence).
        if (size_t n = SpaceStartingAt(p, b + 5); n > 0) {
          b += 5;
          for (; b < e && (n = SpaceStartingAt(p, b)) > 0;) b += n;
        }
      }
      // An editor's "[sic]" ({{sic}}) right after a sentence's end marks that sentence's words,
      // mostly a quotation's ("… holding us back!!\" [sic] He also went …", twenty-first set):
      // it goes on the sentence before, and the next starts after it.
      if (!out.empty() && p.compare(b, 5, "[sic]") == 0 &&
          (b + 5 == e || SpaceStartingAt(p, b + 5) > 0)) {
        out.back().append(" [sic]");
        b += 5;
        for (size_t n; b < e && (n = SpaceStartingAt(p, b)) > 0;) b += n;
        if (b >= e) continue;
        // A lower-case word after it goes on the quotation's sentence (`"… over!" [sic] and
        // left.`, review16): "!" or "?" ended the quotation, not the sentence.
        if (p[b] >= 'a' && p[b] <= 'z') {
          out.back().push_back(' ');
          out.back().append(marked ? WithoutNoBreakMarks(p.substr(b, e - b))
                                   : std::string(p.substr(b, e - b)));
          continue;
        }
      }
      // Closing quotation marks or brackets alone ("… not the fact.' \"", ICU's break before
      // the outer quote's end after a space) close the sentence before.
      if (!out.empty() && p.find_first_not_of("\"')]", b) >= e) {
        const size_t at = static_cast<size_t>(p.data() - text.data()) + b;
        if (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t')) out.back().push_back(' ');
        out.back().append(p.substr(b, e - b));
        continue;
      }
      std::string_view piece = p.substr(b, e - b);
      // `He wrote "teh end." [sic] Then he left.`: ICU runs on after a period before "[sic]" (a
      // lower-case word); a capitalised word after it starts the next sentence (review16).
      for (size_t cut; (cut = SicEndsSentence(piece)) != std::string_view::npos;) {
        if (marked)
          out.push_back(WithoutNoBreakMarks(piece.substr(0, cut)));
        else
          out.emplace_back(piece.substr(0, cut));
        piece.remove_prefix(cut + 1);
      }
      if (marked)
        out.push_back(WithoutNoBreakMarks(piece));
      else
        out.emplace_back(piece);
    }
  }
  return out;
}

}  // namespace

namespace {

// NEL (U+0085) and the line and paragraph separators (U+2028, U+2029) inside a paragraph are
// white space to a reader (a browser does not break the line there) but hard sentence breaks to
// ICU: they become spaces. Empty when the paragraph holds none (the common case).
std::string WithoutLineSeparators(std::string_view paragraph) {
  if (paragraph.find("\xC2\x85") == std::string_view::npos &&
      paragraph.find("\xE2\x80\xA8") == std::string_view::npos &&
      paragraph.find("\xE2\x80\xA9") == std::string_view::npos)
    return {};
  std::string out;
  out.reserve(paragraph.size());
  for (size_t i = 0; i < paragraph.size(); ++i) {
    if (paragraph.compare(i, 2, "\xC2\x85") == 0) {
      out.push_back(' ');
      i += 1;
    } else if (paragraph.compare(i, 3, "\xE2\x80\xA8") == 0 ||
               paragraph.compare(i, 3, "\xE2\x80\xA9") == 0) {
      out.push_back(' ');
      i += 2;
    } else {
      out.push_back(paragraph[i]);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> SentenceSplitter::Split(std::string_view paragraph) {
  const std::string spaced = WithoutLineSeparators(paragraph);
  if (!spaced.empty()) paragraph = spaced;
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(paragraph.data(), static_cast<int32_t>(paragraph.size())));
  impl_->iter->setText(text);
  // ICU's boundaries are UTF-16 offsets: walk the UTF-8 text alongside to get byte offsets, so
  // that sentences are slices of the paragraph (no conversion back). Ill-formed UTF-8 (which
  // ICU replaces) takes the obvious path instead.
  std::vector<size_t> bounds;
  const auto* p = reinterpret_cast<const uint8_t*>(paragraph.data());
  int32_t n = static_cast<int32_t>(paragraph.size()), byte = 0, u16 = 0;
  for (int32_t b = impl_->iter->first(); b != icu::BreakIterator::DONE; b = impl_->iter->next()) {
    while (u16 < b && byte < n) {
      UChar32 c;
      U8_NEXT(p, byte, n, c);
      if (c < 0) return SplitSlowly(paragraph);
      u16 += U16_LENGTH(c);
    }
    bounds.push_back(static_cast<size_t>(byte));
  }
  if (bounds.empty() || bounds.back() != paragraph.size()) return SplitSlowly(paragraph);
  return MergeSegments(paragraph, bounds, /*slowly=*/false);
}

std::vector<std::string> SentenceSplitter::SplitSlowly(std::string_view paragraph) {
  const std::string spaced = WithoutLineSeparators(paragraph);
  if (!spaced.empty()) paragraph = spaced;
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(paragraph.data(), static_cast<int32_t>(paragraph.size())));
  impl_->iter->setText(text);
  // Each ICU segment converted back to UTF-8 on its own, then joined.
  std::string joined;
  std::vector<size_t> bounds{0};
  int32_t start = impl_->iter->first();
  for (int32_t end = impl_->iter->next(); end != icu::BreakIterator::DONE;
       start = end, end = impl_->iter->next()) {
    text.tempSubStringBetween(start, end).toUTF8String(joined);
    bounds.push_back(joined.size());
  }
  return MergeSegments(joined, bounds, /*slowly=*/true);
}

bool AbbreviationEndsLine(std::string_view line, std::string_view next_line) {
  const size_t e = line.find_last_not_of(" \t\r");
  if (e == std::string_view::npos || line[e] != '.') return false;
  line = line.substr(0, e + 1);
  const std::string_view last = StripOpening(LastWord(line));
  // Those the splitter ends sentences with before a word that starts one; not initials
  // ("George W." / "Bush" in a wrapped line is a name) nor "e.g.", which ends none.
  static constexpr std::string_view kAlsoEnding[] = {"U.S.A.", "a.m.", "p.m."};
  if (std::find(kCountryAbbreviations.begin(), kCountryAbbreviations.end(), last) ==
          kCountryAbbreviations.end() &&
      std::find(std::begin(kAlsoEnding), std::end(kAlsoEnding), last) == std::end(kAlsoEnding))
    return false;
  if (IsCountryAdjective(line)) return false;  // "a U.S." / "Magistrate Judge"
  std::string_view w = StripOpening(FirstWord(next_line));
  if (w.empty() || !std::isupper(static_cast<unsigned char>(w[0]))) return false;
  while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.remove_suffix(1);
  if (w.ends_with("'s")) w.remove_suffix(2);
  // A time zone goes on a time ("9 p.m." / "Eastern Time on Fridays", review16).
  static constexpr std::string_view kTimeZones[] = {
      "Eastern", "Central", "Mountain", "Pacific", "Atlantic", "Greenwich", "EST", "EDT", "CST",
      "CDT",     "MST",     "MDT",      "PST",     "PDT",      "ET",        "CT",  "MT",  "PT",
      "GMT",     "UTC",     "BST",      "CET",     "CEST",     "IST",       "JST", "AEST"};
  if ((last == "a.m." || last == "p.m.") &&
      std::find(std::begin(kTimeZones), std::end(kTimeZones), w) != std::end(kTimeZones))
    return false;
  return std::find(kNameWordsAfterCountry.begin(), kNameWordsAfterCountry.end(), w) ==
         kNameWordsAfterCountry.end();
}

bool IsSplitterAbbreviation(std::string_view letters) {
  char word[16];
  if (letters.size() + 1 > sizeof word) return false;
  std::memcpy(word, letters.data(), letters.size());
  word[letters.size()] = '.';
  return IsListedAbbreviation(std::string_view(word, letters.size() + 1));
}

std::string WithoutSentenceBreaks(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  for (size_t b = s.find(kSentenceBreak); b != std::string_view::npos;
       b = s.find(kSentenceBreak, i)) {
    out.append(s.substr(i, b - i));
    i = b + kSentenceBreak.size();
  }
  out.append(s.substr(i));
  return out;
}

// ---------------------------------------------------------------- pages

TextProcessor::TextProcessor(TextOptions options) : options_(std::move(options)) {}

Status TextProcessor::Process(const SourcePage& page, ProcessedPage* out) {
  out->paragraphs.clear();
  std::vector<std::string> template_names;
  switch (page.format) {
    case SourcePage::Format::kWikitext: {
      CleanedWikitext cleaned = CleanWikitext(page.text, options_);
      template_names = std::move(cleaned.template_names);
      for (const auto& p : cleaned.paragraphs) {
        auto sentences = splitter_.Split(p);
        DropGameScores(&sentences);
        DropNumberedRuns(&sentences);
        std::erase_if(sentences, [](const std::string& s) { return IsListNumberAlone(s); });
        // A value aligndb cannot compute, outside any bracket, leaves a hole in its sentence
        // ("worth approximately $ today."): the sentence goes, as text that cannot be rendered.
        if (cleaned.computed_values &&
            std::memchr(p.data(), kComputedValueMarker, p.size()) != nullptr)
          std::erase_if(sentences, [](const std::string& s) {
            return s.find(kComputedValueMarker) != std::string::npos;
          });
        if (!sentences.empty()) out->paragraphs.push_back(std::move(sentences));
      }
      break;
    }
    case SourcePage::Format::kPlainText: {
      size_t i = 0;
      const std::string& t = page.text;
      while (i <= t.size()) {
        size_t nl = t.find('\n', i);
        if (nl == std::string::npos) nl = t.size();
        std::string_view line(t.data() + i, nl - i);
        // The source's U+2063 would end a sentence as kSentenceBreak does: it goes (it shows
        // nothing).
        std::string unmarked;
        if (line.find(kSentenceBreak) != std::string_view::npos) {
          unmarked = WithoutSentenceBreaks(line);
          line = unmarked;
        }
        auto sentences = splitter_.Split(line);
        if (!sentences.empty()) out->paragraphs.push_back(std::move(sentences));
        i = nl + 1;
      }
      break;
    }
    case SourcePage::Format::kSentences:
      for (const auto& p : page.paragraphs)
        if (!p.empty()) out->paragraphs.push_back(p);
      break;
  }
  if (page.has_flags) return ParseFlagNames(page.flags, &out->flags).WithPrefix(page.location);
  size_t sentences = 0;
  for (const auto& p : out->paragraphs) sentences += p.size();
  int32_t ns = page.format == SourcePage::Format::kWikitext ? page.ns : -1;
  out->flags = ComputeFlags(page.title, ns, template_names, sentences);
  return Status::OK();
}

}  // namespace aligndb
