"""Numbers: extraction, scale headers and unit-aware comparison (lexicon.numbers / compare)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from finqa.lexicon import (
    detect_scale,
    extract_quantities,
    find_in_text,
    parse_quantity,
    quantities_match,
)
from finqa.lexicon.numbers import Quantity
from hypothesis import assume, given, settings
from hypothesis import strategies as st


def q(text: str, scale: float | None = None) -> Quantity:
    found = parse_quantity(text, scale)
    if found is None:
        raise AssertionError(f"no quantity in {text!r}")
    return found


def numbers(text: str, scale: float | None = None, **kw: bool) -> list[Quantity]:
    return [x for x in extract_quantities(text, scale, **kw) if x.kind == "number"]


class TestParse:
    """One quantity read from its many written forms."""

    @pytest.mark.parametrize(
        ("text", "value", "scale", "unit"),
        [
            ("$394.3 billion", 394.3, 1e9, "USD"),
            ("$1.6Bn", 1.6, 1e9, "USD"),
            ("$ 1.6 bn", 1.6, 1e9, "USD"),
            ("US$3M", 3.0, 1e6, "USD"),
            ("$5k", 5.0, 1e3, "USD"),
            ("(1,577)", -1577.0, 1.0, ""),
            ("-1,577", -1577.0, 1.0, ""),
            ("\u22121,577", -1577.0, 1.0, ""),
            ("$(473)", -473.0, 1.0, "USD"),
            ("-$473 million", -473.0, 1e6, "USD"),
            ("4.1%", 4.1, 1.0, "%"),
            ("4.1 percent", 4.1, 1.0, "%"),
            ("0.041", 0.041, 1.0, ""),
            ("25 bps", 25.0, 1.0, "bps"),
            ("12.5 basis points", 12.5, 1.0, "bps"),
            ("$8.70", 8.7, 1.0, "USD"),
            ("1.2x", 1.2, 1.0, "times"),
            ("42.69 days", 42.69, 1.0, "days"),
            ("$ 1,671 $", 1671.0, 1.0, "USD"),
            ("$66.56 per share", 66.56, 1.0, "USD/share"),
            ("0.01$ per share", 0.01, 1.0, "USD/share"),
            ("$.01 par value", 0.01, 1.0, "USD"),
            ("EUR 500 Million Notes", 500.0, 1e6, "EUR"),
            ("576,575,168 shares", 576575168.0, 1.0, "shares"),
        ],
    )
    def test_forms(self, text: str, value: float, scale: float, unit: str) -> None:
        """Each written form yields the value as written, its scale and its unit."""
        got = q(text)
        assert (got.value, got.scale, got.unit) == (value, scale, unit)

    def test_decimals_recorded(self) -> None:
        """The number of written decimals is kept (it sets the rounding tolerance)."""
        assert q("$8.70").decimals == 2
        assert q("394,328").decimals == 0

    def test_span_covers_currency_and_parentheses(self) -> None:
        """The span starts at the currency sign or the opening parenthesis."""
        text = "Net loss was $(1,577) in 2022"
        got = q(text)
        assert text[got.start : got.end] == "$(1,577)"

    def test_number_split_across_lines(self) -> None:
        """A thousands group broken by a PDF line break is one number."""
        assert q("394,\n328").value == 394328.0

    def test_currency_on_previous_line(self) -> None:
        """PDF tables put '$' on its own line before the figure."""
        got = numbers("Net sales\n$\n24,977\n $\n26,268 $\n26,076")
        assert [x.value for x in got] == [24977.0, 26268.0, 26076.0]
        assert all(x.unit == "USD" for x in got)

    @pytest.mark.parametrize(
        ("text", "kind"),
        [
            ("2022", "year"),
            ("FY 2022", "year"),
            ("December 31, 2022", "date"),
            ("2022-12-31", "date"),
            ("(Note 5)", "ref"),
            ("Item 7", "ref"),
            ("Form 10-K", "ref"),
            ("2019-2021", "ref"),
        ],
    )
    def test_years_dates_refs_are_not_amounts(self, text: str, kind: str) -> None:
        """Years, dates and references are marked so callers can ignore them."""
        found = extract_quantities(text)
        assert found and all(x.kind != "number" for x in found)
        assert found[0].kind in (kind, "year")

    def test_money_year_like_value_is_an_amount(self) -> None:
        """'$2,022' and '$2022 million' are amounts, not years."""
        assert q("$2,022").kind == "number"
        assert q("$2022 million").kind == "number"

    def test_glued_tokens_are_not_numbers(self) -> None:
        """'3M', 'FY22', 'Q2', 'MMM26' are names, not quantities."""
        assert numbers("3M Company reported FY22 Q2 results; MMM26 notes") == []

    def test_enumerator_is_not_negative(self) -> None:
        """'(2) has been subject to' is a list marker, not -2."""
        assert numbers("and (2) has been subject to such filing requirements") == []

    def test_direction_from_context(self) -> None:
        """'decreased by $229 million' records a decrease without changing the written value."""
        got = q("Verizon's debt decreased by $229 million")
        assert got.value == 229.0 and got.direction == -1

    def test_default_scale_applies_to_bare_amounts_only(self) -> None:
        """A header scale applies to '24,977' but not to '4.1%' or '$1.6 billion'."""
        got = numbers("24,977 and 4.1% and $1.6 billion", 1e6)
        assert [x.scale for x in got] == [1e6, 1.0, 1e9]


class TestSignNearTextStart:
    """A minus sign close to the start of the text is still read as a minus."""

    @pytest.mark.parametrize("text", ["CCC was -3.7 days", "EPS -1.2", "Net (1,561) million"])
    def test_negative_near_start(self, text: str) -> None:
        """The first quantity of a short sentence keeps its sign."""
        q = [x for x in extract_quantities(text) if x.is_number][0]
        assert q.value < 0


class TestDetectScale:
    """Table headers and instructions that declare a scale."""

    @pytest.mark.parametrize(
        ("text", "scale"),
        [
            ("(in millions, except per share data)", 1e6),
            ("(Dollars in millions, except per share amounts)", 1e6),
            ("($ in millions)", 1e6),
            ("(In thousands)", 1e3),
            ("(Inthousands,exceptsharedata)", 1e3),
            ("(in USD millions)", 1e6),
            ("Answer in USD billions.", 1e9),
            ("(millions of dollars)", 1e6),
            ("(Millions)", 1e6),
        ],
    )
    def test_headers(self, text: str, scale: float) -> None:
        """Common SEC header spellings (including glued PDF text) give their scale."""
        assert detect_scale(text) == scale

    @pytest.mark.parametrize(
        "text",
        ["(Shares in thousands)", "(options and shares in thousands)", "EUR 500 Million Notes"],
    )
    def test_non_money_headers(self, text: str) -> None:
        """Share-count headers and prose amounts do not set a money scale."""
        assert detect_scale(text) is None

    def test_regions(self) -> None:
        """Each table's figures take the scale of their own header."""
        text = "(in millions)\nRevenue 1,000\n(in thousands)\nShares 2,000"
        got = numbers(text, auto_scale=True)
        assert [(x.value, x.scale) for x in got] == [(1000.0, 1e6), (2000.0, 1e3)]


class TestMatch:
    """Comparison within the rounding of the less precise figure (+ rel_tol)."""

    def test_paper_anomaly(self) -> None:
        """'$394.3 billion' equals '$394,300 million' and 394,328 under '(in millions)'."""
        a = q("$394.3 billion")
        assert quantities_match(a, q("$394,300 million"))
        assert quantities_match(a, q("394,328", 1e6))
        assert quantities_match(q("$394,300 million"), q("394,328", 1e6))

    def test_percent_and_ratio(self) -> None:
        """'4.1%' equals 0.041; 25 bps equals 0.25%."""
        assert quantities_match(q("4.1%"), q("0.041"))
        assert quantities_match(q("0.041"), q("4.1%"))
        assert quantities_match(q("25 bps"), q("0.25%"))

    def test_signs(self) -> None:
        """'(1,577)' equals '-1,577' and '−1,577' but not '1,577' unless unsigned."""
        neg = q("(1,577)")
        assert quantities_match(neg, q("-1,577"))
        assert quantities_match(neg, q("\u22121,577"))
        assert not quantities_match(neg, q("1,577"))
        assert quantities_match(neg, q("1,577"), signed=False)

    def test_decrease_matches_negative_figure(self) -> None:
        """'a decrease of $229 million' is supported by '(229)' in millions."""
        assert quantities_match(q("a decrease of $229 million"), q("(229)", 1e6))

    def test_units_must_agree(self) -> None:
        """Money never equals days, shares or a percentage."""
        assert not quantities_match(q("$42.69"), q("42.69 days"))
        assert not quantities_match(q("$15"), q("15%"))
        assert not quantities_match(q("1,500 shares"), q("$1,500"))
        assert not quantities_match(q("15%"), q("15 shares"))

    def test_years_never_match_amounts(self) -> None:
        """A year is not the amount 2,022."""
        assert not quantities_match(q("2022"), q("$2,022"))

    def test_per_share_figure_in_millions_table(self) -> None:
        """'$1.58' (EPS) is found in a table headed '(in millions, except per share data)'."""
        table = "(in millions, except per share data)\nDiluted earnings\n1.58\n \n(8.36)"
        assert find_in_text(q("$1.58"), table) is not None

    def test_perturbations_do_not_match(self) -> None:
        """1% and x1000 changes of a table figure are not matches."""
        table = "(in millions)\nTotal current liabilities\n5,466\n4,586"
        assert find_in_text(q("$5,466 million"), table) is not None
        assert find_in_text(q("$5,520.7 million"), table) is None
        assert find_in_text(q("$5,466 billion"), table) is None
        assert find_in_text(q("$5,466 thousand"), table) is None

    def test_directional_claim(self) -> None:
        """A claim more precise than its evidence is not supported by it."""
        assert find_in_text(q("16.16%"), "one customer accounted for 16% of revenue") is None
        assert find_in_text(q("16%"), "one customer accounted for 16% of revenue") is not None
        assert quantities_match(q("16.16%"), q("16%"))  # symmetric rule: consistent figures

    def test_coarse_claim_against_precise_evidence(self) -> None:
        """'$8.70' billion is supported by 8,738 in millions (rounding + rel_tol)."""
        page = "(Dollars in millions)\nProperty, plant and equipment - net\n8,738\n8,866"
        assert find_in_text(q("$8.70", 1e9), page) is not None
        assert find_in_text(q("$8.79", 1e9), page) is None


_STYLES = st.sampled_from(["plain", "comma", "dollar", "dollar_space", "paren", "minus", "uminus"])


def _fmt(value: float, decimals: int, style: str) -> str:
    body = f"{abs(value):,.{decimals}f}"
    if style == "plain":
        body = body.replace(",", "")
    sign = value < 0
    if style == "dollar":
        return f"-${body}" if sign else f"${body}"
    if style == "dollar_space":
        return f"$ ({body})" if sign else f"$ {body}"
    if style == "paren":
        return f"({body})" if sign else body
    if style == "uminus":
        return f"\u2212{body}" if sign else body
    return f"-{body}" if sign else body


class TestProperties:
    """Hypothesis: any written form parses back to the value; perturbations never match."""

    @settings(max_examples=150, deadline=None)
    @given(
        cents=st.integers(min_value=-(10**11), max_value=10**11),
        decimals=st.integers(min_value=0, max_value=3),
        style=_STYLES,
    )
    def test_roundtrip(self, cents: int, decimals: int, style: str) -> None:
        """Formatting a value in any style and parsing it gives the value back."""
        value = round(cents / 100, decimals)
        assume(not (decimals == 0 and 1900 <= abs(value) <= 2100 and style == "plain"))
        text = _fmt(value, decimals, style)
        got = q(text)
        assert math.isclose(got.value, value, rel_tol=1e-12, abs_tol=1e-9)
        assert got.decimals == decimals

    @settings(max_examples=150, deadline=None)
    @given(
        millions=st.integers(min_value=1000, max_value=10**7),
        style=_STYLES,
        negative=st.booleans(),
    )
    def test_scales_agree(self, millions: int, style: str, negative: bool) -> None:
        """N in a millions table equals '$N million' and '$N/1000 billion' (3 decimals)."""
        assume(not (style == "plain" and 1900 <= millions <= 2100))  # a bare 2022 is a year
        value = -millions if negative else millions
        table = q(_fmt(value, 0, style), 1e6)
        words = q(f"{'-' if negative else ''}${millions:,} million")
        billions = q(f"{'-' if negative else ''}${millions / 1000:,.3f} billion")
        assert quantities_match(table, words)
        assert quantities_match(billions, table)
        assert quantities_match(words, billions)

    @settings(max_examples=150, deadline=None)
    @given(
        millions=st.integers(min_value=1000, max_value=10**7),
        factor=st.sampled_from([1.01, 0.99, 1000.0, 0.001]),
        style=_STYLES,
    )
    def test_perturbed_never_match(self, millions: int, factor: float, style: str) -> None:
        """A figure changed by 1% or by a factor of 1000 does not match the original."""
        assume(not (style == "plain" and 1900 <= millions <= 2100))
        table = q(_fmt(millions, 0, style), 1e6)
        changed = millions * factor
        claim = q(f"${changed:,.4f} million")
        assert not quantities_match(claim, table)
        assert not quantities_match(table, claim)
        assert find_in_text(claim, f"(in millions)\n{_fmt(millions, 0, style)}") is None

    @settings(max_examples=100, deadline=None)
    @given(
        permille=st.integers(min_value=1, max_value=999),
        decimals=st.integers(min_value=1, max_value=2),
    )
    def test_percent_ratio_roundtrip(self, permille: int, decimals: int) -> None:
        """p% equals the ratio p/100 written with two more decimals; 1% off does not."""
        pct = round(permille / 10, decimals)
        ratio = f"{pct / 100:.{decimals + 2}f}"
        assert quantities_match(q(f"{pct:.{decimals}f}%"), q(ratio))
        off = q(f"{pct * 1.01:.{decimals + 3}f}%")
        assert not quantities_match(off, q(ratio), directional=True)


@pytest.fixture(scope="module")
def pages(financebench_dir: Path) -> dict[str, str]:
    """Three evidence pages by question id."""
    import json

    wanted = {"financebench_id_10499", "financebench_id_04171", "financebench_id_04672"}
    out: dict[str, str] = {}
    with open(financebench_dir / "questions.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["financebench_id"] in wanted:
                out[row["financebench_id"]] = row["evidence"][0]["evidence_text_full_page"]
    return out


@pytest.mark.financebench
class TestRealPages:
    """Golden checks on real evidence pages, read from ../shared/financebench at run time."""

    def test_kraft_heinz_income_statement(self, pages: dict[str, str]) -> None:
        """'(in millions, except per share data)' with '$' on its own line and (negatives)."""
        page = pages["financebench_id_10499"]
        assert detect_scale(page) == 1e6
        assert find_in_text(q("$24.977 billion"), page) is not None  # Net sales 24,977
        hit = find_in_text(q("-$10,205 million"), page, signed=True)  # Operating loss (10,205)
        assert hit is not None and hit.value == -10205
        assert find_in_text(q("$1.58 per share"), page) is not None  # Diluted EPS
        assert find_in_text(q("$24,977 billion"), page) is None

    def test_mgm_glued_header(self, pages: dict[str, str]) -> None:
        """'(Inthousands,exceptsharedata)': 302,578 thousand is '$303 million'."""
        page = pages["financebench_id_04171"]
        assert detect_scale(page) == 1e3
        assert find_in_text(q("$303.00", 1e6), page) is not None
        assert find_in_text(q("$306.03", 1e6), page) is None

    def test_3m_rounded_claim(self, pages: dict[str, str]) -> None:
        """A coarse claim ('$8.70' billion) is supported by 8,738 (in millions); 1% off is not."""
        page = pages["financebench_id_04672"]
        assert find_in_text(q("$8.70", 1e9), page) is not None
        assert find_in_text(q("$8.79", 1e9), page) is None


class TestQuestionScale:
    """One rule for the scale a question asks amounts in (reasoner, judge and grader)."""

    @pytest.mark.parametrize(
        ("question", "scale"),
        [
            ("What is FY2019 capex? Answer in USD millions.", 1e6),
            ("What is the year end FY2019 net PP&E (in USD billions)?", 1e9),
            ("Report revenue in USD thousands.", 1e3),
            ("What was the FY2021 operating margin?", None),
            ("How many stores did it operate at the end of FY2022?", None),
        ],
    )
    def test_question_scale(self, question: str, scale: float | None) -> None:
        """'Answer in USD millions' is 1e6; counts and unscaled questions give None."""
        from finqa.lexicon.numbers import question_scale

        assert question_scale(question) == scale


class TestParseCell:
    """Statement table cells read by the lexicon (the offline table reader's only cell rule)."""

    @pytest.mark.parametrize(
        ("cell", "value"),
        [
            ("(1,234)", -1234.0),
            ("$ 86,392", 86392.0),
            ("\u2014", 0.0),
            ("(5.2)%", -5.2),
            ("1,234,567", 1234567.0),
            ("1,23", None),
            ("n/a", None),
            ("4.5x", None),
        ],
    )
    def test_cells(self, cell: str, value: float | None) -> None:
        """Parentheses are negative, a dash is zero, a malformed or non-numeric cell is None."""
        from finqa.lexicon.numbers import parse_cell

        assert parse_cell(cell) == value

    def test_thousands_except_per_share_header(self) -> None:
        """'(in thousands, except per share data)' sets the table's scale to thousands."""
        from finqa.agents.reasoning.offline.tables import read_tables

        text = (
            "Consolidated Statements of Operations\n(in thousands, except per share data)\n"
            "2022 2021\nNet sales 1,500 1,200\nCost of sales 900 800\n"
        )
        assert read_tables(text, source_id="S1", doc_id="D", page=1).scale == 1e3
