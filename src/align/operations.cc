#include "align/operations.h"

#include <algorithm>

namespace aligndb {
namespace {

bool MultiSentence(pb::Operation op) {
  return op == pb::OP_ONE_TWO || op == pb::OP_TWO_ONE || op == pb::OP_TWO_TWO;
}

// Adds (pos, text) to a side unless the position is there already; keeps document order.
void AddSentence(SentencePos pos, const std::string* text, std::vector<SentencePos>* side,
                 std::vector<const std::string*>* texts) {
  auto it = std::lower_bound(side->begin(), side->end(), pos);
  if (it != side->end() && *it == pos) return;
  texts->insert(texts->begin() + (it - side->begin()), text);
  side->insert(it, pos);
}

}  // namespace

std::vector<StoredOperation> OperationsOf(const pb::ParagraphPair& pp) {
  std::vector<StoredOperation> out;
  const int n = pp.sentence_pairs_size();
  for (int k = 0; k < n;) {
    StoredOperation op;
    op.first = k;
    const auto& a = pp.sentence_pairs(k);
    op.count =
        MultiSentence(a.op()) && k + 1 < n && pp.sentence_pairs(k + 1).op() == a.op() ? 2 : 1;
    for (int i = k; i < k + op.count; ++i) {
      const auto& sp = pp.sentence_pairs(i);
      AddSentence({sp.normal_paragraph(), sp.normal_sentence()}, &sp.normal_text(), &op.normal,
                  &op.normal_text);
      AddSentence({sp.simple_paragraph(), sp.simple_sentence()}, &sp.simple_text(), &op.simple,
                  &op.simple_text);
    }
    k += op.count;
    out.push_back(std::move(op));
  }
  return out;
}

std::string JoinTexts(const std::vector<const std::string*>& texts) {
  std::string out;
  for (const std::string* t : texts) {
    if (!out.empty()) out += ' ';
    out += *t;
  }
  return out;
}

void LabelParagraphPair(const RowLabel& label, const JoinedSimilarity& joined,
                        pb::ParagraphPair* pp) {
  std::vector<SentencePos> n(1), s(1);
  for (auto& sp : *pp->mutable_sentence_pairs()) {
    n[0] = {sp.normal_paragraph(), sp.normal_sentence()};
    s[0] = {sp.simple_paragraph(), sp.simple_sentence()};
    sp.set_label(static_cast<pb::Label>(label(n, s)));
  }
  for (const StoredOperation& op : OperationsOf(*pp)) {
    pb::Label row = pp->sentence_pairs(op.first).label();
    double sim = pp->sentence_pairs(op.first).similarity();
    if (op.count > 1) {
      row = static_cast<pb::Label>(label(op.normal, op.simple));
      sim = joined(op.normal, op.simple);
    }
    for (int i = op.first; i < op.first + op.count; ++i) {
      pp->mutable_sentence_pairs(i)->set_operation_label(row);
      pp->mutable_sentence_pairs(i)->set_operation_similarity(sim);
    }
  }
}

}  // namespace aligndb
