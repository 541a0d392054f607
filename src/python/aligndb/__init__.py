"""aligndb from Python: read the alignments of an aligndb database.

    import aligndb
    with aligndb.open("wiki.db") as db:
        record = db.lookup("April")
        for row in db.export(min_sim=0.75, op="1-1"):
            ...

The database is opened read-only, as ``aligndb lookup`` and ``aligndb export`` open it: it may
be read while another process writes, each call reads one consistent snapshot, and a Database
shows what was committed when it was opened (open it again to see later writes). Results equal
what the command line prints as JSON: ``lookup`` is ``aligndb lookup --format json``, every row of
``export`` a line of ``aligndb export --format jsonl``, ``stats`` is ``aligndb stats --json``.
Errors raise :class:`Error` subclasses carrying the command line's one-line message.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from ._aligndb import (  # noqa: F401  (re-exported)
    Busy,
    Corruption,
    Error,
    IOError,
    BadInput,
    NotFound,
)
from . import _aligndb

__all__ = ["open", "Database", "Error", "NotFound", "BadInput", "IOError", "Busy", "Corruption"]


class Database:
    """An aligndb database opened read-only; a context manager that closes it on exit."""

    def __init__(self, path: str) -> None:
        self._db = _aligndb.Database(str(path))

    @property
    def path(self) -> str:
        """The database directory."""
        return self._db.path

    @property
    def closed(self) -> bool:
        """True after close()."""
        return self._db.closed

    def close(self) -> None:
        """Closes the database; later calls raise BadInput. Iterators still open keep reading."""
        self._db.close()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<aligndb.Database {self.path!r} ({state})>"

    def lookup(
        self, title: str, normal: Optional[str] = None, simple: Optional[str] = None
    ) -> Dict[str, Any]:
        """The alignment of the article pair titled ``title`` (either edition's title, or a
        redirect to one): ``aligndb lookup --format json``. NotFound says why there is none."""
        return json.loads(self._db.lookup_json(title, normal, simple))

    def export(
        self,
        min_sim: Optional[float] = None,
        max_sim: Optional[float] = None,
        op: Union[str, Iterable[str], None] = None,
        identical: bool = True,
        title: Optional[str] = None,
        normal: Optional[str] = None,
        simple: Optional[str] = None,
        collection: Optional[str] = None,
        unit: str = "sentence",
        label: Optional[str] = None,
    ) -> Iterator[Dict[str, Any]]:
        """The selected rows as dicts, equal to the lines of ``aligndb export --format jsonl``
        with the same filters: ``min_sim``/``max_sim`` (``--min-sim``/``--max-sim``; None: the
        command line's default, 0.5 and 1.0 for an edition pair, no limit for a paraphrase
        ``collection``, whose scores are edit distances or word counts; a value given is a limit
        there too, as on the command line), ``op``
        ("1-1,2-1": ``--op``; default every pair-producing operation), ``identical=False``
        (``--no-identical``), ``title``, ``normal``/``simple`` (the edition pair), ``collection``,
        ``unit`` ("sentence" or "operation") and ``label`` ("good" or "partial"). Rows are read
        from one snapshot by a reading thread, a few thousand ahead of the caller. Bad arguments
        and a missing alignment raise here, before the first row."""
        a = _aligndb.ExportArgs()
        a.min_sim = min_sim
        a.max_sim = max_sim
        a.op = op if op is None or isinstance(op, str) else ",".join(op)
        a.identical = bool(identical)
        a.title = title
        a.normal = normal
        a.simple = simple
        a.collection = collection
        a.unit = unit
        a.label = label
        return self._db.export(a)

    def stats(
        self,
        normal: Optional[str] = None,
        simple: Optional[str] = None,
        collection: Optional[str] = None,
        min_sim: float = 0.5,
    ) -> Dict[str, Any]:
        """Corpus statistics of an edition pair (or a paraphrase ``collection``):
        ``aligndb stats --json``."""
        return json.loads(self._db.stats_json(normal, simple, collection, float(min_sim)))

    def editions(self) -> Dict[str, Dict[str, int]]:
        """Article, redirect, paragraph and sentence counts per stored edition (the "editions"
        of ``aligndb info --json``)."""
        return self._db.editions()

    def articles(self, edition: str) -> List[str]:
        """The titles of every article of ``edition``, in page-id order (the order of
        ``aligndb show --all --edition EDITION``)."""
        return self._db.articles(edition)

    def show(self, edition: str, title: str) -> Dict[str, Any]:
        """One stored article's paragraphs and sentences:
        ``aligndb show --edition EDITION TITLE --format json``."""
        return self._db.show(edition, title)


def open(path: str) -> Database:  # noqa: A001  (the package's entry point, as in sqlite3)
    """Opens the aligndb database at ``path`` read-only. Raises IOError/NotFound/Corruption with
    the command line's message when it is missing or not an aligndb database."""
    return Database(path)
