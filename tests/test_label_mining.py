"""Captions mined from filings: the rows on which a filer prints the figures it tags."""

from __future__ import annotations

from pathlib import Path

from finqa.benchmarks.label_mining import LabelStats, catalogue_support, mine_tagged_captions
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
        assert not any("media" in k for k in found)  # a segment's figure names no caption

    def test_support_records_the_tagging_filings(self) -> None:
        """A catalogue caption tagged by a filer is recorded with that filing; one no filing
        prints or tags has none."""
        tagged = {"operatingearnings": {"label": "Operating earnings",
                                        "items": {"operating_income": ["abbv.html"]}}}  # fmt: skip
        support = catalogue_support({"operatingincome": LabelStats()}, tagged)
        assert support["operatingearnings"]["tagged"] == ["abbv.html"]
        assert "tagged" not in support["operatingincome"]
