"""Captions mined from filings: the rows on which a filer prints the figures it tags."""

from __future__ import annotations

from pathlib import Path

from finqa.benchmarks.label_mining import (
    LabelStats,
    catalogue_support,
    mine_model_captions,
    mine_tagged_captions,
)
from test_edgar_html import mini_ixbrl


class TestTaggedCaptions:
    def test_the_tagged_row_names_its_item(self, tmp_path: Path) -> None:
        """The row printing a tagged figure gives its caption to the tag's item ('Total
        revenue' is revenue; 'Other expense, net' printed '(48)' is other income tagged -48)."""
        path = tmp_path / "adbe-20241129.htm"
        path.write_text(mini_ixbrl(), encoding="utf-8")
        found = mine_tagged_captions([path])
        assert found["totalrevenue"]["items"] == {"revenue": [path.name]}
        assert found["otherexpensenet"]["items"] == {"other_income": [path.name]}
        # a segment's figure names no caption
        assert not any("media" in k and v["items"] for k, v in found.items())

    def test_the_statement_readers_rows_are_printed_captions(self, tmp_path: Path) -> None:
        """Every caption the statement reader reads as a figure row of a filing counts as
        printed by it, tagged or not."""
        path = tmp_path / "adbe-20241129.htm"
        path.write_text(mini_ixbrl(), encoding="utf-8")
        found = mine_tagged_captions([path])
        assert found["totalrevenue"]["printed"] == [path.name]
        assert found["otherexpensenet"]["printed"] == [path.name]


class TestModelCaptions:
    def test_a_models_rows_are_printed_by_its_filing(self, tmp_path: Path) -> None:
        """The row captions of an index's statement models count as printed by their filings
        (a caption a PDF wraps over two lines is one row there), by company."""
        import pandas as pd

        rows = {"doc_id": ["AMAZON_2019_10K"] * 2, "label": ["Purchases of property and "
                "equipment, including internal-use software and website development", "7"]}  # fmt: skip
        pd.DataFrame(rows).to_parquet(tmp_path / "AMAZON_2019_10K.parquet")
        stats = mine_model_captions(tmp_path, {"AMAZON_2019_10K": "Amazon"})
        (key,) = stats
        assert key.startswith("purchasesofpropertyandequipmentincluding")
        assert stats[key].filings == {"AMAZON_2019_10K"} and stats[key].companies == {"Amazon"}

    def test_support_records_the_tagging_filings(self) -> None:
        """A catalogue caption tagged by a filer is recorded with that filing; one no filing
        prints or tags has none."""
        tagged = {"operatingearnings": {"label": "Operating earnings",
                                        "items": {"operating_income": ["abbv.html"]}}}  # fmt: skip
        support = catalogue_support({"operatingincome": LabelStats()}, tagged)
        assert support["operatingearnings"]["tagged"] == ["abbv.html"]
        assert "tagged" not in support["operatingincome"]
