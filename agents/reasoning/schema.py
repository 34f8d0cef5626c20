"""The reply schema the LLM is asked for (pydantic), sent as `response_format` where supported.

`ReplyModel` is the whole reply: an answer with citations, optional calculations (free form) and
an optional `plan` (plan-then-compute: the model names the line items and periods and the
arithmetic over them; finqa looks the values up and computes). `validate_reply` says whether a
decoded reply conforms, with the first problem in one line, so the audit log can record it.
The models are lenient about extra keys (a small model adds some) but strict about types.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = [
    "ReplyCitation",
    "ReplyOperand",
    "ReplyCalculation",
    "PlanItem",
    "ReplyPlan",
    "ReplyModel",
    "reply_json_schema",
    "validate_reply",
    "QUOTE_MAX",
    "ANSWER_MAX",
]


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


# Length bounds go into the JSON schema, so a grammar-constrained server cannot spend the whole
# token budget copying a table into a quote (a truncated reply is not JSON); validation of
# replies from servers without constraints stays lenient (see validate_reply).
QUOTE_MAX = 160
ANSWER_MAX = 600


class ReplyCitation(_Lenient):
    source: str = Field(description="source id such as S1", max_length=8)
    quote: str = Field(
        default="", description="short exact quote from that source", max_length=QUOTE_MAX
    )


class ReplyOperand(_Lenient):
    name: str
    value: float | str
    unit: str = "USD"
    scale: float | str | None = None
    period: str | None = None
    source: str | None = None
    text: str = ""


class ReplyCalculation(_Lenient):
    description: str = ""
    expression: str
    unit: str = ""
    operands: list[ReplyOperand] = Field(default_factory=list)


class PlanItem(_Lenient):
    """One operand of a plan: a line item of the statement model for one fiscal period."""

    name: str = Field(description="variable name used in the expression, e.g. a")
    item: str = Field(description="line item id from the list shown, e.g. revenue")
    period: str = Field(description="fiscal period, e.g. FY2022")


class ReplyPlan(_Lenient):
    """What to compute: finqa looks up every item and evaluates the expression."""

    expression: str = Field(description="arithmetic over the item names, e.g. (a - b) / b * 100")
    items: list[PlanItem]
    unit: str = Field(default="", description="USD, %, ratio, days or times")
    description: str = ""


class ReplyModel(_Lenient):
    answer: str = Field(max_length=ANSWER_MAX)
    citations: list[ReplyCitation] = Field(default_factory=list)
    calculations: list[ReplyCalculation] = Field(default_factory=list)
    plan: ReplyPlan | None = None
    abstain: bool = False


@lru_cache(maxsize=1)
def reply_json_schema() -> dict[str, Any]:
    """The JSON schema of `ReplyModel` (inlined: some servers' grammar builders skip $ref)."""
    schema = ReplyModel.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return inline(dict(defs[ref.rsplit("/", 1)[1]]))
            return {k: inline(v) for k, v in node.items() if k != "title"}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    out: dict[str, Any] = inline(schema)
    return out


def validate_reply(data: Mapping[str, Any] | None) -> tuple[bool, str]:
    """(conforms to ReplyModel, first problem or ''); over-long strings are not a failure."""
    if data is None:
        return False, "no JSON object in the reply"
    try:
        ReplyModel.model_validate(dict(data))
    except ValidationError as exc:
        errors = [e for e in exc.errors() if e.get("type") != "string_too_long"]
        if not errors:
            return True, ""
        err = errors[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "reply"
        return False, f"{where}: {err.get('msg', 'invalid')}"
    return True, ""
