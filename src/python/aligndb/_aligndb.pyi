"""Types of aligndb's extension module (the package aligndb wraps it; use that)."""

from typing import Any, Dict, Iterator, List, Optional

class Error(Exception):
    """Base of every aligndb error; str() is the command line's one-line message."""

class NotFound(Error, LookupError):
    """No such title, edition or alignment (the command line's exit code 6)."""

class BadInput(Error, ValueError):
    """A bad argument (exit code 2)."""

class IOError(Error, OSError):
    """The file system failed (exit code 4)."""

class Busy(Error):
    """The database is in use (exit code 5)."""

class Corruption(Error):
    """Bad stored or input data (exit code 3)."""

class ExportIterator(Iterator[Dict[str, Any]]):
    """Rows of an export as dicts, read ahead by a thread from one snapshot."""
    def __iter__(self) -> ExportIterator: ...
    def __next__(self) -> Dict[str, Any]: ...

class ExportArgs:
    """The filters of Database.export (the options of ``aligndb export``)."""
    min_sim: Optional[float]
    max_sim: Optional[float]
    op: Optional[str]
    identical: bool
    title: Optional[str]
    normal: Optional[str]
    simple: Optional[str]
    collection: Optional[str]
    unit: str
    label: Optional[str]
    def __init__(self) -> None: ...

class Database:
    """A database opened read-only."""
    def __init__(self, path: str) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def lookup_json(self, title: str, normal: Optional[str], simple: Optional[str]) -> str:
        """``aligndb lookup --format json`` as text."""
    def stats_json(
        self,
        normal: Optional[str],
        simple: Optional[str],
        collection: Optional[str],
        min_sim: float,
    ) -> str:
        """``aligndb stats --json`` as text."""
    def export(self, args: ExportArgs) -> ExportIterator: ...
    def editions(self) -> Dict[str, Dict[str, int]]: ...
    def articles(self, edition: str) -> List[str]: ...
    def show(self, edition: str, title: str) -> Dict[str, Any]: ...
