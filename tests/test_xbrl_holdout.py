"""`bench xbrl --holdout-captions company`: a filing read without the captions its company alone taught."""

from __future__ import annotations

from finqa.benchmarks._xbrl_holdout import supporters, withheld_by_filing, withheld_for
from finqa.lexicon._data import withheld_captions, withholding
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


_PAGE = """CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Year Ended December 31, 2024 2023
Net operating revenues $ 47,061 $ 45,754
Cost of goods sold 18,324 18,520
Gross profit 28,737 27,234
Operating income 9,992 11,311
Net income 10,649 10,703
"""


def _revenue_read() -> set[float]:
    read = read_pages("KO_2024_10K", [(0, _PAGE)])
    return {float(f.value) for t in read.tables for f in t.facts if f.item == "revenue"}


class TestCatalogueView:
    """Under `withholding`, the catalogue and the statement reader lack the withheld captions, and only there."""

    def test_withheld_caption_is_not_read(self) -> None:
        """'Net operating revenues' maps to revenue, but not while its key is withheld."""
        assert item_for_label("Net operating revenues") == "revenue"
        with withholding(frozenset({"netoperatingrevenues"})):
            assert item_for_label("Net operating revenues") is None
            assert item_for_label("Total revenues") == "revenue"  # another company's caption

    def test_view_does_not_leak(self) -> None:
        """After the block the whole catalogue is back, and the file's own entry is untouched."""
        with withholding(frozenset({"netoperatingrevenues"})):
            assert "Net operating revenues" not in entries()["revenue"]["line_items"]
        assert withheld_captions() == frozenset()
        assert "Net operating revenues" in entries()["revenue"]["line_items"]
        assert item_for_label("Net operating revenues") == "revenue"

    def test_statement_reader_under_the_view(self) -> None:
        """The income statement's revenue row is read as revenue in sample, not out of fold."""
        assert 47061e6 in _revenue_read()
        with withholding(frozenset({"netoperatingrevenues"})):
            assert 47061e6 not in _revenue_read()
        assert 47061e6 in _revenue_read()

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
