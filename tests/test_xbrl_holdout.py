"""`bench xbrl --holdout-captions company`: a filing read without the captions its company alone taught."""

from __future__ import annotations

from finqa.benchmarks._xbrl_holdout import supporters, withheld_by_filing, withheld_for
from finqa.lexicon.caches import withheld_captions, withholding
from finqa.lexicon.catalogue import entries
from finqa.lexicon.statements import read_pages
from finqa.lexicon.statements.catalogue import item_for_label

_COMPANY_OF = {"ko-10-k.html": "KO", "ko-10-q.html": "KO", "pep-10-k.html": "PEP"}
_SUPPORT = {
    # tagged by one company's two filings only
    "netoperatingrevenues": {
        "companies": 0,
        "examples": [],
        "tagged": ["ko-10-k.html", "ko-10-q.html"],
    },
    # tagged by two companies
    "netrevenues": {"companies": 0, "examples": [], "tagged": ["ko-10-k.html", "pep-10-k.html"]},
    # printed by one FinanceBench company only, the same one
    "operatingrevenues": {"companies": 1, "examples": ["COCACOLA_2015_10K"]},
    # the company's tag, and another company's FinanceBench filings
    "totalrevenues": {"companies": 3, "examples": ["3M_2015_10K"], "tagged": ["ko-10-k.html"]},
    # no support at all: not learnt from any filing
    "accountedfor": {"companies": 0, "examples": []},
}


class TestWithheldCaptions:
    """A caption is withheld for a company exactly when that company's filings alone support it."""

    def test_only_the_companys_own_support_is_withheld(self) -> None:
        """Coca-Cola's tags alone and its FinanceBench filings alone withhold; a second company keeps."""
        assert withheld_for("KO", _SUPPORT, _COMPANY_OF) == {
            "netoperatingrevenues",
            "operatingrevenues",
        }

    def test_another_company_withholds_nothing_of_it(self) -> None:
        """PepsiCo's filings are read with every caption Coca-Cola taught."""
        assert withheld_for("PEP", _SUPPORT, _COMPANY_OF) == frozenset()

    def test_unknown_tagged_filing_counts_as_another_company(self) -> None:
        """A tag from a filing outside the bench folder is another company's support."""
        entry = {"companies": 0, "tagged": ["ko-10-k.html", "elsewhere.html"]}
        assert supporters(entry, _COMPANY_OF) == {"KO", "<another company>"}

    def test_by_filing_follows_the_company(self) -> None:
        """Both Coca-Cola filings get the same withheld set, PepsiCo's none."""
        got = withheld_by_filing(_COMPANY_OF, _SUPPORT)
        assert (
            got["ko-10-k.html"]
            == got["ko-10-q.html"]
            == {"netoperatingrevenues", "operatingrevenues"}
        )
        assert got["pep-10-k.html"] == frozenset()


_PAGE = """CONDENSED CONSOLIDATED BALANCE SHEETS
(In millions)
June 28, 2025 September 28, 2024
Cash and cash equivalents $ 36,269 $ 29,943
Short-term marketable securities 19,103 35,228
Total current assets 122,491 152,987
Total assets 331,495 364,980
"""
_KEY = frozenset({"shorttermmarketablesecurities"})


def _read_as(item: str) -> set[float]:
    read = read_pages("AAPL_2025_10Q", [(0, _PAGE)])
    return {float(f.value) for t in read.tables for f in t.facts if f.item == item}


class TestCatalogueView:
    """Under `withholding`, the catalogue and the statement reader lack the withheld captions, and only there."""

    def test_withheld_caption_is_not_read(self) -> None:
        """'Short-term marketable securities' maps to its item, but not while its key is withheld."""
        assert item_for_label("Short-term marketable securities") == "short_term_investments"
        with withholding(_KEY):
            assert item_for_label("Short-term marketable securities") is None
            assert item_for_label("Short-term investments") == "short_term_investments"

    def test_view_does_not_leak(self) -> None:
        """After the block the whole catalogue is back, and the file's own entry is untouched."""
        listed = entries()["short_term_investments"]["line_items"]
        assert "Short-term marketable securities" in listed
        with withholding(_KEY):
            assert (
                "Short-term marketable securities"
                not in entries()["short_term_investments"]["line_items"]
            )
        assert withheld_captions() == frozenset()
        assert entries()["short_term_investments"]["line_items"] == listed
        assert item_for_label("Short-term marketable securities") == "short_term_investments"

    def test_statement_reader_under_the_view(self) -> None:
        """The balance sheet's row is read as its item in sample, not out of fold, then again in sample."""
        assert 19103e6 in _read_as("short_term_investments")
        with withholding(_KEY):
            assert 19103e6 not in _read_as("short_term_investments")
            assert 331495e6 in _read_as("total_assets")  # the rest of the catalogue still reads
        assert 19103e6 in _read_as("short_term_investments")

    def test_prefix_withheld(self) -> None:
        """A read prefix is withheld by its 'prefix:' key, the labels stay."""
        from finqa.lexicon.line_items import get_item

        prefixes = get_item("cfo").prefixes if get_item("cfo") else ()
        assert prefixes
        key = "prefix:" + "".join(c for c in prefixes[0].lower() if c.isalpha())
        with withholding(frozenset({key})):
            item = get_item("cfo")
            assert item is not None and prefixes[0] not in item.prefixes
            assert item.labels


class TestWhyMissed:
    """A tag the reader did not recover is classed by what the model holds instead."""

    def test_classes(self) -> None:
        """Scale, period, table not found and row not read, each from what was read."""
        from types import SimpleNamespace

        from finqa.benchmarks._xbrl_recovery import _Seen

        seen = _Seen()
        seen.add(3, 500.0)
        fact = SimpleNamespace(value=500e3, page=3)
        assert seen.why(fact, [500.0], 1.0) == "scale"
        assert seen.why(SimpleNamespace(value=500.0, page=3), [], 1.0) == "period"
        assert seen.why(SimpleNamespace(value=500.0, page=9), [], 1.0) == "table not found"
        assert seen.why(SimpleNamespace(value=42.0, page=3), [7.0], 1.0) == "row not read"
