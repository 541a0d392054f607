// The Python extension aligndb._aligndb: the read API of export/export.h and cli/print.h over a
// database opened read-only. Each call reads one snapshot of the store; the GIL is released
// while the library reads, and held while Python objects are built. The Python package
// (aligndb/__init__.py) wraps it: JSON printed by the library becomes dicts there.
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "aligndb.pb.h"
#include "cli/print.h"
#include "export/export.h"
#include "storage/store.h"
#include "text/text.h"

namespace py = pybind11;

namespace aligndb::python {
namespace {

// A failed Status on its way to Python; the translator below raises the matching exception.
struct StatusError {
  Status status;
};

// The exception classes by Status code, created at module import.
struct Exceptions {
  PyObject* error = nullptr;  // aligndb.Error, the base
  PyObject* not_found = nullptr;
  PyObject* bad_input = nullptr;
  PyObject* io_error = nullptr;
  PyObject* busy = nullptr;
  PyObject* corruption = nullptr;
} g_exc;

PyObject* ExceptionFor(Status::Code code) {
  switch (code) {
    case Status::Code::kNotFound:
      return g_exc.not_found;
    case Status::Code::kInvalidArgument:
      return g_exc.bad_input;
    case Status::Code::kCorruption:
      return g_exc.corruption;
    case Status::Code::kIOError:
      return g_exc.io_error;
    case Status::Code::kBusy:
      return g_exc.busy;
    default:
      return g_exc.error;
  }
}

void Check(const Status& s) {
  if (!s.ok()) throw StatusError{s};
}

[[noreturn]] void BadInput(const std::string& message) {
  throw StatusError{Status::InvalidArgument(message)};
}

// Checks of the arguments the command line's option parser checks, with its messages
// (cli/export_cmd.cc, cli/options.cc).
double FiniteOr(const std::optional<double>& v, const char* option) {
  if (!v) return std::nan("");
  if (!std::isfinite(*v)) {
    std::ostringstream msg;
    msg << option << ": expected a finite number, not \"" << *v << '"';
    BadInput(msg.str());
  }
  return *v;
}

// Interned dict keys and the fixed strings of export rows, made once.
struct RowKeys {
  PyObject *normal_title, *simple_title, *normal, *simple, *similarity, *op, *normal_index,
      *simple_index, *normal_revision, *simple_revision, *label;
  PyObject* op_names[16] = {};
  PyObject *good, *partial;
};
RowKeys* g_keys = nullptr;

PyObject* Interned(const char* s) {
  PyObject* o = PyUnicode_InternFromString(s);
  if (!o) throw py::error_already_set();
  return o;
}

void MakeRowKeys() {
  auto* k = new RowKeys;  // lives as long as the interpreter: the module is never unloaded
  k->normal_title = Interned("normal_title");
  k->simple_title = Interned("simple_title");
  k->normal = Interned("normal");
  k->simple = Interned("simple");
  k->similarity = Interned("similarity");
  k->op = Interned("op");
  k->normal_index = Interned("normal_index");
  k->simple_index = Interned("simple_index");
  k->normal_revision = Interned("normal_revision");
  k->simple_revision = Interned("simple_revision");
  k->label = Interned("label");
  for (Op op : {Op::kOneOne, Op::kOneTwo, Op::kTwoOne, Op::kTwoTwo, Op::kSkipSimple,
                Op::kSkipNormal, Op::kAllPairs, Op::kL12, Op::kF2})
    k->op_names[static_cast<int>(op)] = Interned(OpName(op));
  k->good = Interned(LabelName(Label::kGood));
  k->partial = Interned(LabelName(Label::kPartial));
  g_keys = k;
}

// One row copied out of the snapshot, so that the reading thread can go on.
struct OwnedRow {
  std::string normal_title, simple_title, normal, simple;
  double similarity = 0;
  Op op = Op::kOneOne;
  std::vector<std::pair<uint32_t, uint32_t>> normal_index, simple_index;
  uint64_t normal_revision = 0, simple_revision = 0;
  Label label = Label::kNone;
};

// Rows travel from the reading thread to Python in batches of this many.
constexpr size_t kBatchRows = 2048;
// Batches read ahead of Python at most (bounds memory to a few thousand rows).
constexpr size_t kQueuedBatches = 4;

// An export as a Python iterator: a thread runs ForEachExportRow on the store and hands batches
// of rows over a bounded queue; __next__ builds one dict per row with the GIL held and waits for
// the next batch with the GIL released.
class ExportIterator {
 public:
  ExportIterator(std::shared_ptr<Store> store, ExportOptions options, bool operation_unit)
      : store_(std::move(store)), operation_unit_(operation_unit) {
    reader_ = std::thread([this, o = std::move(options)] { Read(o); });
    // Errors found before the first row (editions, limits) are raised by export() itself.
    {
      py::gil_scoped_release release;
      NextBatch();
      if (batch_.empty()) reader_.join();  // the reader is done: nothing to cancel
    }
    if (batch_.empty()) Check(final_);
  }

  ~ExportIterator() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      cancelled_ = true;
    }
    cv_.notify_all();
    if (reader_.joinable()) {
      py::gil_scoped_release release;
      reader_.join();
    }
  }

  py::object Next() {
    // Another thread's __next__ may be waiting for a batch without the GIL: refuse, as a
    // generator does, rather than touch the batch it is filling.
    if (in_next_) throw py::value_error("export iterator already executing");
    in_next_ = true;
    struct Leave {
      bool* flag;
      ~Leave() { *flag = false; }
    } leave{&in_next_};
    if (pos_ == batch_.size()) {
      {
        py::gil_scoped_release release;
        NextBatch();
      }
      if (pos_ == batch_.size()) {
        Check(final_);
        throw py::stop_iteration();
      }
    }
    return RowDict(batch_[pos_++]);
  }

 private:
  // The reading thread: fills batches, waits while the queue is full, stops when cancelled.
  void Read(const ExportOptions& o) {
    std::vector<OwnedRow> batch;
    batch.reserve(kBatchRows);
    Status s;
    try {
      s = ForEachExportRow(store_.get(), o, [&](const ExportRow& r) -> Status {
        batch.push_back(Own(r));
        if (batch.size() < kBatchRows) return Status::OK();
        if (!Push(&batch)) return Status::Internal("export cancelled");
        batch.reserve(kBatchRows);
        return Status::OK();
      });
    } catch (const std::exception& e) {
      s = Status::Internal(std::string("export failed: ") + e.what());
    }
    if (s.ok() && !batch.empty()) Push(&batch);
    std::lock_guard<std::mutex> lock(mu_);
    final_ = s;
    done_ = true;
    cv_.notify_all();
  }

  static OwnedRow Own(const ExportRow& r) {
    return OwnedRow{std::string(r.normal_title),
                    std::string(r.simple_title),
                    std::string(r.normal),
                    std::string(r.simple),
                    r.similarity,
                    r.op,
                    r.normal_index,
                    r.simple_index,
                    r.normal_revision,
                    r.simple_revision,
                    r.label};
  }

  // Queues `batch` (left empty); false when the consumer is gone.
  bool Push(std::vector<OwnedRow>* batch) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return cancelled_ || queue_.size() < kQueuedBatches; });
    if (cancelled_) return false;
    queue_.push_back(std::move(*batch));
    batch->clear();
    cv_.notify_all();
    return true;
  }

  // Waits for the next batch (or the end); called without the GIL.
  void NextBatch() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return done_ || !queue_.empty(); });
    batch_.clear();
    pos_ = 0;
    if (!queue_.empty()) {
      batch_ = std::move(queue_.front());
      queue_.pop_front();
      cv_.notify_all();
    }
  }

  // A title repeated on every row of an article pair is decoded once.
  PyObject* Title(const std::string& s, std::string* last, py::object* cached) {
    if (!cached->ptr() || s != *last) {
      *cached = py::reinterpret_steal<py::object>(Str(s));
      *last = s;
    }
    return cached->inc_ref().ptr();
  }

  static PyObject* Str(const std::string& s) {
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    if (!o) throw py::error_already_set();
    return o;
  }

  static PyObject* Pos(const std::pair<uint32_t, uint32_t>& p) {
    PyObject* l = PyList_New(2);
    if (!l) throw py::error_already_set();
    PyList_SET_ITEM(l, 0, PyLong_FromUnsignedLong(p.first));
    PyList_SET_ITEM(l, 1, PyLong_FromUnsignedLong(p.second));
    PyObject_GC_UnTrack(l);  // see RowDict
    return l;
  }

  // A sentence row's index is [paragraph, sentence]; an operation row's a list of them.
  PyObject* Index(const std::vector<std::pair<uint32_t, uint32_t>>& v) const {
    if (!operation_unit_) return Pos(v.at(0));
    PyObject* l = PyList_New(static_cast<Py_ssize_t>(v.size()));
    if (!l) throw py::error_already_set();
    for (size_t i = 0; i < v.size(); ++i) PyList_SET_ITEM(l, i, Pos(v[i]));
    PyObject_GC_UnTrack(l);
    return l;
  }

  // The dict equal to json.loads of Export's JSON line for `r`. A row holds strings, numbers
  // and lists of ints, so it cannot be part of a reference cycle: its dict and lists are left
  // untracked by the cycle collector, as CPython leaves tuples and dicts of such values. Then
  // list(db.export()) of millions of rows costs no collector passes (they took two thirds of
  // its time). A dict that later receives a container is tracked again by CPython.
  py::object RowDict(const OwnedRow& r) {
    const RowKeys& k = *g_keys;
    py::object d = py::reinterpret_steal<py::object>(_PyDict_NewPresized(11));
    if (!d) throw py::error_already_set();
    auto set = [&](PyObject* key, PyObject* value) {
      if (!value) throw py::error_already_set();
      int rc = PyDict_SetItem(d.ptr(), key, value);
      Py_DECREF(value);
      if (rc) throw py::error_already_set();
    };
    set(k.normal_title, Title(r.normal_title, &last_normal_title_, &normal_title_));
    set(k.simple_title, Title(r.simple_title, &last_simple_title_, &simple_title_));
    set(k.normal, Str(r.normal));
    set(k.simple, Str(r.simple));
    set(k.similarity, PyFloat_FromDouble(r.similarity));
    const int op_value = static_cast<int>(r.op);
    PyObject* op = op_value >= 0 && op_value < 16 ? k.op_names[op_value] : nullptr;
    set(k.op, op ? (Py_INCREF(op), op) : Str(OpName(r.op)));
    set(k.normal_index, Index(r.normal_index));
    set(k.simple_index, Index(r.simple_index));
    set(k.normal_revision, PyLong_FromUnsignedLongLong(r.normal_revision));
    set(k.simple_revision, PyLong_FromUnsignedLongLong(r.simple_revision));
    PyObject* label = r.label == Label::kGood      ? k.good
                      : r.label == Label::kPartial ? k.partial
                                                   : Py_None;
    Py_INCREF(label);
    set(k.label, label);
    PyObject_GC_UnTrack(d.ptr());
    return d;
  }

  std::shared_ptr<Store> store_;
  const bool operation_unit_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<OwnedRow>> queue_;  // guarded by mu_
  bool done_ = false, cancelled_ = false;    // guarded by mu_
  Status final_;                             // guarded by mu_ until done_
  std::vector<OwnedRow> batch_;              // the batch being turned into dicts
  size_t pos_ = 0;
  bool in_next_ = false;  // read and written with the GIL held
  std::string last_normal_title_, last_simple_title_;
  py::object normal_title_, simple_title_;
};

// The export filters of Python's keyword arguments, checked as the command line checks them.
struct ExportArgs {
  std::optional<double> min_sim, max_sim;
  std::optional<std::string> op;
  bool identical = true;
  std::optional<std::string> title, normal, simple, collection;
  std::string unit = "sentence";
  std::optional<std::string> label;
};

ExportOptions ToOptions(const ExportArgs& a) {
  ExportOptions o;
  o.min_sim = FiniteOr(a.min_sim, "--min-sim");
  o.max_sim = FiniteOr(a.max_sim, "--max-sim");
  if (a.op) Check(ParseExportOps(*a.op, &o.ops));
  o.no_identical = !a.identical;
  for (const auto& [name, value] :
       {std::pair{"--title", &a.title}, std::pair{"--normal", &a.normal},
        std::pair{"--simple", &a.simple}, std::pair{"--collection", &a.collection}})
    if (*value && (*value)->empty()) BadInput(std::string(name) + ": must not be empty");
  if (a.title) o.title = *a.title;
  o.editions = {a.normal.value_or(""), a.simple.value_or("")};
  if (a.collection) o.editions = {*a.collection, *a.collection};
  if (a.unit == "operation")
    o.unit = ExportUnit::kOperation;
  else if (a.unit != "sentence")
    BadInput("--unit: " + a.unit + " not in {sentence,operation}");
  if (a.label && !ParseLabelName(*a.label, &o.label))
    BadInput("--label: " + *a.label + " not in {good,partial}");
  return o;
}

EditionPair Editions(const std::optional<std::string>& normal,
                     const std::optional<std::string>& simple) {
  return {normal.value_or(""), simple.value_or("")};
}

// A database opened read-only; close() drops this handle (iterators still running keep the
// store open until they end).
class Database {
 public:
  explicit Database(const std::string& path) : path_(path) {
    if (path.empty()) BadInput("--db: expected a database directory, not an empty path");
    StoreOptions opts;
    opts.read_only = true;
    std::unique_ptr<Store> store;
    {
      py::gil_scoped_release release;
      Check(Store::Open(opts, path, &store));
    }
    store_ = std::move(store);
  }

  const std::string& path() const { return path_; }
  bool closed() const { return store_ == nullptr; }
  void Close() { store_.reset(); }

  std::string LookupJson(const std::string& title, const std::optional<std::string>& normal,
                         const std::optional<std::string>& simple) {
    auto store = Open();
    std::string out;
    py::gil_scoped_release release;
    Check(Lookup(store.get(), Editions(normal, simple), title, OutputFormat::kJson, &out));
    return out;
  }

  std::string StatsJson(const std::optional<std::string>& normal,
                        const std::optional<std::string>& simple,
                        const std::optional<std::string>& collection, double min_sim) {
    if (!std::isfinite(min_sim)) BadInput("--min-sim: expected a finite number");
    auto store = Open();
    EditionPair editions = Editions(normal, simple);
    if (collection) editions = {*collection, *collection};
    std::ostringstream out;
    py::gil_scoped_release release;
    Check(Stats(store.get(), editions, min_sim, OutputFormat::kJson, out));
    return out.str();
  }

  std::unique_ptr<ExportIterator> Export(const ExportArgs& args) {
    ExportOptions o = ToOptions(args);
    const bool operation_unit = o.unit == ExportUnit::kOperation;
    return std::make_unique<ExportIterator>(Open(), std::move(o), operation_unit);
  }

  py::dict EditionCountsDict() {
    auto store = Open();
    std::map<std::string, EditionCounts> counts;
    {
      py::gil_scoped_release release;
      std::map<std::string, uint32_t> editions;
      Check(store->Editions(&editions));
      for (auto& [name, id] : editions) Check(store->GetEditionCounts(id, &counts[name]));
    }
    py::dict out;
    for (auto& [name, c] : counts) {
      py::dict d;
      d["articles"] = c.articles;
      d["redirects"] = c.redirects;
      d["paragraphs"] = c.paragraphs;
      d["sentences"] = c.sentences;
      out[py::str(name)] = d;
    }
    return out;
  }

  std::vector<std::string> Articles(const std::string& edition) {
    auto store = Open();
    std::vector<std::string> titles;
    py::gil_scoped_release release;
    uint32_t id;
    Check(EditionOf(store.get(), edition, &id));
    auto snap = store->NewSnapshot();
    Check(store->ForEachArticle(
        id, [&](const pb::Article& a) { return titles.push_back(a.title()), Status::OK(); },
        snap.get()));
    return titles;
  }

  py::dict Show(const std::string& edition, const std::string& title) {
    auto store = Open();
    std::vector<pb::Article> found;
    {
      py::gil_scoped_release release;
      uint32_t id;
      Check(EditionOf(store.get(), edition, &id));
      Check(FindArticles(store.get(), {{edition, id}}, title, &found));
    }
    const pb::Article& a = found.at(0);
    py::dict d;
    d["edition"] = a.edition();
    d["title"] = a.title();
    d["id"] = a.page_id();
    d["revision"] = a.revision_id();
    if (!a.timestamp().empty()) d["timestamp"] = a.timestamp();
    d["flags"] = FlagNames(a.flags());
    py::list paragraphs;
    for (const auto& p : a.paragraphs()) {
      py::list sentences;
      for (const auto& s : p.sentences()) sentences.append(py::str(s));
      paragraphs.append(sentences);
    }
    d["paragraphs"] = paragraphs;
    return d;
  }

 private:
  std::shared_ptr<Store> Open() const {
    if (!store_) BadInput(path_ + ": the database is closed");
    return store_;
  }

  // The id of `edition`, NotFound with show's message when the database lacks it.
  Status EditionOf(Store* store, const std::string& edition, uint32_t* id) const {
    std::map<std::string, uint32_t> editions;
    RETURN_IF_ERROR(store->Editions(&editions));
    auto it = editions.find(edition);
    if (it == editions.end()) return NoSuchEdition(edition, path_, editions);
    *id = it->second;
    return Status::OK();
  }

  std::string path_;
  std::shared_ptr<Store> store_;
};

PyObject* NewException(py::module_& m, const char* name, const char* doc, PyObject* bases) {
  std::string full = std::string("aligndb.") + name;
  PyObject* e = PyErr_NewExceptionWithDoc(full.c_str(), doc, bases, nullptr);
  if (!e) throw py::error_already_set();
  m.add_object(name, py::reinterpret_borrow<py::object>(e));
  return e;
}

void AddExceptions(py::module_& m) {
  g_exc.error = NewException(m, "Error", "Base of every aligndb error.", PyExc_Exception);
  auto with = [](PyObject* builtin) {
    return py::make_tuple(py::handle(g_exc.error), py::handle(builtin)).release().ptr();
  };
  g_exc.not_found = NewException(
      m, "NotFound", "No such title, edition or alignment (exit code 6).", with(PyExc_LookupError));
  g_exc.bad_input =
      NewException(m, "BadInput", "A bad argument (exit code 2).", with(PyExc_ValueError));
  g_exc.io_error =
      NewException(m, "IOError", "The file system failed (exit code 4).", with(PyExc_OSError));
  g_exc.busy = NewException(m, "Busy", "The database is in use (exit code 5).", g_exc.error);
  g_exc.corruption =
      NewException(m, "Corruption", "Bad stored or input data (exit code 3).", g_exc.error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatusError& e) {
      PyErr_SetString(ExceptionFor(e.status.code()), e.status.message().c_str());
    }
  });
}

}  // namespace
}  // namespace aligndb::python

PYBIND11_MODULE(_aligndb, m) {
  using namespace aligndb::python;
  m.doc() = "aligndb's read API (the extension behind the aligndb package).";
  AddExceptions(m);
  MakeRowKeys();

  py::class_<ExportIterator>(m, "ExportIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &ExportIterator::Next);

  py::class_<ExportArgs>(m, "ExportArgs")
      .def(py::init<>())
      .def_readwrite("min_sim", &ExportArgs::min_sim)
      .def_readwrite("max_sim", &ExportArgs::max_sim)
      .def_readwrite("op", &ExportArgs::op)
      .def_readwrite("identical", &ExportArgs::identical)
      .def_readwrite("title", &ExportArgs::title)
      .def_readwrite("normal", &ExportArgs::normal)
      .def_readwrite("simple", &ExportArgs::simple)
      .def_readwrite("collection", &ExportArgs::collection)
      .def_readwrite("unit", &ExportArgs::unit)
      .def_readwrite("label", &ExportArgs::label);

  py::class_<Database>(m, "Database")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def_property_readonly("path", &Database::path)
      .def_property_readonly("closed", &Database::closed)
      .def("close", &Database::Close)
      .def("lookup_json", &Database::LookupJson, py::arg("title"), py::arg("normal"),
           py::arg("simple"))
      .def("stats_json", &Database::StatsJson, py::arg("normal"), py::arg("simple"),
           py::arg("collection"), py::arg("min_sim"))
      .def("export", &Database::Export, py::arg("args"))
      .def("editions", &Database::EditionCountsDict)
      .def("articles", &Database::Articles, py::arg("edition"))
      .def("show", &Database::Show, py::arg("edition"), py::arg("title"));
}
