"""A question across filings in the review report: its legs nested under it, and the combination.

The orchestrator answers such a question leg by leg (`finqa.orchestrator.legs`): each leg is a
question of its own in the chain (`<qid>/leg<N>`: retrieval, reasoning, judge, retries), and the
parent records the plan (`question_start`), the combination (`decision` / `combine`: one entry
per leg and the calculation over their figures) and its `final`. `nest_legs` puts each leg's
report entry under its parent and reads the combination: the operation, one operand per leg
(its figure, company, period and citation), the result re-executed now, whether it is derived
(a quarter stitched from a 10-K and a 10-Q), notes (fiscal years that end on different dates,
anything else a leg records) and the whole's status with the legs that kept it from being
accepted. A leg whose parent is not in the report (e.g. `--question-id <qid>/leg2`) stays a
question of its own. Everything here is data for the page: text is shown as text there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["LEG_KEYS", "combine_entry", "is_parent", "nest_legs", "parent_of"]

_LEG_ID = re.compile(r"^(?P<parent>.+)/leg(?P<n>[0-9]+)$")
# the fields a leg's entry in the combine record carries (`LegResult` less citations and
# answer; the figure as filed, its scale and filing are shown with the figure); any other field
# (a restatement, a 52/53-week year, a balance's date) is a note
LEG_KEYS = frozenset(
    {
        "index", "label", "company", "metric", "fiscal_year", "months", "question",
        "question_id", "status", "utility", "value", "unit", "period_end", "reason",
        "raw", "scale", "figure_end", "doc_id",
    }
)  # fmt: skip
_PLAN = re.compile(r"^\s*(?P<kind>\w+)\s*\((?P<op>\w+)\)")
_DERIVED_OPS = frozenset({"stitch", "ttm"})  # a period no filing reports: made from two


def parent_of(qid: str) -> str | None:
    """'q7' for 'q7/leg2'; None for a question that is not a leg."""
    m = _LEG_ID.match(qid)
    return m.group("parent") if m else None


def is_parent(entry: Mapping[str, Any]) -> bool:
    """True for a question answered leg by leg (its start records a plan, or it combined)."""
    switches = entry.get("switches") or {}
    return bool(entry.get("combine")) or (
        isinstance(switches, Mapping) and isinstance(switches.get("legs"), int)
    )


def combine_entry(
    rec: Mapping[str, Any], verified: bool, calculations: list[dict[str, Any]]
) -> dict[str, Any]:
    """The parent's `decision` / `combine` record for the report (calculations re-executed)."""
    data = rec.get("data") if isinstance(rec.get("data"), Mapping) else {}
    legs = [dict(g) for g in (data or {}).get("legs") or [] if isinstance(g, Mapping)]
    return {
        "seq": rec.get("seq"),
        "verified": verified,
        "reason": rec.get("reason"),
        "legs": legs,
        "calculations": calculations,
    }


def _figure(value: Any, unit: Any) -> str:
    """A leg's figure as the answer prints it, or 'not found'."""
    from finqa.lexicon.display import shown_base

    if not isinstance(value, int | float) or isinstance(value, bool):
        return "not found"
    return shown_base(float(value), str(unit) if unit else None)


def _period(leg: Mapping[str, Any]) -> str:
    fy, months = leg.get("fiscal_year"), leg.get("months")
    year = f"FY{fy}" if fy else "latest fiscal year"
    return f"first {months} months of {year}" if months else year


def _citation(
    leg: Mapping[str, Any], entry: Mapping[str, Any] | None, parent: Sequence[Mapping[str, Any]]
) -> dict[str, Any] | None:
    """The leg's first citation: from its own final record, else the parent's 'L<n>.' ones."""
    own = list((entry or {}).get("citations") or [])
    if not own:
        prefix = f"L{leg.get('index')}."
        own = [c for c in parent if str(c.get("source_id") or "").startswith(prefix)]
    return dict(own[0]) if own else None


def _leg(
    leg: Mapping[str, Any], entry: Mapping[str, Any] | None, parent: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    extra = {k: v for k, v in leg.items() if k not in LEG_KEYS and v not in (None, "", [], {})}
    return {
        **{k: leg.get(k) for k in LEG_KEYS},
        "period": _period(leg),
        "figure": _figure(leg.get("value"), leg.get("unit")),
        "citation": _citation(leg, entry, parent),
        "extra": extra,
        "entry": dict(entry) if entry is not None else None,
    }


def _from_entries(qid: str, entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Legs known only from their own records (no combine record: e.g. the run stopped)."""
    out = []
    for e in entries:
        m = _LEG_ID.match(str(e.get("qid")))
        if m is None or m.group("parent") != qid:
            continue
        out.append(
            {
                "index": int(m.group("n")),
                "label": e.get("question"),
                "question": e.get("question"),
                "question_id": e.get("qid"),
                "status": e.get("status"),
                "utility": e.get("utility"),
                "reason": e.get("reason"),
            }
        )
    return sorted(out, key=lambda g: int(g["index"]))


def _notes(legs: Sequence[Mapping[str, Any]]) -> list[str]:
    """What a reviewer should know about how the legs line up."""
    notes: list[str] = []
    ends: dict[str, str] = {}
    for g in legs:
        if g.get("period_end") and g.get("company"):
            ends.setdefault(str(g["company"]), str(g["period_end"]))
    if len({e[5:10] for e in ends.values()}) > 1:
        shown = ", ".join(f"{c} FY ending {e}" for c, e in ends.items())
        notes.append(f"fiscal years end on different dates ({shown})")
    for g in legs:
        for key, value in (g.get("extra") or {}).items():
            notes.append(f"leg {g.get('index')} {key.replace('_', ' ')}: {value}")
    return notes


def _operation(entry: Mapping[str, Any], calcs: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    """(kind, operation) from the recorded plan ('trend (cagr): ...'), else the calculation."""
    m = _PLAN.match(str(entry.get("plan") or ""))
    if m is not None:
        return m.group("kind"), m.group("op")
    switches = entry.get("switches") or {}
    kind = str(switches.get("plan") or "") if isinstance(switches, Mapping) else ""
    words = str((calcs[0] if calcs else {}).get("description") or "").split()
    return kind, words[0] if words else ""


def _operands(calcs: list[dict[str, Any]], legs: Mapping[str, Mapping[str, Any]]) -> None:
    """Each operand named 'leg<N>' gets its leg's company, period, figure, status, citation."""
    for calc in calcs:
        for op in calc.get("operands") or []:
            leg = legs.get(str(op.get("name")))
            if leg is None:
                continue
            cite = leg.get("citation") or {}
            op["leg"] = {
                "index": leg.get("index"),
                "label": leg.get("label"),
                "company": leg.get("company"),
                "period": leg.get("period"),
                "period_end": leg.get("period_end"),
                "figure": leg.get("figure"),
                "status": leg.get("status"),
                "doc_id": cite.get("doc_id"),
                "page": cite.get("page"),
            }


def _verdict(status: str, legs: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    failed = [
        {
            "index": g.get("index"),
            "label": g.get("label"),
            "status": g.get("status"),
            "why": "no figure found" if g.get("figure") == "not found" else "not verified",
        }
        for g in legs
        if g.get("status") != "accepted"
    ]
    if not failed and status == "accepted":
        return failed, f"accepted: all {len(legs)} legs accepted and combined"
    named = "; ".join(f"leg {f['index']} {f['label']} {f['status']} ({f['why']})" for f in failed)
    if status == "accepted":
        return failed, f"accepted, yet {named}"
    return failed, f"not accepted ({status}): " + (named or "the legs could not be combined")


def _combination(entry: dict[str, Any], legs: list[dict[str, Any]]) -> dict[str, Any]:
    combine = entry.get("combine") or {}
    calcs = [dict(c) for c in combine.get("calculations") or entry.get("calculations") or []]
    for c in calcs:
        c["operands"] = [dict(o) for o in c.get("operands") or []]
        c["shown"] = _figure(c.get("result"), c.get("unit"))
    _operands(calcs, {f"leg{g.get('index')}": g for g in legs})
    kind, op = _operation(entry, calcs)
    failed, verdict = _verdict(str(entry.get("status")), legs)
    derived = op in _DERIVED_OPS or kind == "stitched" or any(g.get("months") for g in legs)
    return {
        "kind": kind,
        "operation": op,
        "plan": entry.get("plan"),
        "calculations": calcs,
        "derived": derived,
        "notes": _notes(legs),
        "status": entry.get("status"),
        "failed": failed,
        "verdict": verdict,
        "reason": combine.get("reason") or entry.get("reason"),
        "seq": combine.get("seq"),
        "verified": combine.get("verified", bool(entry.get("verified"))),
    }


def _fold(parent: dict[str, Any], legs: list[dict[str, Any]]) -> None:
    """The parent's table row speaks for its legs: attempts, filings, companies, verification."""
    entries = [g["entry"] for g in legs if g.get("entry")]
    parent["leg_count"] = len(legs)
    parent["leg_ids"] = [g.get("question_id") for g in legs]
    parent["leg_labels"] = [g.get("label") for g in legs]
    parent["attempts"] = sum(int(e.get("attempts") or 0) for e in entries)
    parent["filings"] = sorted(
        set(parent.get("filings") or []) | {f for e in entries for f in e.get("filings") or []}
    )
    companies = [str(g["company"]) for g in legs if g.get("company")]
    if companies:
        parent["company"] = ", ".join(dict.fromkeys(companies))
    flags = list(parent.get("flags") or [])
    if any(not e.get("verified") for e in entries):
        parent["verified"] = False
        if "unverified" not in flags:
            flags.append("unverified")
    unknown = any("unknown records" in (e.get("flags") or []) for e in entries)
    if unknown and "unknown records" not in flags:
        flags.append("unknown records")
    bad = [g for g in legs if g.get("status") != "accepted"]
    if bad:
        flags.append(f"{len(bad)} of {len(legs)} legs not accepted")
    parent["flags"] = flags
    parent["checkpointed"] = bool(parent.get("checkpointed")) and all(
        e.get("checkpointed") for e in entries
    )


def nest_legs(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The report's questions with each leg under its parent (`legs`, `combination`); a leg whose
    parent is not among `entries` is kept as a question of its own."""
    by_key = {(e.get("run_id"), e.get("qid")): e for e in entries}
    children: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
    for e in entries:
        parent = parent_of(str(e.get("qid")))
        key = (e.get("run_id"), parent)
        if parent is not None and key in by_key and is_parent(by_key[key]):
            children.setdefault(key, []).append(e)
    out: list[dict[str, Any]] = []
    for e in entries:
        parent = parent_of(str(e.get("qid")))
        if parent is not None and (e.get("run_id"), parent) in children:
            continue
        if is_parent(e):
            mine = children.get((e.get("run_id"), e.get("qid")), [])
            own = {str(c.get("qid")): c for c in mine}
            recorded = (e.get("combine") or {}).get("legs") or _from_entries(str(e["qid"]), mine)
            cites = list(e.get("citations") or [])
            legs = [_leg(g, own.pop(str(g.get("question_id")), None), cites) for g in recorded]
            for g in _from_entries(str(e["qid"]), list(own.values())):  # not in the combination
                legs.append(_leg(g, own[str(g["question_id"])], cites))
            e["legs"] = legs
            e["combination"] = _combination(e, legs)
            _fold(e, legs)
        e.pop("combine", None)  # read into `combination`
        out.append(e)
    return out
