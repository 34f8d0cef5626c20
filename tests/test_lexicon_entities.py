"""Companies, document names, periods and metrics of the lexicon."""

from __future__ import annotations

from random import Random

import pytest
from finqa.lexicon import (
    METRICS,
    all_companies,
    company_for_doc,
    find_companies,
    find_metrics,
    find_periods,
    get_metric,
    lookup_company,
    parse_doc_name,
)
from finqa.lexicon._data import read_words
from finqa.lexicon.entities import name_forms, tickers_in_text
from hypothesis import given, settings
from hypothesis import strategies as st


def names(text: str) -> list[str]:
    return [m.name for m in find_companies(text)]


class TestGazetteer:
    """The company data file."""

    def test_size_and_unique_tickers(self) -> None:
        """Roughly the S&P 500 plus FinanceBench companies, one row per ticker."""
        companies = all_companies()
        assert len(companies) >= 500
        tickers = [c.ticker for c in companies]
        assert len(tickers) == len(set(tickers))

    @pytest.mark.parametrize(
        ("query", "name"),
        [
            ("JPMorgan", "JPMorgan"),
            ("JPM", "JPMorgan"),
            ("J.P. Morgan Chase", "JPMorgan"),
            ("Johnson and Johnson", "Johnson & Johnson"),
            ("J&J", "Johnson & Johnson"),
            ("PG&E", "PG&E Corporation"),
            ("P&G", "Procter & Gamble"),
            ("McDonald's", "McDonalds"),
            ("Facebook", "Meta Platforms"),
            ("Google", "Alphabet"),
            ("Square", "Block"),
            ("aapl", "Apple"),
            ("AMERICANWATERWORKS", "American Water Works"),
            ("Wal-Mart Stores, Inc.", "Walmart"),
        ],
    )
    def test_lookup(self, query: str, name: str) -> None:
        """Names, tickers, aliases, former names and doc prefixes resolve to one company."""
        company = lookup_company(query)
        assert company is not None and company.name == name

    def test_unknown(self) -> None:
        """A company that is not in the gazetteer is None."""
        assert lookup_company("Acme Widgets Unlimited") is None

    def test_fiscal_year_end(self) -> None:
        """Non-December fiscal years are recorded."""
        months = {
            n: lookup_company(n).fiscal_year_end_month
            for n in (
                "Apple",
                "Microsoft",
                "Walmart",
                "Nike",
                "General Mills",
                "Best Buy",
                "Costco",
                "3M",
            )
        }  # type: ignore[union-attr]
        assert months == {
            "Apple": 9,
            "Microsoft": 6,
            "Walmart": 1,
            "Nike": 5,
            "General Mills": 5,
            "Best Buy": 1,
            "Costco": 8,
            "3M": 12,
        }


class TestFindCompanies:
    """Company mentions in free text."""

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("What is JPM's revenue?", ["JPMorgan"]),
            ("Does JnJ have positive working capital?", ["Johnson & Johnson"]),
            ("how much did Block (formerly known as Square) generate", ["Block", "Block"]),
            ("What industry does AMCOR primarily operate in?", ["Amcor"]),
            ("Coca Cola's FY2021 COGS", ["Coca-Cola"]),
            ("Has AMCOR's quick ratio improved?", ["Amcor"]),
            ("the spin-off of Upjohn", ["Pfizer"]),
            ("Lowe's (NYSE: LOW) and Allstate (ALL)", ["Lowe's", "Lowe's", "Allstate"]),
            ("Is CAT's margin higher?", ["Caterpillar"]),
            ("PG&E Corporation", ["PG&E Corporation"]),
        ],
    )
    def test_mentions(self, text: str, expected: list[str]) -> None:
        """Names, aliases, former names, brands and tickers in context are found."""
        assert names(text) == expected

    @pytest.mark.parametrize(
        "text",
        [
            "We block all traffic and keep costs low; it is on target.",
            "All of IT spending is ON schedule; the KEY risk is LOW.",
            "The cat sat on the mat now and then.",
            "Our target is the best buy in town.",
            "Earnings rose by $3M in the period.",
            "Richard A. Johnson received more votes against.",
            "Target sales fell sharply.",
            "The S&P 500 index rose.",
            "CEO, CFO and COO compensation; EPS and ROA; M&A and R&D; USA and EMEA.",
            "section 414(p)(1)(A) of the Code; (C) violated any directive; (D) breached",
            "the Annual Target Amount is increased; strong roll-ups in Boston; discovery was stayed",
            "IT HAS DEVELOPED COMPLIANCE PROCEDURES AND WILL COMPLY",
            "the Dow Jones Industrial Average rose; Leased Square Footage",
        ],
    )
    def test_no_false_positives(self, text: str) -> None:
        """Ordinary words, abbreviations and sentence-initial common words are not companies."""
        assert names(text) == []

    def test_ticker_in_context(self) -> None:
        """Ambiguous tickers fire with an exchange prefix, parentheses, possessive or cashtag."""
        assert names("shares of $KEY rose") == ["KeyCorp"]
        assert names("Gartner (NYSE: IT) reported") == ["Gartner", "Gartner"]
        assert names("ticker ON") == ["ON Semiconductor"]

    def test_word_ticker_about_a_company(self) -> None:
        """A word-ticker names a company when a metric follows or another company is compared."""
        assert names("What was LOW revenue in FY2022?") == ["Lowe's"]
        assert names("Is Home Depot's margin higher than LOW?") == ["Home Depot", "Lowe's"]
        assert names("Costs were LOW in FY2022 and ALL of them fell.") == []

    def test_shouting_text(self) -> None:
        """In an all-caps heading tickers need explicit context."""
        assert "Allstate" not in names("ALL RIGHTS RESERVED. ITEM 7. MANAGEMENT'S DISCUSSION")

    def test_spans(self) -> None:
        """Matches carry the span they came from."""
        text = "Revenue of Johnson & Johnson grew"
        m = find_companies(text)[0]
        assert text[m.start : m.end] == "Johnson & Johnson"


class TestDocNames:
    """FinanceBench document names and file stems."""

    @pytest.mark.parametrize(
        ("doc", "company", "doc_type", "year", "quarter", "period", "date"),
        [
            ("3M_2018_10K", "3M", "10k", 2018, None, "FY2018", None),
            (
                "JOHNSON_JOHNSON_2022Q4_EARNINGS",
                "Johnson & Johnson",
                "earnings",
                2022,
                4,
                "2022Q4",
                None,
            ),
            ("AMCOR_2022_8K_dated-2022-07-01", "Amcor", "8k", 2022, None, "FY2022", "2022-07-01"),
            ("Pfizer_2023Q2_10Q", "Pfizer", "10q", 2023, 2, "2023Q2", None),
            ("ULTABEAUTY_2023Q4_EARNINGS", "Ulta Beauty", "earnings", 2023, 4, "2023Q4", None),
            (
                "FOOTLOCKER_2022_8K_dated_2022-08-19",
                "Foot Locker",
                "8k",
                2022,
                None,
                "FY2022",
                "2022-08-19",
            ),
            ("PG_E_2023Q3_10Q", "PG&E Corporation", "10q", 2023, 3, "2023Q3", None),
            ("ACTIVSIONBLIZZARD_2023Q2_10Q", "Activision Blizzard", "10q", 2023, 2, "2023Q2", None),
            (
                "MCDONALDS_8K_dated-2023-01-06",
                "McDonalds",
                "8k",
                2023,
                None,
                "FY2023",
                "2023-01-06",
            ),
            (
                "/data/pdfs/AMERICANWATERWORKS_2021_10K.pdf",
                "American Water Works",
                "10k",
                2021,
                None,
                "FY2021",
                None,
            ),
            ("FEDEX_2023_annualreport", "FedEx", "10k_annualreport", 2023, None, "FY2023", None),
            ("aapl-20230930.htm", "Apple", None, 2023, None, "FY2023", "2023-09-30"),
        ],
    )
    def test_parse(
        self,
        doc: str,
        company: str,
        doc_type: str | None,
        year: int,
        quarter: int | None,
        period: str,
        date: str | None,
    ) -> None:
        """Every part of the name is read, fiscal year as the name says."""
        meta = parse_doc_name(doc)
        assert (
            meta.company,
            meta.doc_type,
            meta.fiscal_year,
            meta.quarter,
            meta.period,
            meta.date,
        ) == (
            company,
            doc_type,
            year,
            quarter,
            period,
            date,
        )

    def test_pg_e_is_not_procter(self) -> None:
        """The PG_E prefix is PG&E, not P&G (ticker PG)."""
        company = company_for_doc("PG_E_2022_10K")
        assert company is not None and company.ticker == "PCG"

    def test_unknown_doc(self) -> None:
        """A name with no known company still yields type and year."""
        meta = parse_doc_name("ZZZQ_2020_10K")
        assert meta.company is None and meta.fiscal_year == 2020 and meta.doc_type == "10k"


class TestPeriods:
    """Fiscal periods and the company's fiscal year end."""

    def test_year_mentions_as_written(self) -> None:
        """Year mentions come back as written, in order; a year inside a figure is not one."""
        from finqa.lexicon import year_mentions

        text = "In FY 22 and fiscal 2021 (not 2,022, 2023% or $2019.5), then FY2020."
        assert [y for y, _s, _e in year_mentions(text)] == [2022, 2021, 2020]
        year, start, end = year_mentions(text)[1]
        assert (year, text[start:end]) == (2021, "fiscal 2021")

    @pytest.mark.parametrize(
        ("text", "company", "fy", "quarter", "half", "end"),
        [
            ("FY2023", None, 2023, None, None, "2023-12-31"),
            ("FY23", "Apple", 2023, None, None, "2023-09-30"),
            ("fiscal 2023", "Apple", 2023, None, None, "2023-09-30"),
            ("the 2023 fiscal year", None, 2023, None, None, "2023-12-31"),
            ("Q2 2023", None, 2023, 2, None, "2023-06-30"),
            ("Q2'23", None, 2023, 2, None, "2023-06-30"),
            ("Q22023", None, 2023, 2, None, "2023-06-30"),
            ("2Q23", None, 2023, 2, None, "2023-06-30"),
            ("second quarter of FY2023", "Apple", 2023, 2, None, "2023-03-31"),
            ("Q2 of FY2024", "Best Buy", 2024, 2, None, "2023-07-31"),
            ("the first half of 2023", None, 2023, None, 1, "2023-06-30"),
            ("H1 FY2023", "Microsoft", 2023, None, 1, "2022-12-31"),
            ("year ended December 31, 2022", None, 2022, None, None, "2022-12-31"),
            ("as of 2022-12-31", None, 2022, None, None, "2022-12-31"),
            ("three months ended July 1, 2023", "Apple", 2023, 3, None, "2023-07-01"),
            ("FY2019", "Walmart", 2019, None, None, "2019-01-31"),
            ("fiscal 2022", "Ulta Beauty", 2023, None, None, "2023-01-31"),
            ("fiscal year ended September 3, 2023", "Costco", 2023, None, None, "2023-09-03"),
        ],
    )
    def test_spellings(
        self,
        text: str,
        company: str | None,
        fy: int,
        quarter: int | None,
        half: int | None,
        end: str,
    ) -> None:
        """Each spelling resolves to fiscal year, quarter/half and end date."""
        p = find_periods(text, company)[0]
        assert (p.fiscal_year, p.quarter, p.half, p.end_date) == (fy, quarter, half, end)

    def test_apple_fy2023_ends_in_september(self) -> None:
        """Apple's FY2023 ends in September 2023; its Q1 ends in December 2022."""
        assert find_periods("Apple FY2023", "Apple")[0].end_date == "2023-09-30"
        assert find_periods("Q1 FY2023", "AAPL")[0].end_date == "2022-12-31"

    def test_first_half_without_year(self) -> None:
        """'the first half' is a half without a year."""
        p = find_periods("in the first half")[0]
        assert p.half == 1 and p.fiscal_year is None

    def test_several(self) -> None:
        """Ranges give each end; amounts are not years."""
        got = find_periods("FY2015 - FY2017 average of $2,017 million")
        assert [p.fiscal_year for p in got] == [2015, 2017]


class TestMetrics:
    """Canonical metrics and their synonyms."""

    def test_count_and_fields(self) -> None:
        """At least 80 metrics, each with a statement, unit and line items; formulas use known ids."""
        assert len(METRICS) >= 80
        for metric in METRICS.values():
            assert metric.statement and metric.unit and metric.line_items
            for inp in metric.inputs:
                assert inp in METRICS, (metric.id, inp)

    @pytest.mark.parametrize(
        ("text", "metric"),
        [
            ("top line", "revenue"),
            ("turnover", "revenue"),
            ("cost of sales", "cogs"),
            ("income from operations", "operating_income"),
            ("capex", "capex"),
            ("Purchases of property, plant and equipment", "capex"),
            ("FCF", "fcf"),
            ("diluted EPS", "eps_diluted"),
            ("SG&A", "sga"),
            ("D&A", "depreciation_amortization"),
            ("net PPNE", "ppe_net"),
            ("fixed asset turnover ratio", "fixed_asset_turnover"),
            ("unadjusted operating income % margin", "operating_margin"),
            ("capex as a % of revenue", "capex_ratio"),
            ("days payable outstanding (DPO)", "dpo"),
            ("quick ratio", "quick_ratio"),
            ("gross margins", "gross_margin"),
            ("effective tax rate", "effective_tax_rate"),
            ("How much did it pay in cash dividends?", "dividends_paid"),
        ],
    )
    def test_synonyms(self, text: str, metric: str) -> None:
        """The longest matching spelling names the canonical metric."""
        assert find_metrics(text)[0].canonical == metric

    def test_conventions(self) -> None:
        """Formulas state average vs ending balances."""
        assert get_metric("fcf").formula == "cfo - capex"
        assert "avg(ppe_net)" in (get_metric("fixed_asset_turnover").formula or "")
        assert "avg(total_assets)" in (get_metric("roa").formula or "")
        assert get_metric("current_ratio").convention.startswith("ending")
        assert "average" in get_metric("dpo").convention

    def test_not_across_sentences(self) -> None:
        """A spelling never spans two sentences ('capex? Revenue')."""
        assert [m.canonical for m in find_metrics("What is capex? Revenue was up")] == [
            "capex",
            "revenue",
        ]

    @pytest.mark.parametrize(
        ("text", "metric"),
        [
            ("year-over-year growth in operating income", "operating_income"),
            ("YoY growth of net cash provided by operating activities", "cfo"),
            ("the growth rate of free cash flow", "fcf"),
            ("what was the company's overall growth rate in FY2022", "revenue_growth"),
            ("sales growth", "revenue_growth"),
        ],
    )
    def test_growth_is_an_operator(self, text: str, metric: str) -> None:
        """A growth word names the line item it applies to; alone it means top-line growth."""
        assert [m.canonical for m in find_metrics(text)] == [metric]

    def test_unknown(self) -> None:
        """get_metric names the unknown id."""
        with pytest.raises(KeyError, match="nope"):
            get_metric("nope")


class TestFormulas:
    """Metric formulas evaluate with FinanceBench's conventions."""

    def test_financebench_definitions(self) -> None:
        """FCF, fixed asset turnover (average PP&E) and DPO reproduce FinanceBench gold answers."""
        from finqa.lexicon import evaluate_metric

        assert evaluate_metric("fcf", {"cfo": 3676, "capex": 461}) == 3215
        fat = evaluate_metric(
            "fixed_asset_turnover", {"revenue": 6489, "ppe_net": 253}, {"ppe_net": 282}
        )
        assert round(fat, 2) == 24.26
        dpo = evaluate_metric(
            "dpo",
            {"accounts_payable": 46092, "cogs": 373396, "inventory": 43783},
            {"accounts_payable": 41433, "inventory": 43046},
        )
        assert round(dpo, 2) == 42.69

    def test_errors(self) -> None:
        """Missing prior values and unsafe expressions are one-line FormulaErrors."""
        from finqa.lexicon import FormulaError, evaluate_metric
        from finqa.lexicon.formula import evaluate

        with pytest.raises(FormulaError, match="prior-period"):
            evaluate_metric("roa", {"net_income": 1.0, "total_assets": 2.0})
        with pytest.raises(FormulaError, match="unsupported"):
            evaluate("__import__('os')", {})


_COMMON = sorted(
    w
    for w in read_words("ambiguous_words.txt")
    if w.isalpha() and w not in {"stock", "ticker", "symbol", "shares"}
)
_ABBREV = sorted(a for a in read_words("acronyms.txt") if a not in {"NYSE", "NASDAQ"})


class TestEntityProperties:
    """Hypothesis: text made of ordinary words and abbreviations never names a company."""

    @settings(max_examples=200, deadline=None)
    @given(
        words=st.lists(st.sampled_from(_COMMON), min_size=1, max_size=12),
        abbrevs=st.lists(st.sampled_from(_ABBREV), max_size=4),
        seed=st.randoms(use_true_random=False),
    )
    def test_ordinary_text(self, words: list[str], abbrevs: list[str], seed: Random) -> None:
        """Lower-case ordinary words and upper-case abbreviations are never companies."""
        tokens = words + abbrevs
        seed.shuffle(tokens)
        text = " ".join(tokens) + "."
        assert find_companies(text) == [], text


class TestStoreNames:
    """Short forms of a registrant name and tickers read from text, without the gazetteer."""

    def test_name_forms(self) -> None:
        """A leading 'The' and trailing legal designators drop; a bare ordinary word is no form."""
        assert "boeing" in name_forms("THE BOEING COMPANY")
        assert "johnson and johnson" in name_forms("JOHNSON & JOHNSON")
        assert "target" not in name_forms("Target Corporation")

    def test_tickers_in_text(self) -> None:
        """Tickers need two capitals ('JPM's', 'JnJ'); an ordinary-word ticker is never read."""
        tickers = {"JPM", "JNJ", "ALL"}
        assert tickers_in_text("Did JPM's and JnJ's margins fall?", tickers) == ["JPM", "JNJ"]
        assert tickers_in_text("jpm and ALL of them", tickers) == []
