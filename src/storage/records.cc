#include "storage/records.h"

#include "text/text.h"

namespace aligndb {

// Articles store the text layer's flag bits as pb::ArticleFlag: their values must stay equal.
static_assert(kFlagStub == pb::FLAG_STUB);
static_assert(kFlagDisambiguation == pb::FLAG_DISAMBIGUATION);
static_assert(kFlagMeta == pb::FLAG_META);
static_assert(kFlagSingleLine == pb::FLAG_SINGLE_LINE);

void SetRecordHeader(const RecordSide& normal, const RecordSide& simple,
                     const pb::AlignParams& params, uint64_t run_id, pb::AlignmentRecord* r) {
  r->set_version(kAlignmentRecordVersion);
  r->set_normal_edition(normal.edition);
  r->set_simple_edition(simple.edition);
  r->set_normal_title(normal.title);
  r->set_simple_title(simple.title);
  r->set_normal_page_id(normal.page_id);
  r->set_simple_page_id(simple.page_id);
  r->set_normal_revision(normal.revision);
  r->set_simple_revision(simple.revision);
  *r->mutable_params() = params;
  r->set_run_id(run_id);
}

void AddSentencePair(uint32_t normal_paragraph, uint32_t normal_sentence, uint32_t simple_paragraph,
                     uint32_t simple_sentence, double similarity, pb::Operation op,
                     const std::string& normal_text, const std::string& simple_text,
                     pb::ParagraphPair* out) {
  pb::SentencePair* p = out->add_sentence_pairs();
  p->set_normal_paragraph(normal_paragraph);
  p->set_normal_sentence(normal_sentence);
  p->set_simple_paragraph(simple_paragraph);
  p->set_simple_sentence(simple_sentence);
  p->set_similarity(similarity);
  p->set_op(op);
  p->set_identical(normal_text == simple_text);
  p->set_normal_text(normal_text);
  p->set_simple_text(simple_text);
}

pb::PairingSummary NewPairingSummary(const std::string& normal_edition,
                                     const std::string& simple_edition,
                                     const pb::AlignParams& params, uint64_t run_id) {
  pb::PairingSummary ps;
  ps.set_version(kPairingSummaryVersion);
  ps.set_normal_edition(normal_edition);
  ps.set_simple_edition(simple_edition);
  *ps.mutable_params() = params;
  ps.set_run_id(run_id);
  return ps;
}

}  // namespace aligndb
