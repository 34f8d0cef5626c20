"""Abbreviations filings define: mining them from pages and expanding them in questions."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import pytest
from finqa.benchmarks import abbreviation_mining as am
from finqa.lexicon import analyze
from finqa.lexicon.abbreviations import (
    ABBREVIATIONS_PATH,
    abbreviate,
    abbreviations,
    expand_abbreviations,
)


def _page(doc: str, text: str) -> dict[str, object]:
    return {"doc_name": doc, "page_num": 1, "text": text}


class TestLongForm:
    @pytest.mark.parametrize(
        ("words", "abbreviation", "expected"),
        [
            ("our President and Chief Executive Officer", "CEO", "chief executive officer"),
            ("Selling, General and Administrative", "SG&A", "selling general and administrative"),
            ("the Food and Drug Administration", "FDA", "food and drug administration"),
            ("operating lease right-of-use", "ROU", "right-of-use"),
            ("Property, Plant and Equipment", "PP&E", "property plant and equipment"),
        ],
    )
    def test_initials_spell_the_abbreviation(
        self, words: str, abbreviation: str, expected: str
    ) -> None:
        """The shortest run of words before the parenthesis whose initials spell it."""
        assert am.long_form(words.replace(",", " ").split(), abbreviation) == expected

    def test_no_run_spells_it(self) -> None:
        assert am.long_form(["net", "sales", "for", "the", "year"], "CEO") is None


class TestMining:
    def test_kept_when_several_companies_define_one_long_form(self) -> None:
        pages = [
            _page("ACME_2022_10K", 'Jane Roe, our Chief Executive Officer ("CEO"), said.'),
            _page("GLOBEX_2023_10K", "John Doe, Chief Executive Officer (CEO) since 2019."),
            _page("GLOBEX_2023_10K", "the Widget Incentive Programme (WIP) of Globex."),
            _page("ACME_2022_10K", "Work In Process (WIP) inventories."),
            _page("ACME_2022_10K", "the Quarterly Bonus Plan (QBP) of Acme."),
        ]
        rows = am.table(am.mine_abbreviations(pages, {}), min_companies=2)
        by = {r["abbreviation"]: r for r in rows}
        assert by["CEO"]["long_form"] == "chief executive officer"
        assert by["CEO"]["companies"] == "2"
        assert "QBP" not in by  # one company's programme
        assert "WIP" not in by  # two long forms, neither holds most definitions

    def test_one_industrys_jargon_is_left_out(self) -> None:
        """An abbreviation that companies of one sector alone define is not general language."""
        pages = [
            _page("PHARMA_A_2022_10K", "risk of Pulmonary Embolism (PE) in patients"),
            _page("PHARMA_B_2022_10K", "cases of pulmonary embolism (PE) were reported"),
            _page("PHARMA_A_2022_10K", "our Chief Executive Officer (CEO)"),
            _page("RETAIL_C_2022_10K", "the Chief Executive Officer (CEO) of the Company"),
        ]
        company = {d: d.rsplit("_", 2)[0] for d in ("PHARMA_A_2022_10K", "PHARMA_B_2022_10K", "RETAIL_C_2022_10K")}  # fmt: skip
        sector = {"PHARMA_A": "Health Care", "PHARMA_B": "Health Care", "RETAIL_C": "Retail"}
        found = am.mine_abbreviations(pages, company, sector)
        by = {r["abbreviation"]: r for r in am.table(found, min_companies=2, min_sectors=2)}
        assert set(by) == {"CEO"} and by["CEO"]["sectors"] == "2"
        assert "PE" in {r["abbreviation"] for r in am.table(found, min_sectors=1)}

    def test_cli_reads_pages_and_reports_missing_input(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        pages = tmp_path / "pages.jsonl.gz"
        with gzip.open(pages, "wt", encoding="utf-8") as fh:
            for doc in ("A_2022_10K", "B_2022_10K"):
                fh.write(json.dumps(_page(doc, "Earnings Per Share (EPS) rose.")) + "\n")
            fh.write("{not json\n")
        assert am.main(["--pages", str(pages), "--documents", str(tmp_path / "none")]) == 0
        out = capsys.readouterr()
        assert "EPS" in out.out and "earnings per share" in out.out
        assert "not JSON" in out.err
        assert am.main(["--pages", str(tmp_path / "missing.gz")]) == 2
        assert "not found" in capsys.readouterr().err

    def test_write_refuses_an_empty_table(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Pages that define nothing never overwrite the shipped table with an empty one."""
        pages = tmp_path / "pages.jsonl.gz"
        with gzip.open(pages, "wt", encoding="utf-8") as fh:
            fh.write(json.dumps(_page("A_2022_10K", "No definitions here.")) + "\n")
        before = ABBREVIATIONS_PATH.read_bytes()
        assert am.main(["--pages", str(pages), "--documents", str(tmp_path / "x"), "--write"]) == 2
        assert "kept" in capsys.readouterr().err
        assert ABBREVIATIONS_PATH.read_bytes() == before


class TestTable:
    def test_shipped_table_is_the_mined_one(self) -> None:
        """Every row is backed by two companies of two sectors; CEO and SG&A are there, PE is not."""
        with ABBREVIATIONS_PATH.open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert len(rows) >= 100
        assert all(int(r["companies"]) >= 2 and int(r["sectors"]) >= 2 for r in rows)
        table = abbreviations()
        assert table["CEO"] == "chief executive officer"
        assert table["SG&A"] == "selling general and administrative"
        assert "PE" not in table  # pulmonary embolism: two drug makers' word, not P/E


class TestExpansion:
    def test_question_abbreviation_expands_search(self) -> None:
        qa = analyze("Does Foot Locker's new CEO have previous CEO experience?")
        assert "chief executive officer" in qa.expanded_query
        assert any("abbreviation 'CEO'" in n for n in qa.notes)

    def test_lower_case_and_unknown_words_do_not_expand(self) -> None:
        assert expand_abbreviations("the ceo and the XQZ team") == ()
        assert expand_abbreviations("CEOs and the CFO's pay") == (
            ("CEO", "chief executive officer"),
            ("CFO", "chief financial officer"),
        )

    def test_inside_a_longer_word_is_not_an_abbreviation(self) -> None:
        assert expand_abbreviations("SECURITIES and NYSEARCA") == ()

    def test_spelled_out_long_form_adds_its_abbreviation(self) -> None:
        """Pages that only write 'R&D' or 'CEO' are found from the long form too."""
        assert abbreviate("What did the Chief Executive Officer say?") == (
            ("CEO", "chief executive officer"),
        )
        assert abbreviate("operating lease right-of-use assets") == (("ROU", "right-of-use"),)
        qa = analyze("How much did 3M spend on research and development in FY2019?")
        assert qa.expanded_query.endswith("R&D") or "; R&D" in qa.expanded_query
        assert any("'research and development' -> 'R&D'" in n for n in qa.notes)

    def test_long_form_already_abbreviated_or_partial_is_left(self) -> None:
        assert abbreviate("the Chief Executive Officer (CEO)") == ()
        assert abbreviate("chief executive") == ()
