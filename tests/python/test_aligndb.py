"""The Python package against the command line on the same databases: lookups, exports, stats,
show and info equal the CLI's JSON; bad arguments raise the CLI's messages; a reader works while
another process writes."""

import gc
import json
import math
import shlex
import shutil
import subprocess
import threading
import time

import pytest

import aligndb
from conftest import BINARY, SOURCE, cli_json, cli_jsonl, run

# Exit code of the CLI → the exception the package raises for the same Status.
EXCEPTION_OF_EXIT = {
    2: aligndb.BadInput,
    3: aligndb.Corruption,
    4: aligndb.IOError,
    5: aligndb.Busy,
    6: aligndb.NotFound,
}


def assert_same_error(excinfo, cli_args):
    """The exception carries the CLI's one-line message and the class of its exit code."""
    r = run(*cli_args, check=False)
    assert r.returncode in EXCEPTION_OF_EXIT, r.stderr
    assert isinstance(excinfo.value, EXCEPTION_OF_EXIT[r.returncode]), (excinfo.value, r.stderr)
    assert isinstance(excinfo.value, aligndb.Error)
    line = r.stderr.strip()
    assert line.startswith("aligndb: ") and line.endswith(": " + str(excinfo.value)), (
        line, str(excinfo.value))


@pytest.fixture()
def db(sample_db):
    with aligndb.open(sample_db) as d:
        yield d


def test_exception_hierarchy():
    assert issubclass(aligndb.NotFound, aligndb.Error)
    assert issubclass(aligndb.NotFound, LookupError)
    assert issubclass(aligndb.BadInput, ValueError)
    assert issubclass(aligndb.IOError, OSError)
    for e in (aligndb.Busy, aligndb.Corruption):
        assert issubclass(e, aligndb.Error)


def titles_of(db, n):
    rows = list(db.export(min_sim=-1))
    titles = []
    for r in rows:
        if r["simple_title"] not in titles:
            titles.append(r["simple_title"])
    assert len(titles) >= n
    return titles[:: max(1, len(titles) // n)][:n]


def test_lookup_equals_cli(db, sample_db):
    for title in titles_of(db, 6):
        assert db.lookup(title) == cli_json("lookup", "--db", sample_db, title, "--format", "json")
    title = titles_of(db, 1)[0]
    want = cli_json("lookup", "--db", sample_db, title, "--format", "json",
                    "--normal", "enwiki", "--simple", "simplewiki")
    assert db.lookup(title, normal="enwiki", simple="simplewiki") == want


def test_lookup_errors_carry_cli_messages(db, sample_db):
    with pytest.raises(aligndb.NotFound) as e:
        db.lookup("No Such Article At All")
    assert_same_error(e, ["lookup", "--db", sample_db, "No Such Article At All"])
    with pytest.raises(aligndb.NotFound) as e:
        db.lookup("April", normal="dewiki")
    assert_same_error(e, ["lookup", "--db", sample_db, "April", "--normal", "dewiki"])


EXPORT_FILTERS = [
    ({}, []),
    ({"min_sim": 0.75}, ["--min-sim", "0.75"]),
    ({"min_sim": 0.2, "max_sim": 0.6}, ["--min-sim", "0.2", "--max-sim", "0.6"]),
    ({"op": "1-1"}, ["--op", "1-1"]),
    ({"op": "1-2,2-1"}, ["--op", "1-2,2-1"]),
    ({"op": ["2-1", "2-2"]}, ["--op", "2-1,2-2"]),
    ({"identical": False}, ["--no-identical"]),
    ({"normal": "enwiki", "simple": "simplewiki"}, ["--normal", "enwiki", "--simple", "simplewiki"]),
    ({"unit": "operation"}, ["--unit", "operation"]),
    ({"unit": "operation", "label": "good", "identical": False},
     ["--unit", "operation", "--label", "good", "--no-identical"]),
    ({"label": "partial", "min_sim": 0.0}, ["--label", "partial", "--min-sim", "0"]),
    ({"label": "good"}, ["--label", "good"]),
]


@pytest.mark.parametrize("kwargs,flags", EXPORT_FILTERS)
def test_export_equals_cli(db, sample_db, kwargs, flags):
    want = cli_jsonl("export", "--db", sample_db, "--format", "jsonl", *flags)
    got = list(db.export(**kwargs))
    assert got == want
    if not kwargs:
        assert len(got) > 100  # the samples give a few hundred pairs


def test_export_title_equals_cli(db, sample_db):
    for title in titles_of(db, 3):
        want = cli_jsonl("export", "--db", sample_db, "--format", "jsonl", "--title", title,
                         "--min-sim", "0")
        got = list(db.export(title=title, min_sim=0.0))
        assert got == want and got


def test_export_rows_are_exact(db):
    row = next(iter(db.export()))
    assert list(row) == ["normal_title", "simple_title", "normal", "simple", "similarity", "op",
                         "normal_index", "simple_index", "normal_revision", "simple_revision",
                         "label"]
    assert isinstance(row["similarity"], float) and 0.5 <= row["similarity"] <= 1.0


def test_collection_export_and_stats_equal_cli(news_db):
    with aligndb.open(news_db) as db:
        for kwargs, flags in [({}, []), ({"op": "l12"}, ["--op", "l12"]),
                              ({"op": "f2"}, ["--op", "f2"])]:
            want = cli_jsonl("export", "--db", news_db, "--collection", "news", "--format",
                             "jsonl", *flags)
            assert list(db.export(collection="news", **kwargs)) == want
            assert want  # similarity is an edit distance: no default limit applies
        # Limits given are limits, also when they are the edition pairs' defaults.
        want = cli_jsonl("export", "--db", news_db, "--collection", "news", "--format", "jsonl",
                         "--min-sim", "0.5", "--max-sim", "1")
        assert list(db.export(collection="news", min_sim=0.5, max_sim=1.0)) == want
        assert db.stats(collection="news") == cli_json("stats", "--db", news_db, "--collection",
                                                       "news", "--json")


def test_stats_editions_articles_show_equal_cli(db, sample_db):
    assert db.stats() == cli_json("stats", "--db", sample_db, "--json")
    assert db.stats(normal="enwiki", simple="simplewiki", min_sim=0.75) == cli_json(
        "stats", "--db", sample_db, "--json", "--normal", "enwiki", "--simple", "simplewiki",
        "--min-sim", "0.75")
    assert db.editions() == cli_json("info", "--db", sample_db, "--json")["editions"]
    shown = cli_jsonl("show", "--db", sample_db, "--all", "--edition", "simplewiki",
                      "--format", "jsonl")
    assert db.articles("simplewiki") == [a["title"] for a in shown]
    for title in [shown[0]["title"], shown[len(shown) // 2]["title"]]:
        assert db.show("simplewiki", title) == cli_json(
            "show", "--db", sample_db, "--edition", "simplewiki", title, "--format", "json")


def test_show_errors_carry_cli_messages(db, sample_db):
    with pytest.raises(aligndb.NotFound) as e:
        db.show("simplewiki", "No Such Article At All")
    assert_same_error(e, ["show", "--db", sample_db, "--edition", "simplewiki",
                          "No Such Article At All"])
    with pytest.raises(aligndb.NotFound) as e:
        db.show("dewiki", "April")
    assert_same_error(e, ["show", "--db", sample_db, "--edition", "dewiki", "April"])
    with pytest.raises(aligndb.NotFound) as e:
        db.articles("dewiki")


def test_bad_export_arguments(db, sample_db):
    for kwargs, flags, exception in [
        ({"op": "3-3"}, ["--op", "3-3"], aligndb.BadInput),
        ({"op": "skip-simple"}, ["--op", "skip-simple"], aligndb.BadInput),
        ({"min_sim": 0.9, "max_sim": 0.5}, ["--min-sim", "0.9", "--max-sim", "0.5"],
         aligndb.BadInput),
        ({"normal": "dewiki"}, ["--normal", "dewiki"], aligndb.NotFound),
        ({"title": "No Such Article At All"}, ["--title", "No Such Article At All"],
         aligndb.NotFound),
    ]:
        with pytest.raises(exception) as e:
            db.export(**kwargs)  # raised by the call, before any row is asked for
        assert_same_error(e, ["export", "--db", sample_db, "--format", "jsonl", *flags])
    # Checked by the CLI's option parser, whose line adds where to find help.
    for kwargs, flags in [({"unit": "word"}, ["--unit", "word"]),
                          ({"label": "bad"}, ["--label", "bad"]),
                          ({"min_sim": math.nan}, ["--min-sim", "nan"]),
                          ({"max_sim": math.inf}, ["--max-sim", "inf"])]:
        with pytest.raises(aligndb.BadInput) as e:
            db.export(**kwargs)
        r = run("export", "--db", sample_db, "--format", "jsonl", *flags, check=False)
        assert r.returncode == 2
        assert r.stderr.startswith(f"aligndb: Invalid argument: {e.value} (--help"), (
            r.stderr, str(e.value))
    with pytest.raises(TypeError):
        db.export(min_sim="high")


def test_missing_and_bad_databases(tmp_path):
    missing = str(tmp_path / "none.db")
    with pytest.raises(aligndb.Error) as e:
        aligndb.open(missing)
    assert_same_error(e, ["lookup", "--db", missing, "April"])
    not_db = tmp_path / "plain"
    not_db.mkdir()
    (not_db / "file.txt").write_text("x")
    with pytest.raises(aligndb.Error) as e:
        aligndb.open(str(not_db))
    assert_same_error(e, ["lookup", "--db", str(not_db), "April"])
    with pytest.raises(aligndb.BadInput):
        aligndb.open("")


def test_context_manager_closes(sample_db):
    with aligndb.open(sample_db) as db:
        assert not db.closed
        rows = db.export()
        first = next(rows)
    assert db.closed
    assert "closed" in repr(db)
    with pytest.raises(aligndb.BadInput, match="closed"):
        db.lookup("April")
    with pytest.raises(aligndb.BadInput, match="closed"):
        db.export()
    # An iterator begun before close reads on from its snapshot.
    assert sum(1 for _ in rows) + 1 == len(list(aligndb.open(sample_db).export()))
    assert first["similarity"] >= 0.5


def test_abandoned_iterators_stop(db):
    total = len(list(db.export(min_sim=-1)))
    for _ in range(20):  # each read-ahead thread is cancelled and joined
        it = db.export(min_sim=-1)
        next(it)
        del it
    gc.collect()
    assert len(list(db.export(min_sim=-1))) == total


def test_threads_read_in_parallel(db):
    want = list(db.export())
    results = []

    def read():
        results.append(list(db.export()))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 4


def test_reader_during_writer(sample_db, tmp_path):
    """Writer processes ingest into the database while Python opens it, iterates exports and
    looks up titles: every read succeeds and sees the aligned pairs whole."""
    db_dir = tmp_path / "db"
    shutil.copytree(sample_db, db_dir)
    with aligndb.open(str(db_dir)) as db:
        baseline = list(db.export())
        title = titles_of(db, 1)[0]
    script = "set -e; for i in 1 2 3 4; do %s; done" % " ".join([
        shlex.quote(BINARY), "ingest", "--db", shlex.quote(str(db_dir)), "--edition",
        "extra$i", shlex.quote(str(SOURCE / "data/swipe/swipe-sample.enwiki.jsonl"))])
    opened_before = aligndb.open(str(db_dir))
    writer = subprocess.Popen(["bash", "-c", script], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    reads = 0
    try:
        deadline = time.monotonic() + 60
        while (writer.poll() is None or reads < 3) and time.monotonic() < deadline:
            with aligndb.open(str(db_dir)) as db:
                assert list(db.export()) == baseline
                assert db.lookup(title)["simple_title"] == title
                reads += 1
    finally:
        _, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    assert reads >= 3
    with aligndb.open(str(db_dir)) as db:
        assert {"extra1", "extra4"} <= set(db.editions())
    # A Database shows what was committed when it was opened, and reads it still.
    assert set(opened_before.editions()) == {"enwiki", "simplewiki"}
    assert list(opened_before.export()) == baseline


def test_one_iterator_shared_by_threads(db):
    """Threads pulling from one iterator get every row once; a __next__ that meets another
    thread's is refused with ValueError, as a generator's is."""
    want = list(db.export(min_sim=-1))
    it = db.export(min_sim=-1)
    got, refused = [], []

    def pull():
        while True:
            try:
                row = next(it)
            except StopIteration:
                return
            except ValueError:
                refused.append(1)
                continue
            got.append(row)

    threads = [threading.Thread(target=pull) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    key = lambda r: json.dumps(r, sort_keys=True)  # noqa: E731
    assert sorted(map(key, got)) == sorted(map(key, want))
