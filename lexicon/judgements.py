"""General financial judgements (capital intensity, a healthy quick ratio, high growth): the
ratios each reads and the thresholds of its general definition, from
`lexicon/data/judgements.yaml`. One place for these rules: the offline reasoner's judgement
family and its metric verdicts read them here."""

from __future__ import annotations

from dataclasses import dataclass

from finqa.lexicon._data import data_cache, read_yaml

__all__ = ["Judgement", "RatioTest", "judgement", "judgements", "asked_judgements"]


@dataclass(frozen=True)
class RatioTest:
    """One figure of a judgement and its threshold: numerator / denominator line items, or a
    catalogue metric (`metric`)."""

    name: str
    threshold: float
    strict: bool = False  # 'above' (>) rather than 'at_least' (>=)
    numerator: str | None = None
    denominator: str | None = None
    metric: str | None = None
    percent: bool = False
    variants_of: str | None = None  # the catalogue metric whose variants it has (else metric)
    # a variant in another unit: (the variant's name, its threshold, strict)
    variant_thresholds: tuple[tuple[str, float, bool], ...] = ()

    def passes(self, value: float) -> bool:
        return value > self.threshold if self.strict else value >= self.threshold

    @property
    def varies_as(self) -> str | None:
        """The catalogue metric whose recognised definitions this figure may take."""
        return self.variants_of or self.metric

    def passes_as(self, variant: str, unit: str, own_unit: str, value: float) -> bool | None:
        """Does `value`, the figure by the definition `variant` (in `unit`), reach the threshold?
        A variant in the figure's own unit takes its threshold; one in another unit its own,
        where a general definition gives one; None: no threshold for it (the judgement is open)."""
        for name, limit, strict in self.variant_thresholds:
            if name == variant:
                return value > limit if strict else value >= limit
        if unit != own_unit:
            return None
        return self.passes(value)

    @property
    def rule_text(self) -> str:
        unit = "%" if self.percent else ""
        return f"{self.name} {'above' if self.strict else 'at least'} {self.threshold:g}{unit}"


@dataclass(frozen=True)
class Judgement:
    id: str
    name: str
    rule: str  # "any" | "all"
    tests: tuple[RatioTest, ...]
    definition: str
    phrases: tuple[str, ...] = ()  # how a question names the judgement ('capital-intensive')


def _test(raw: dict[str, object]) -> RatioTest:
    strict = "above" in raw
    value = raw["above"] if strict else raw["at_least"]
    return RatioTest(
        name=str(raw["name"]),
        threshold=float(str(value)),
        strict=strict,
        numerator=str(raw["numerator"]) if raw.get("numerator") else None,
        denominator=str(raw["denominator"]) if raw.get("denominator") else None,
        metric=str(raw["metric"]) if raw.get("metric") else None,
        percent=bool(raw.get("percent", False)),
        variants_of=str(raw["variants_of"]) if raw.get("variants_of") else None,
        variant_thresholds=tuple(
            (str(name), float(str(v.get("above", v.get("at_least")))), "above" in v)
            for name, v in dict(raw.get("variants") or {}).items()  # type: ignore[call-overload]
        ),
    )


@data_cache()
def judgements() -> dict[str, Judgement]:
    """Every judgement of the catalogue, by id."""
    out: dict[str, Judgement] = {}
    for jid, raw in (read_yaml("judgements.yaml") or {}).items():
        rule = str(raw.get("rule", "any"))
        if rule not in ("any", "all"):
            raise ValueError(f"judgements.yaml: {jid}: rule must be 'any' or 'all', not {rule!r}")
        out[jid] = Judgement(
            id=jid,
            name=str(raw["name"]),
            rule=rule,
            tests=tuple(_test(t) for t in raw["ratios"]),
            definition=" ".join(str(raw["definition"]).split()),
            phrases=tuple(_words(str(p)) for p in raw.get("phrases") or ()),
        )
    return out


def judgement(jid: str) -> Judgement:
    """The judgement `jid` (KeyError naming the known ones when it is not in the catalogue)."""
    found = judgements()
    if jid not in found:
        raise KeyError(f"no judgement {jid!r} in lexicon/data/judgements.yaml ({', '.join(found)})")
    return found[jid]


def _words(text: str) -> str:
    """Lower case, hyphens and punctuation as spaces, single-spaced: 'Capital-intensive?' ->
    'capital intensive'."""
    return " ".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def asked_judgements(question: str) -> list[Judgement]:
    """The catalogue's judgements a question names by one of their phrases (whole words)."""
    words = f" {_words(question)} "
    return [j for j in judgements().values() if any(f" {p} " in words for p in j.phrases if p)]
