// Operations of a stored sentence alignment (docs/method.md, Labels and export units): a 1-2,
// 2-1 or 2-2 operation of the dynamic program is stored as two consecutive sentence pairs of a
// ParagraphPair; every other pair is an operation by itself. Labelling at align time and the
// operation unit of export read them from here.
#ifndef ALIGNDB_ALIGN_OPERATIONS_H_
#define ALIGNDB_ALIGN_OPERATIONS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "align/label.h"
#include "aligndb.pb.h"

namespace aligndb {

// A sentence position: (paragraph, sentence).
using SentencePos = std::pair<uint32_t, uint32_t>;

struct StoredOperation {
  int first = 0;  // index of its first sentence pair in the ParagraphPair
  int count = 1;  // 1 or 2 sentence pairs
  // Each side's distinct sentences, in document order, with their texts.
  std::vector<SentencePos> normal, simple;
  std::vector<const std::string*> normal_text, simple_text;
};

// The operations of `pp` in order. A multi-sentence pair without its partner (a damaged
// record) is an operation by itself.
std::vector<StoredOperation> OperationsOf(const pb::ParagraphPair& pp);

// `texts` joined by single spaces: the text of an operation's side.
std::string JoinTexts(const std::vector<const std::string*>& texts);

// The similarity of an operation's joined sides (normal sentences, simple sentences).
using JoinedSimilarity =
    std::function<double(const std::vector<SentencePos>&, const std::vector<SentencePos>&)>;

// The label of a row given by its sentences' positions (normal sentences, simple sentences).
using RowLabel =
    std::function<Label(const std::vector<SentencePos>&, const std::vector<SentencePos>&)>;

// Sets `label`, `operation_label` and `operation_similarity` of every sentence pair of `pp`: a
// pair's label from its two sentences, an operation's from all its sentences (both by
// `label`); the similarity of a one-pair operation is the pair's own.
void LabelParagraphPair(const RowLabel& label, const JoinedSimilarity& joined,
                        pb::ParagraphPair* pp);

}  // namespace aligndb

#endif  // ALIGNDB_ALIGN_OPERATIONS_H_
