// Status: codes, messages, prefixes and the documented exit codes.
#include "aligndb/status.h"

#include <gtest/gtest.h>

namespace aligndb {
namespace {

Status FailsAt(int step, int* reached) {
  for (int i = 0; i < 3; ++i) {
    *reached = i;
    RETURN_IF_ERROR(i == step ? Status::IOError("step " + std::to_string(i)) : Status::OK());
  }
  return Status::OK();
}

TEST(StatusTest, MessagesCopiesAndPrefixes) {
  Status s = Status::Corruption("bad.xml: byte 7: expected <page>");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "bad.xml: byte 7: expected <page>");
  Status copy = s;
  EXPECT_EQ(copy.code(), Status::Code::kCorruption);
  EXPECT_EQ(copy.message(), s.message());
  Status prefixed = s.WithPrefix("ingest");
  EXPECT_EQ(prefixed.message(), "ingest: bad.xml: byte 7: expected <page>");
  EXPECT_EQ(prefixed.code(), Status::Code::kCorruption);
  EXPECT_TRUE(Status::OK().WithPrefix("x").ok());
  EXPECT_TRUE(Status::OK().ToString() == "OK");
}

TEST(StatusTest, ReturnIfErrorStopsAtTheFirstFailure) {
  int reached = -1;
  EXPECT_TRUE(FailsAt(5, &reached).ok());
  EXPECT_EQ(reached, 2);
  Status s = FailsAt(1, &reached);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(s.message(), "step 1");
  EXPECT_EQ(reached, 1);
}

}  // namespace
}  // namespace aligndb
