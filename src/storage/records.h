// Building the records of proto/aligndb.proto in one place: their versions, the header every
// alignment record carries, its sentence pairs and the pairing summary of an edition pair.
#ifndef ALIGNDB_STORAGE_RECORDS_H_
#define ALIGNDB_STORAGE_RECORDS_H_

#include <cstdint>
#include <string>

#include "aligndb.pb.h"

namespace aligndb {

// Record versions written by this binary (docs/storage.md, "Record versions").
inline constexpr uint32_t kArticleVersion = 1;
inline constexpr uint32_t kRedirectVersion = 1;
inline constexpr uint32_t kRunManifestVersion = 1;
// Version 2 of the records holding AlignParams names the align mode `AlignParams.mode`;
// version 1 records hold it in the field then called `method`: the same field number and
// wire format, so both versions read alike and compare equal.
inline constexpr uint32_t kPairingSummaryVersion = 2;
// Version 3 alignment records carry labels and operation similarities on their sentence pairs
// (SentencePair.label, operation_label, operation_similarity); align re-aligns older ones.
inline constexpr uint32_t kAlignmentRecordVersion = 3;
// The keep record written beside each alignment record by align (docs/storage.md, "Keep
// records").
inline constexpr uint32_t kAlignmentKeepVersion = 1;

// One side of an aligned pair as the record header names it.
struct RecordSide {
  std::string edition;
  std::string title;
  uint64_t page_id = 0;
  uint64_t revision = 0;
};

// Sets the fields every alignment record carries: version, editions, titles, page ids,
// revisions, parameters and run.
void SetRecordHeader(const RecordSide& normal, const RecordSide& simple,
                     const pb::AlignParams& params, uint64_t run_id, pb::AlignmentRecord* record);

// Appends a sentence pair with its positions, similarity, operation and the two texts.
void AddSentencePair(uint32_t normal_paragraph, uint32_t normal_sentence, uint32_t simple_paragraph,
                     uint32_t simple_sentence, double similarity, pb::Operation op,
                     const std::string& normal_text, const std::string& simple_text,
                     pb::ParagraphPair* out);

// The pairing summary of an edition pair, with its version, editions, parameters and run.
pb::PairingSummary NewPairingSummary(const std::string& normal_edition,
                                     const std::string& simple_edition,
                                     const pb::AlignParams& params, uint64_t run_id);

}  // namespace aligndb

#endif  // ALIGNDB_STORAGE_RECORDS_H_
