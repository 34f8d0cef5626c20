"""Review an audit log: records filtered, a pandas DataFrame, CSV/Parquet export.

Lines that are not records (torn fragments named by a recovery record) are skipped. The frame and
the exports are redacted (a log may predate a redaction rule); `load_records` gives the records as
written (their hashes verify). Loading does not verify: run ``verify_log`` (``finqa audit verify``)
to know the records can be trusted.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finqa.agents.errors import AuditError
from finqa.audit._fileio import iter_lines, parse_object, snapshot_size
from finqa.audit.canonical import RECORD_FIELDS, canonical_bytes
from finqa.audit.redact import redact

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["iter_records", "load_records", "load_frame", "export", "EXPORT_SUFFIXES"]

EXPORT_SUFFIXES = (".csv", ".parquet")
_JSON_COLUMNS = ("params", "scores", "data")


def iter_records(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Every complete record of the log, in file order."""
    log = Path(path)
    for _offset, content, has_nl in iter_lines(log, snapshot_size(log)):
        obj = parse_object(content) if has_nl else None
        if obj is not None and "seq" in obj:
            yield obj


def load_records(
    path: str | os.PathLike[str],
    *,
    question_id: str | None = None,
    run_id: str | None = None,
    agent: str | None = None,
    event: str | None = None,
) -> list[dict[str, Any]]:
    """The records matching every filter given (None = any)."""
    wanted = {"question_id": question_id, "run_id": run_id, "agent": agent, "event": event}
    filters = {k: v for k, v in wanted.items() if v is not None}
    return [r for r in iter_records(path) if all(r.get(k) == v for k, v in filters.items())]


def load_frame(path: str | os.PathLike[str], **filters: Any) -> pd.DataFrame:
    """A DataFrame, one row per record: the record columns (params/scores/data as dicts,
    ``ts`` as UTC datetimes, ``attempt`` as nullable Int64) plus one ``scores.<name>``
    column per scalar score; secrets redacted (`finqa.audit.redact`), as in every output."""
    import pandas as pd

    records = [redact(r) for r in load_records(path, **filters)]
    frame = pd.DataFrame.from_records(records, columns=list(RECORD_FIELDS))
    frame["ts"] = pd.to_datetime(frame["ts"], utc=True, format="ISO8601")
    frame["seq"] = frame["seq"].astype("int64")
    frame["attempt"] = frame["attempt"].astype("Int64")
    names = sorted({k for r in records for k, v in (r.get("scores") or {}).items() if _scalar(v)})
    for name in names:
        values = [(r.get("scores") or {}).get(name) for r in records]
        column = pd.Series([v if _scalar(v) else None for v in values], index=frame.index)
        numeric = pd.to_numeric(column, errors="coerce")
        present = [v for v in values if v is not None]
        if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            numeric = numeric.astype("Int64")  # counts stay counts: '10', not '10.0'
        frame[f"scores.{name}"] = (
            numeric if numeric.notna().sum() == column.notna().sum() else column
        )
    return frame


def _scalar(value: Any) -> bool:
    return isinstance(value, int | float | str | bool)


def export(path: str | os.PathLike[str], out: str | os.PathLike[str], **filters: Any) -> Path:
    """Write the log to ``out`` (.csv or .parquet); params/scores/data as canonical JSON text."""
    target = Path(out)
    suffix = target.suffix.lower()
    if suffix not in EXPORT_SUFFIXES:
        raise AuditError(f"cannot export to {target.name}: use a .csv or .parquet file name")
    frame = load_frame(path, **filters)
    for column in _JSON_COLUMNS:
        frame[column] = [canonical_bytes(v).decode("utf-8") for v in frame[column]]
    target.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".csv":
        frame = frame.assign(ts=frame["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
        frame.to_csv(target, index=False)
    else:
        for column in frame.columns:
            if column.startswith("scores.") and frame[column].dtype == object:
                frame[column] = frame[column].map(lambda v: None if v is None else str(v))
        frame.to_parquet(target, index=False)
    return target
