"""The lexicon reads the period a question asks for and says which statement column holds it."""

from __future__ import annotations

from datetime import date

from finqa.lexicon.asked_period import AskedPeriod, asked_periods
from finqa.lexicon.model import StatementPeriod


def one(text: str) -> AskedPeriod:
    found = asked_periods(text)
    assert found is not None and len(found) == 1
    return found[0]


Q2_25 = StatementPeriod(fiscal_year=2025, quarter=2, months=3, end_date=date(2025, 6, 29))
Q2_24 = StatementPeriod(fiscal_year=2024, quarter=2, months=3, end_date=date(2024, 6, 30))
H1_25 = StatementPeriod(fiscal_year=2025, months=6, end_date=date(2025, 6, 29))
AT_Q2 = StatementPeriod(fiscal_year=2025, quarter=2, months=0, instant=True, end_date=date(2025, 6, 29))  # fmt: skip
AT_FY = StatementPeriod(fiscal_year=2024, months=0, instant=True, end_date=date(2024, 12, 29))
FY24 = StatementPeriod(fiscal_year=2024, months=12, end_date=date(2024, 12, 29))


class TestAskedPeriods:
    def test_quarter_spellings(self) -> None:
        """'Q2 2024', 'second quarter of fiscal 2025' and '2Q24' are three-month periods of a quarter."""
        for text, fy in (("Q2 2024", 2024), ("the second quarter of fiscal 2025", 2025), ("2Q24", 2024)):  # fmt: skip
            p = one(f"What was revenue in {text}?")
            assert (p.fiscal_year, p.months, p.quarter) == (fy, 3, 2)
            assert p.end_date is None and p.label() == f"Q2 FY{fy}"

    def test_year_to_date_and_half(self) -> None:
        """'six months ended June 30, 2024' keeps its date; 'first half of 2025' is six months to Q2."""
        p = one("Net income for the six months ended June 30, 2024?")
        assert (p.months, p.end_date) == (6, date(2024, 6, 30))
        assert p.label() == "six months ended June 30, 2024"
        h = one("Revenue in the first half of 2025?")
        assert (h.fiscal_year, h.months, h.quarter) == (2025, 6, 2)
        n = one("Revenue for the nine months ended September 30, 2024?")
        assert (n.months, n.quarter) == (9, 3)

    def test_balance_at_a_date(self) -> None:
        """'as of March 31, 2025' is a balance at that date; 'as of December 31, 2022' a year end."""
        p = one("What were total assets as of March 31, 2025?")
        assert p.instant and p.end_date == date(2025, 3, 31) and p.label() == "March 31, 2025"
        assert one("What were total assets as of December 31, 2022?").annual

    def test_one_quarter_named_twice(self) -> None:
        """A quarter by its date and by its number ('(Q3 of fiscal 2025)') is one period, both kept."""
        p = one("In the quarter ended June 28, 2025 (Q3 of fiscal 2025), what was revenue?")
        assert (p.months, p.quarter, p.end_date) == (3, 3, date(2025, 6, 28))
        assert p.label() == "quarter ended June 28, 2025"

    def test_each_year_its_period(self) -> None:
        """'between FY 2023 and Q2 of FY2024': the fiscal year 2023, and the second quarter of 2024."""
        found = asked_periods("Was there any drop in cash between FY 2023 and Q2 of FY2024?")
        assert found is not None
        assert [(p.fiscal_year, p.months, p.quarter) for p in found] == [(2023, 12, None), (2024, 3, 2)]  # fmt: skip

    def test_two_spans_in_one_year_cannot_be_held(self) -> None:
        """'Q1 2025 vs Q2 2025' and 'FY 2023 ... Q4 of FY2023' ask two periods of one year: None."""
        assert asked_periods("How did revenue change from Q1 2025 to Q2 2025?") is None
        assert asked_periods("What share of FY 2023 buybacks occurred in Q4 of FY2023?") is None

    def test_fiscal_years_only(self) -> None:
        """A fiscal-year question asks for fiscal years only."""
        found = asked_periods("What was 3M's revenue in FY2022 and FY2021?")
        assert found is not None and all(p.annual for p in found)


class TestColumnFits:
    def test_quarter_column_not_year_to_date(self) -> None:
        """A quarter is the three-month column, never the six-month one ending the same day."""
        q = one("Revenue in the quarter ended June 29, 2025?")
        assert q.fits(Q2_25) and not q.fits(H1_25) and not q.fits(Q2_24)

    def test_stated_date_wins_over_a_fiscal_calendar(self) -> None:
        """'quarter ended June 28, 2025' fits a column ending June 29, 2025 that calls itself Q3 (a
        52/53-week filer with a September year end), within a week."""
        q = one("Revenue in the quarter ended June 28, 2025?")
        apple = StatementPeriod(fiscal_year=2025, quarter=3, months=3, end_date=date(2025, 6, 28))
        assert q.fits(apple)
        assert not q.fits(apple.model_copy(update={"end_date": date(2025, 3, 29)}))

    def test_balance_at_the_quarter_end(self) -> None:
        """A balance asked for a quarter is the instant at its end, not the prior year end's."""
        q = one("Total assets at the end of Q2 2025?")
        assert q.fits(AT_Q2) and not q.fits(AT_FY)

    def test_year_to_date(self) -> None:
        """'first half of 2025' fits the six-month column only."""
        h = one("Revenue in the first half of 2025?")
        assert h.fits(H1_25) and not h.fits(Q2_25)

    def test_fiscal_year(self) -> None:
        """A fiscal year fits its twelve-month column and its year-end balance, not a quarter."""
        fy = AskedPeriod("FY2024", 2024)
        assert fy.fits(FY24) and fy.fits(AT_FY) and not fy.fits(Q2_24)
        assert not fy.fits(AT_Q2.model_copy(update={"fiscal_year": 2024}))

    def test_balance_date_asked_of_a_flow(self) -> None:
        """'revenue as of December 29, 2024' is the year that ended that day, never a quarter."""
        p = AskedPeriod("December 29, 2024", 2024, 0, 4, date(2024, 12, 29))
        assert p.fits(FY24) and p.fits(AT_FY)
        assert not p.fits(Q2_24.model_copy(update={"end_date": date(2024, 12, 29)}))


def test_two_spellings_of_one_quarter_read_under_the_column_s_fiscal_year() -> None:
    """'first quarter of fiscal 2024 (three months ended April 30, 2023)': read without the
    filer's calendar, the date looks like FY2023's second quarter; the column (resolved by the
    company's January year end) is FY2024's first, and its figure is read under FY2024."""
    from finqa.agents.reasoning.offline.model_rows import period_slot

    asks = (
        AskedPeriod("three months ended April 30, 2023", 2023, 3, 2, date(2023, 4, 30)),
        AskedPeriod("first quarter of fiscal 2024", 2024, 3, 1),
    )
    column = StatementPeriod(fiscal_year=2024, quarter=1, months=3, end_date=date(2023, 4, 30))
    assert period_slot(asks)(column) == 2024
    other = StatementPeriod(fiscal_year=2023, quarter=2, months=3, end_date=date(2023, 4, 30))
    assert period_slot(asks)(other) == 2023


def test_a_stated_date_is_read_by_the_named_company_s_calendar() -> None:
    """'the first quarter of fiscal 2023 (13 weeks ended April 29, 2023)' at Ulta (January
    year end, years named by their start): one quarter, FY2024's first, not two periods; a
    quarter in weeks is a quarter."""
    from finqa.lexicon.question_ask import read_ask

    q = (
        "In the first quarter of fiscal 2023 (13 weeks ended April 29, 2023), what were Ulta "
        "Beauty's net sales?"
    )
    ask = read_ask(q, "start")
    assert ask.periods is not None and len(ask.periods) == 1
    (p,) = ask.periods
    assert (p.fiscal_year, p.quarter, p.months) == (2024, 1, 3)


def test_a_quarter_s_year_over_year_growth_takes_the_same_quarter_a_year_earlier() -> None:
    """'year-over-year growth in net interest income in Q1 2023': the base is the first
    quarter of 2022, not the fiscal year 2022."""
    from finqa.lexicon.question_ask import read_ask

    ask = read_ask("What was Acme's year-over-year growth in net interest income in Q1 2023?")
    assert ask.aggregate == "growth" and ask.agg_years == (2022, 2023)
    assert ask.periods is not None
    assert [(p.fiscal_year, p.quarter, p.months) for p in ask.periods] == [
        (2022, 1, 3),
        (2023, 1, 3),
    ]


def test_one_dated_span_sets_the_year_asked_by_the_company_s_calendar() -> None:
    """Amcor's year ends in June: 'the three months ended December 31, 2022' are the second
    quarter of FY2023, and FY2023 is the year asked (not 2022, the year the text names)."""
    from finqa.lexicon.question_ask import read_ask

    ask = read_ask("What were Amcor's net sales for the three months ended December 31, 2022?")
    assert ask.periods is not None and [(p.fiscal_year, p.quarter) for p in ask.periods] == [
        (2023, 2)
    ]
    assert ask.agg_years == (2023,) and ask.target_year == 2023


def test_a_sequential_or_a_balance_s_quarter_change_takes_no_year_earlier_base() -> None:
    """'sequential growth' sets a quarter against the one before; a balance's change over a
    quarter starts at the last quarter's end: neither takes the same quarter a year earlier."""
    from finqa.lexicon.question_ask import read_ask

    for q in (
        "What was the sequential growth in Acme's revenue in Q2 2023?",
        "How much did Acme's inventory change during the quarter ended March 31, 2023?",
    ):
        ask = read_ask(q)
        assert ask.periods is not None and len(ask.periods) == 1, q


def test_a_balance_s_change_between_two_dates_takes_the_dates_fiscal_years() -> None:
    """Ulta's year ends in January: 'between January 28, 2023 and April 29, 2023' moves from
    the end of FY2023 to the first quarter of FY2024, the years the change is read between."""
    from finqa.lexicon.question_ask import read_ask

    ask = read_ask(
        "By how much did Ulta Beauty's merchandise inventories change between January 28, 2023 "
        "and April 29, 2023?"
    )
    assert ask.aggregate == "change" and ask.agg_years == (2023, 2024)
    assert ask.periods is not None
    assert [(p.fiscal_year, p.end_date) for p in ask.periods] == [
        (2023, date(2023, 1, 28)),
        (2024, date(2023, 4, 29)),
    ]


class TestPeriodStatedTwice:
    def test_year_end_restated_by_its_date(self) -> None:
        """'at the end of fiscal 2021 (May 30, 2021)' names one period, fiscal 2021 at that date."""
        found = asked_periods(
            "What was General Mills' total debt at the end of fiscal 2021 (May 30, 2021)?",
            "General Mills",
        )
        assert found is not None and len(found) == 1
        (p,) = found
        assert (p.fiscal_year, p.months, p.end_date) == (2021, 12, date(2021, 5, 30))
        assert p.fits(StatementPeriod(fiscal_year=2021, months=0, instant=True, end_date=date(2021, 5, 30)))  # fmt: skip

    def test_quarter_restated_by_a_span_in_weeks(self) -> None:
        """'the third quarter of fiscal 2023 (12 weeks ended May 7, 2023)': one quarter, its date kept."""
        found = asked_periods(
            "Costco's operating margin for the third quarter of fiscal 2023 (12 weeks ended "
            "May 7, 2023)?",
            "Costco",
        )
        assert found is not None and len(found) == 1
        (p,) = found
        assert (p.fiscal_year, p.months, p.quarter, p.end_date) == (2023, 3, 3, date(2023, 5, 7))

    def test_date_then_the_period_it_ends(self) -> None:
        """'at April 1, 2023, the end of Q1 2023' and 'the first six months of 2022 (through
        June 26, 2022)' name one period each; a date and a quarter joined by 'and' stay two."""
        found = asked_periods(
            "How much did Zentro owe at April 1, 2023, the end of Q1 2023?", "Intel"
        )
        assert found is not None and len(found) == 1
        assert (found[0].months, found[0].quarter, found[0].end_date) == (3, 1, date(2023, 4, 1))
        found = asked_periods(
            "How much did Zentro's cash change over the first six months of 2022 (through June "
            "26, 2022)?",
            "Lockheed Martin",
        )
        assert found is not None and len(found) == 1
        assert (found[0].months, found[0].end_date) == (6, date(2022, 6, 26))
        assert asked_periods("What was revenue at June 30, 2022 and in Q1 2022?") is None

    def test_two_periods_joined_by_words_stay_two(self) -> None:
        """A year and a date joined by 'and' ('fiscal 2021 and May 30, 2021') are two asks: None;
        a date in apposition that is not the period's end (a mid-year date) is another period."""
        assert asked_periods("Revenue in fiscal 2021 and cash at May 30, 2021?", "General Mills") is None  # fmt: skip
        assert asked_periods("Debt at the end of fiscal 2021 (November 28, 2020)?", "General Mills") is None  # fmt: skip


class TestSpansInWeeks:
    def test_opening_weeks_of_a_fiscal_year(self) -> None:
        """'the first 36 weeks of fiscal 2023' is the nine months to date of fiscal 2023."""
        found = asked_periods(
            "Net income in the first 36 weeks of fiscal 2023 compared with the first 36 weeks "
            "of fiscal 2022?",
            "Costco",
        )
        assert found is not None
        assert [(p.fiscal_year, p.months, p.quarter) for p in found] == [(2022, 9, 3), (2023, 9, 3)]  # fmt: skip

    def test_twelve_week_quarters_and_their_halves(self) -> None:
        """A 12-week quarter, 24 weeks and 36 weeks ended a date are a quarter, six and nine months."""
        q = one("Revenue for the 12 weeks ended June 17, 2023?")
        assert (q.months, q.quarter, q.end_date) == (3, 2, date(2023, 6, 17))
        assert one("Revenue for the 24 weeks ended June 17, 2023?").months == 6
        assert one("Revenue for the thirty-six weeks ended September 9, 2023?").months == 9
