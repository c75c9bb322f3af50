"""What the store raises when the database cannot do the work (not a member's mistake)."""

from __future__ import annotations


class StoreError(RuntimeError):
    """The database cannot be used as the store needs it."""


class StoreUnavailable(StoreError):  # noqa: N818 - a state of the database, not a failure of ours
    """The database server cannot be reached just now (it went away, restarts, refuses
    connections): nothing was saved, the member may try again; the store reconnects on
    the next transaction."""


class StoreBusy(StoreError):  # noqa: N818
    """A transaction kept losing races with others (serialization failures) past its bound:
    nothing was saved, the member may try again."""


class StoreLocked(StoreError):  # noqa: N818
    """Another program held a lock the transaction needed past PostgreSQL's
    ``lock_timeout`` (SQLite's own is ``SQLITE_BUSY``): nothing was saved, the member may
    try again."""


class StoreReadOnly(StoreError):  # noqa: N818
    """The PostgreSQL server takes no writes (a read-only database or standby, as after a
    fail-over): nothing was saved; reading still works. SQLite's own read-only error is
    ``SQLITE_READONLY``."""


class StoreFull(StoreError):  # noqa: N818
    """The PostgreSQL server's disk is full: nothing was saved. SQLite's own is
    ``SQLITE_FULL``."""
