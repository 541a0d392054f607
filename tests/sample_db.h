// A test suite over one database of the bundled samples, built once for the suite by the aligndb
// binary (testing::BuildSampleDb).
#ifndef ALIGNDB_TESTS_SAMPLE_DB_H_
#define ALIGNDB_TESTS_SAMPLE_DB_H_

#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace aligndb::testing {

class SampleDbTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    db_ = tmp_->Sub("db");
    auto r = BuildSampleDb(db_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static inline TempDir* tmp_ = nullptr;
  static inline std::string db_;
};

}  // namespace aligndb::testing

#endif  // ALIGNDB_TESTS_SAMPLE_DB_H_
