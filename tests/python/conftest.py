"""Fixtures of the Python package's tests: real databases built by the aligndb binary
(ALIGNDB_BINARY) from the bundled samples (ALIGNDB_SOURCE_DIR), as the README's main job does."""

import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("ALIGNDB_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("ALIGNDB_BINARY", str(SOURCE / "build" / "aligndb"))

SAMPLE_INPUTS = [
    "data/wikidumps/enwiki-gensim-sample.xml.bz2",
    "data/wikidumps/simplewiki-sample.xml.bz2",
    "enwiki=data/swipe/swipe-sample.enwiki.jsonl",
    "simplewiki=data/swipe/swipe-sample.simplewiki.jsonl",
]


def run(*args, check=True):
    """Runs the aligndb binary; returns the CompletedProcess (text)."""
    r = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True, cwd=SOURCE)
    if check and r.returncode != 0:
        raise AssertionError(f"aligndb {' '.join(map(str, args))}: exit {r.returncode}: {r.stderr}")
    return r


def cli_json(*args):
    return json.loads(run(*args).stdout)


def cli_jsonl(*args):
    return [json.loads(line) for line in run(*args).stdout.splitlines()]


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory):
    """The bundled samples ingested and aligned (enwiki → simplewiki)."""
    db = tmp_path_factory.mktemp("sample") / "demo.db"
    run("build", "--db", db, *SAMPLE_INPUTS)
    return str(db)


@pytest.fixture(scope="session")
def news_db(tmp_path_factory):
    """A small news paraphrase collection "news" with l12 and f2 pairs."""
    tmp = tmp_path_factory.mktemp("news")
    clusters = tmp / "clusters.jsonl"
    rows = [
        {"cluster": "storm", "doc": "ap",
         "sentences": ["Officials said ten people died.", "The storm hit the coast."]},
        {"cluster": "storm", "doc": "reuters",
         "text": "Officials said that ten people had died. The storm hit the coast on Monday."},
        {"cluster": "vote", "doc": "ap", "sentences": ["The vote was held on Sunday."]},
        {"cluster": "vote", "doc": "afp", "sentences": ["The vote took place on Sunday."]},
    ]
    clusters.write_text("".join(json.dumps(r) + "\n" for r in rows))
    db = tmp / "news.db"
    run("ingest", "--db", db, "--edition", "news", clusters)
    run("paraphrase", "--db", db, "--method", "l12")
    run("paraphrase", "--db", db, "--method", "f2")
    return str(db)
