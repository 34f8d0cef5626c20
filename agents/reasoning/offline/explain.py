"""What a metric answer says about how its figure was read: the balance basis (the catalogue's
average of two year ends, or the year-end balance when the prior one is missing), the catalogue
definition an alternative formula departs from, the lines a summed line item adds up, and what
an item covers where filers differ (its catalogue note)."""

from __future__ import annotations

from finqa.agents.reasoning.offline.solver import Solution, formula_items, get_recipe
from finqa.lexicon import METRICS
from finqa.lexicon.display import format_amount

__all__ = ["explain", "fmt_unit"]


def explain(sol: Solution) -> str:
    """The sentences (each with a leading space) the answer adds after its computation."""
    return _summed_lines(sol) + _basis(sol) + _alternative(sol) + sol.beside


def fmt_unit(v: float, unit: str, scale: float = 1.0) -> str:
    """A figure of the answer's lead sentence ('$51,217 million', '12.3%')."""
    return format_amount(v, unit, scale)


def _basis(sol: Solution) -> str:
    """The balance basis the figure rests on: the catalogue's average of the two year-end
    balances, named, or the year-end balance when the prior one was not in the evidence."""
    if sol.basis == "year_end":
        recipe = get_recipe(sol.recipe.id)
        defined = _definition(sol.recipe.id, recipe.formulas[0] if recipe is not None else "")
        return (
            " Balances are the year-end figures only: the prior year-end balance needed for the "
            f"catalogue's definition ({defined}, the average of the opening and closing balances) "
            "is not in the evidence, so this figure is less certain."
        )
    expression = sol.calculation.expression
    named = dict.fromkeys(
        f"{f.item.name}: the average of the FY{f.year - 1} and FY{f.year} year-end balances"
        for f in sol.facts
        if f"avg({f.item.id}_fy{f.year}, {f.item.id}_fy{f.year - 1})" in expression
    )
    if not named:
        return ""
    text = "; ".join(named)
    return (
        f" {text[:1].upper()}{text[1:]} (the catalogue's definition; a year-end basis gives a "
        "different figure)."
    )


def _alternative(sol: Solution) -> str:
    """When the catalogue's first formula could not be read, which one was used and why."""
    recipe = get_recipe(sol.recipe.id)
    if recipe is None or len(recipe.formulas) < 2 or sol.basis != "defined":
        return ""
    used = {f.item.id for f in sol.facts}
    first = recipe.formulas[0]
    wanted = set(formula_items(first))
    if wanted <= used:
        return ""
    names = " or ".join(x.replace("_", " ") for x in sorted(wanted - used))
    shown = _definition(sol.recipe.id, first)
    return (
        f" The catalogue defines the {recipe.name} as {shown}; no {names} line was read from "
        "the evidence, so it is computed from the lines shown."
    )


def _definition(recipe_id: str, fallback: str) -> str:
    """The catalogue metric's formula over catalogue keys (metrics.yaml), else the recipe's."""
    metric = METRICS.get(recipe_id)
    return metric.formula if metric is not None and metric.formula else fallback


def _summed_lines(sol: Solution) -> str:
    """' Short-term debt is the sum of the lines 'A' and 'B'.' for each summed line item read
    from more than one line (the answer says which lines it added up), and what an item read
    covers where filers differ (its catalogue note: 'excluding lease liabilities')."""
    lines: dict[str, list[str]] = {}
    for fact in sol.facts:
        if fact.both_sides:
            continue
        if fact.item.summed:
            shown = lines.setdefault(fact.item.name, [])
            label = fact.row.label.strip()[:60]
            if label not in shown:
                shown.append(label)
    summed = "".join(
        f" {name[:1].upper()}{name[1:]} is the sum of the lines "
        + ", ".join(repr(x) for x in shown[:-1])
        + f" and {shown[-1]!r}."
        for name, shown in lines.items()
        if len(shown) > 1
    )
    notes = dict.fromkeys(
        f" {f.item.name[:1].upper()}{f.item.name[1:]}: {f.item.note} (the catalogue's definition)."
        for f in sol.facts
        if f.item.note
    )
    left = dict.fromkeys(
        f" {f.item.name[:1].upper()}{f.item.name[1:]} is the line {f.row.label.strip()[:60]!r}, "
        f"without {f.instead_of[1].strip()[:60]!r}, which the question leaves out and the "
        f"printed {f.instead_of[0].strip()[:60]!r} holds."
        for f in sol.facts
        if f.instead_of is not None
    )
    printed: dict[str, list[str]] = {}
    for f in sol.facts:
        if f.both_sides:
            shown = printed.setdefault(f.item.name, [])
            if (label := f.row.label.strip()[:60]) not in shown:
                shown.append(label)
    sides = "".join(
        f" {name[:1].upper()}{name[1:]} is the sum of the lines printed as "
        + " and ".join(repr(label) for label in labels)
        + " among both the current and the non-current lines of the balance sheet (the "
        "question asks the whole balance, naming no side or both)."
        for name, labels in printed.items()
    )
    return summed + "".join(left) + sides + "".join(notes)
