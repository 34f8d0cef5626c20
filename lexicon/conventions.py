"""Calculation conventions a question states: average vs ending balances, 365 vs 360 days.

Balance-based metrics (returns, turnovers, days outstanding) are computed on the average of
the opening and closing balance by default (the catalogue's `convention`, the textbook
definition); a question that asks for the ending (closing, year-end) balance, or for a
360-day year, gets that instead. Returns and ratios over net income and equity take the
company's own share by default (net income attributable to its shareholders, the equity
attributable to them: us-gaap NetIncomeLoss and StockholdersEquity); a question that asks for
total equity, amounts including noncontrolling interests, or consolidated net income gets the
consolidated lines (ProfitLoss and StockholdersEquityIncludingPortionAttributableTo-
NoncontrollingInterest) instead. These come from general financial definitions, not from any
one question: `stated_conventions` only reads what the question itself says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "Conventions",
    "stated_conventions",
    "apply_conventions",
    "asks_per_share",
    "DEFAULT_DAYS",
]

DEFAULT_DAYS = 365  # days in the year of a days-outstanding metric unless the question says 360

_BALANCE_WORD = (
    r"(?:balances?|inventor(?:y|ies)|receivables?|payables?|(?:total )?assets|equity|pp&?e|"
    r"property|fixed assets|capital|debt|liabilities)"
)
_ENDING = re.compile(
    rf"\b(?:ending|closing|year[- ]end|end[- ]of[- ](?:the[- ])?(?:fiscal[- ])?year)\s+(?:\w+\s+){{0,2}}?{_BALANCE_WORD}\b|"
    rf"\b{_BALANCE_WORD}\s+(?:at|as of)\s+(?:the\s+)?(?:fiscal\s+)?year[- ]end\b|"
    r"\binstead of (?:the )?average\b|\brather than (?:the )?average\b",
    re.IGNORECASE,
)
_AVERAGE = re.compile(r"\baverage\b|\bavg\b|\bmean\b", re.IGNORECASE)
_DAYS = re.compile(r"\b(360|365)(?:[- ]days?\b|\s+days\b|\s*\*)", re.IGNORECASE)
_PER_SHARE = re.compile(
    r"\bper (?:common |ordinary |diluted |basic )?share\b|\beach (?:common )?(?:share|shareholder|stockholder)\b|"
    r"\bper (?:shareholder|stockholder)\b",
    re.IGNORECASE,
)
# the consolidated owners' convention, as a question states it (never a bare 'consolidated': it
# names the statements, 'consolidated balance sheet'); 'total shareholders' equity' names the
# company's owners
_CONSOLIDATED = re.compile(
    r"\btotal equity\b|\bconsolidated (?:net (?:income|earnings)|equity)\b|"
    r"\b(?:including|includes|include|with) (?:the )?(?:non-?controlling|minority) interests?\b",
    re.IGNORECASE,
)
# the company's share stated in words that contain 'total equity' or 'consolidated net income':
# 'total equity attributable to Acme', '(total equity less noncontrolling interests)',
# 'consolidated net income attributable to Walmart' name the parent's, not the total
_PARENT_SPAN = re.compile(
    r"\bconsolidated net (?:income|earnings) attributable to (?!non-?controlling|minority)|"
    r"\btotal equity,?\s*(?:attributable to (?!non-?controlling|minority)|"
    r"(?:less|minus|excluding|excludes|net of|without|after(?: deducting)?) (?:the )?"
    r"(?:non-?controlling|minority) interests?\b)",
    re.IGNORECASE,
)
# the company's share named ('attributable to Kraft Heinz'), not the noncontrolling interests'
_ATTRIBUTABLE = re.compile(r"\battributable to (?!non-?controlling|minority)", re.IGNORECASE)
# the consolidated convention named to be set aside: '(not consolidated net income including
# noncontrolling interests)', 'rather than total equity'
_NEGATED = re.compile(
    r"\b(?:not|rather than|instead of|as opposed to|other than)\s+(?:the\s+)?"
    r"(?:total equity|consolidated net (?:income|earnings)|(?:including|includes|with) (?:the )?"
    r"(?:non-?controlling|minority) interests?)[^,;)?]*",
    re.IGNORECASE,
)
# the company's line -> the consolidated line that adds noncontrolling interests
_CONSOLIDATED_ITEMS = {
    "net_income": "net_income_consolidated",
    "shareholders_equity": "total_equity",
}
_AVG_TERM = re.compile(r"avg\((\w+)\[y\],\s*\1\[y-1\]\)")
_DAYS_TERM = re.compile(r"\b365\b")


@dataclass(frozen=True)
class Conventions:
    """What the question states; None where it says nothing (the catalogue default applies)."""

    balance: Literal["average", "ending"] | None = None
    days: int | None = None
    # 'consolidated': net income and equity including noncontrolling interests
    owners: Literal["consolidated"] | None = None

    def describe(self) -> str:
        """'ending balances, 360-day year' (empty when nothing was stated)."""
        parts = []
        if self.balance:
            parts.append(f"{self.balance} balances")
        if self.days:
            parts.append(f"{self.days}-day year")
        if self.owners:
            parts.append(
                "consolidated net income and total equity, including noncontrolling interests"
            )
        return ", ".join(parts)


def stated_conventions(question: str) -> Conventions:
    """The balance basis and day count a question states ('using ending inventory', '360 days')."""
    q = " ".join(question.split())
    ending = bool(_ENDING.search(q))
    average = bool(_AVERAGE.search(_ENDING.sub(" ", q)))
    balance: Literal["average", "ending"] | None = None
    if ending and not average:
        balance = "ending"
    elif average and not ending:
        balance = "average"
    days = {int(m.group(1)) for m in _DAYS.finditer(q)}
    plain = _NEGATED.sub(" ", _PARENT_SPAN.sub(" ", q))
    stated = _CONSOLIDATED.search(plain)
    parent = _ATTRIBUTABLE.search(plain)
    if stated and parent and parent.start() < stated.start():
        # 'net income attributable to X, and how did it compare with consolidated net
        # income?': the company's share is asked, the consolidated figure is compared with it
        stated = None
    owners: Literal["consolidated"] | None = "consolidated" if stated else None
    return Conventions(balance=balance, days=days.pop() if len(days) == 1 else None, owners=owners)


def apply_conventions(formula: str, conventions: Conventions) -> str:
    """A per-year recipe formula ('365 * avg(inventory[y], inventory[y-1]) / cogs[y]') under the
    stated conventions: ending balances replace the averages, a stated day count the 365."""
    out = formula
    if conventions.balance == "ending":
        out = _AVG_TERM.sub(lambda m: f"{m.group(1)}[y]", out)
    if conventions.days and conventions.days != DEFAULT_DAYS:
        out = _DAYS_TERM.sub(str(conventions.days), out)
    if conventions.owners == "consolidated":
        for own, whole in _CONSOLIDATED_ITEMS.items():
            out = re.sub(rf"\b{own}\b", whole, out)
    return out


def asks_per_share(question: str) -> bool:
    """True when the question asks for a figure per share ('how much could each shareholder
    get', 'dividends per share'): an amount for the whole company is no answer to it."""
    return bool(_PER_SHARE.search(" ".join(question.split())))
