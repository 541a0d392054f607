#include "aligndb/status.h"

namespace aligndb {

const std::string& Status::message() const {
  static const std::string kEmpty;
  return rep_ ? rep_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  const char* name = "Error";
  switch (rep_->code) {
    case Code::kOk:
      name = "OK";
      break;
    case Code::kNotFound:
      name = "Not found";
      break;
    case Code::kInvalidArgument:
      name = "Invalid argument";
      break;
    case Code::kCorruption:
      name = "Bad input";
      break;
    case Code::kIOError:
      name = "I/O error";
      break;
    case Code::kBusy:
      name = "Busy";
      break;
    case Code::kInternal:
      name = "Internal error";
      break;
  }
  return std::string(name) + ": " + rep_->message;
}

Status Status::WithPrefix(std::string_view prefix) const {
  if (ok()) return *this;
  return Status(rep_->code, std::string(prefix) + ": " + rep_->message);
}

}  // namespace aligndb
