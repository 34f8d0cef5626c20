"""Which form a bare change's answer leads with, chosen on company-grouped folds.

    python -m finqa.benchmarks.change_form_fit [--questions FILE ...]

A question asking the movement of an amount without stating its form ('what was the
year-over-year change in operating income', 'how much did X grow') is answered with both the
amount and the percent; the headline is `lexicon.answer_form.BARE_CHANGE_HEADLINE`. This reads
every such question of the files given (dev FinanceBench, and the held-out sets A/B and C
where `FINQA_HELDOUT_DIR` holds them: written over FinanceBench filings, CC BY-NC, they stay
outside the repository), takes the form of its gold answer (a percent, an amount, or both), and for each of
five company-grouped folds picks the headline the training folds' gold answers use most (a tie:
percent, the form of a growth rate); it prints the out-of-fold share of questions whose gold
uses the headline chosen without them, and the headline all folds together choose.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from finqa.benchmarks.crossval import company_folds

__all__ = ["bare_change_rows", "fit", "gold_form", "main"]

DEV_QUESTIONS = Path("../shared/financebench/questions.jsonl")
HELDOUT_FILES = ("heldout_questions.jsonl", "heldout3_questions.jsonl")  # sets A/B and C


def default_files() -> list[Path]:
    """The dev questions, then the held-out sets `FINQA_HELDOUT_DIR` holds."""
    held = Path(os.environ.get("FINQA_HELDOUT_DIR", "") or "/nonexistent")
    return [DEV_QUESTIONS, *(held / f for f in HELDOUT_FILES if (held / f).is_file())]


_PCT = re.compile(r"\d\s*%|\bpercent\b")
_AMOUNT = re.compile(r"\$\s*\d|\d\s*(?:million|billion|thousand)\b", re.I)
FORMS = ("amount", "percent")


def gold_form(gold: str) -> str | None:
    """'percent', 'amount' or 'both' as the gold answer states the movement; None: neither."""
    pct, amount = bool(_PCT.search(gold)), bool(_AMOUNT.search(gold))
    if pct and amount:
        return "both"
    return "percent" if pct else "amount" if amount else None


def bare_change_rows(files: Sequence[Path]) -> list[dict[str, Any]]:
    """The questions asking the movement of an amount with no form stated, with gold form."""
    from finqa.lexicon.question_intent import read_intent

    rows = []
    for path in files:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            ask = read_intent(q["question"]).ask
            form = gold_form(str(q.get("answer") or ""))
            if ask.change_form == "both" and form is not None:
                rows.append(
                    {
                        "id": q.get("financebench_id"),
                        "company": q.get("company"),
                        "gold": form,
                        "question": q["question"],
                    }
                )
    return rows


def _choose(rows: Sequence[dict[str, Any]]) -> str:
    votes = Counter(f for r in rows for f in FORMS if r["gold"] in (f, "both"))
    return "amount" if votes["amount"] > votes["percent"] else "percent"


def fit(rows: Sequence[dict[str, Any]], k: int = 5) -> tuple[int, int, str, list[str]]:
    """(out-of-fold hits, questions, headline on all folds, each fold's choice)."""
    folds = company_folds(rows, k) if rows else []
    hits, chosen = 0, []
    for f in range(k):
        train = [r for r, g in zip(rows, folds, strict=True) if g != f]
        head = _choose(train)
        chosen.append(head)
        test = [r for r, g in zip(rows, folds, strict=True) if g == f]
        hits += sum(1 for r in test if r["gold"] in (head, "both"))
    return hits, len(rows), _choose(rows), chosen


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", type=Path, nargs="*", default=None)
    args = p.parse_args(argv)
    rows = bare_change_rows(args.questions or default_files())
    for r in rows:
        print(f"  {r['id']}: gold {r['gold']:8s} {r['question'][:90]}")
    hits, n, head, chosen = fit(rows)
    print(
        f"bare change questions: {n}; folds chose {chosen}; out of fold the gold uses the "
        f"headline in {hits}/{n}; all folds: {head}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
