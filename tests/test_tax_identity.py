"""The income statement's tax identity (pre-tax - tax + the lines added after tax = the after-tax
result): it signs the tax line, names the pre-tax row, and gives the judge the effective tax rate
by the pre-tax and after-tax rows, whatever the tax line's parentheses."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _reasoning_data import evidence  # noqa: E402
from _statement_read import values_of  # noqa: E402
from finqa.agents.config import Settings  # noqa: E402
from finqa.agents.judge import JudgeAgent  # noqa: E402
from finqa.agents.types import Answer  # noqa: E402
from finqa.lexicon.statements import read_pages  # noqa: E402
from finqa.lexicon.statements.tax_identity import tax_identities  # noqa: E402

# costs printed plain, interest and tax deducted in parentheses, equity-method income after tax
EQUITY_AFTER_TAX = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2018 2019 2020
Total net sales 232,887 280,522 386,064
Cost of sales 139,156 165,536 233,307
Technology and content 28,837 35,931 42,740
Marketing 13,814 18,878 22,008
Operating income 12,421 14,541 22,899
Interest expense (1,417) (1,600) (1,647)
Income before income taxes 11,261 13,976 24,178
Provision for income taxes (1,197) (2,374) (2,863)
Equity-method investment activity, net of tax 9 (14) 16
Net income 10,073 11,588 21,331
"""

# a benefit printed plain, an expense in parentheses; the pre-tax row is named before equity
# in earnings of affiliates (no catalogue caption), which come after tax
BENEFIT_ON_A_LOSS = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2021 2020 2019
Total revenue 11,141 9,660 10,189
Interest expense (911) (1,038) (1,050)
INCOME (LOSS) FROM CONTINUING OPERATIONS BEFORE TAXES AND EQUITY IN EARNINGS OF AFFILIATES (1,064) 488 1,001
Income tax benefit (expense) 133 (216) (352)
Net equity in losses of affiliates (24) (123) (172)
INCOME (LOSS) FROM CONTINUING OPERATIONS (955) 149 477
Gain from disposal of discontinued businesses, net of income tax 4 3 1
NET INCOME (LOSS) 951 152 478
"""

# the parent company's own statement, printed in a schedule after the notes
PARENT_ONLY = """ACME CORP
SCHEDULE I - CONDENSED FINANCIAL INFORMATION OF REGISTRANT
STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2021 2020 2019
Revenue from subsidiaries and affiliates 28 29 30
Interest expense (74) (163) (197)
Income (loss) before income taxes (208) 29 305
Income tax benefit (expense) (201) 17 (2)
Net income (loss) (409) 46 303
"""

# the tax printed as its current and deferred parts above their total
PARTS_ABOVE_TOTAL = """ACME CORP
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
Fiscal Years Ended January 31,
2015 2014 2013
Total revenues 485,651 476,294 468,651
Operating income 27,147 26,872 27,725
Income from continuing operations before income taxes 24,799 24,656 25,737
Current 8,504 8,619 7,976
Deferred (519) (514) (18)
Total provision for income taxes 7,985 8,105 7,958
Income from continuing operations 16,814 16,551 17,779
"""

# the identity does not close: the tax row is no step between the rows around it
NOT_CLOSED = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Year Ended December 31,
2024 2023
Total revenue 5,000 4,800
Operating income 900 850
Provision for income taxes (150) (140)
Net income 700 660
"""


def _read(text: str, doc: str = "acme-10k-2020") -> Any:
    return read_pages(doc, [(3, text)])


def _income(read: Any) -> Any:
    return next(t for t in read.tables if t.statement == "income")


class TestTaxLineSign:
    """The statement's arithmetic, not its parentheses, says whether the tax line is an expense."""

    def test_parenthesised_provision_with_equity_income_after_tax_is_an_expense(self) -> None:
        """'Provision for income taxes (2,863)' between pre-tax 24,178 and net income 21,331,
        with equity-method income of 16 after it, is an expense of +2,863 (each year)."""
        got = values_of(_read(EQUITY_AFTER_TAX), "Provision for income taxes")
        assert got == {"FY2018": 1197e6, "FY2019": 2374e6, "FY2020": 2863e6}

    def test_benefit_printed_plain_is_a_negative_expense(self) -> None:
        """'Income tax benefit (expense) 133 (216)' on a pre-tax loss of 1,064 closing to a loss
        of 955 after equity losses of 24: a benefit of 133 (-133), then expenses of 216, 352."""
        got = values_of(_read(BENEFIT_ON_A_LOSS), "Income tax benefit (expense)")
        assert got == {"FY2021": -133e6, "FY2020": 216e6, "FY2019": 352e6}

    def test_an_open_identity_keeps_the_printed_reading(self) -> None:
        """Where the rows close no identity (operating income is not pre-tax income here), the
        tax line is signed as before and no row is named pre-tax income."""
        read = _read(NOT_CLOSED)
        assert tax_identities(_income(read).facts) == []
        assert all(f.item != "pretax_income" for t in read.tables for f in t.facts)


class TestPretaxRow:
    """The pre-tax income is the row that, with the tax line, gives the after-tax result."""

    def test_row_closing_the_identity_is_named_pretax_income(self) -> None:
        """A caption the catalogue does not list ('... before taxes and equity in earnings of
        affiliates') right above the tax line is named pre-tax income when it closes it."""
        table = _income(_read(BENEFIT_ON_A_LOSS))
        pretax = {f.period.key: f.value for f in table.facts if f.item == "pretax_income"}
        assert pretax == {"FY2021": -1064e6, "FY2020": 488e6, "FY2019": 1001e6}

    def test_pretax_row_above_the_parts_of_the_tax(self) -> None:
        """Past the current and deferred parts printed above their total, the row that closes
        the identity with the total is the pre-tax income; the parts are not."""
        table = _income(_read(PARTS_ABOVE_TOTAL, "acme-10k-2015"))
        pretax = {f.label for f in table.facts if f.item == "pretax_income"}
        assert pretax == {"Income from continuing operations before income taxes"}

    def test_the_identity_rows(self) -> None:
        """The identity's rows: the pre-tax row, the tax line, the equity line between it and
        the after-tax result, and a rate of +12.5% on the loss year."""
        table = _income(_read(BENEFIT_ON_A_LOSS))
        (ident,) = tax_identities(table.facts)
        labels = {f.row: f.label for f in table.facts}
        assert labels[ident.after_row] == "INCOME (LOSS) FROM CONTINUING OPERATIONS"
        assert [labels[r] for r in ident.between] == ["Net equity in losses of affiliates"]
        col = next(f.column for f in table.facts if f.period.key == "FY2021")
        assert round(ident.rate(col) or 0, 1) == 12.5


class TestReasonerRate:
    """The reasoner reads the pre-tax row the identity names and the tax line it signs."""

    def test_rate_on_the_statements_own_pretax_loss(self) -> None:
        """A benefit of 133 on the pre-tax loss of 1,064 the identity names: a rate of +12.5%,
        from the statement's own rows (not a parent-only table's pre-tax line)."""
        from finqa.agents.reasoning import build_reasoner
        from finqa.lexicon.statements.memory import MemoryStatementStore

        doc = "ACME_2021_10K"
        read = read_pages(doc, [(130, BENEFIT_ON_A_LOSS), (212, PARENT_ONLY)])
        q = "What was Acme's effective tax rate in FY2021?"
        ev = evidence(BENEFIT_ON_A_LOSS, PARENT_ONLY, doc=doc, first_page=130, question=q)
        reasoner = build_reasoner(Settings(), statements=MemoryStatementStore(read.tables))
        answer = reasoner.generate(q, ev, 1)
        assert "12.5%" in answer.text, answer.text


def _judge(text: str, question: str, answer: str, doc: str) -> Any:
    ev = evidence(text.split("\n", 1)[1], doc=doc, first_page=38)
    return JudgeAgent(Settings()).evaluate(question, Answer(text=answer), ev, 3)


def _codes(verdict: Any) -> list[str]:
    return [p["code"] for p in verdict.details["answer_problems"]]


class TestJudgeTaxRoute:
    """The judge's effective tax rate comes from the pre-tax and after-tax rows."""

    Q = "What was Acme's effective tax rate in FY2020?"

    def test_negative_rate_on_a_deducted_provision_is_sent_back(self) -> None:
        """-11.8% where pre-tax 24,178 and net income 21,331 (with 16 of equity income) make the
        tax an expense of 2,863: sent back as the wrong sign, naming the rows; 11.8% accepted."""
        bad = _judge(
            EQUITY_AFTER_TAX, self.Q, "The effective tax rate was -11.8% [S1].", "ACME_2020_10K"
        )
        assert bad.decision == "retry"
        assert "wrong_sign" in _codes(bad), bad.details["answer_problems"]
        assert "Income before income taxes" in bad.feedback and "Net income" in bad.feedback
        ok = _judge(
            EQUITY_AFTER_TAX, self.Q, "The effective tax rate was 11.8% [S1].", "ACME_2020_10K"
        )
        assert "wrong_sign" not in _codes(ok) and "route_conflict" not in _codes(ok), ok.feedback

    def test_a_rate_the_question_defines_keeps_the_statements_sign(self) -> None:
        """Where the question defines the rate itself, -11.8% is still sent back for its sign
        (tax over pre-tax income by the rows around the tax line); 11.8% is not."""
        q = (
            "What was Acme's effective tax rate in FY2020, defined as provision for income "
            "taxes divided by income before income taxes?"
        )
        doc = "ACME_2020_10K"
        bad = _judge(EQUITY_AFTER_TAX, q, "The effective tax rate was -11.8% [S1].", doc)
        assert "wrong_sign" in _codes(bad), bad.details["answer_problems"]
        ok = _judge(EQUITY_AFTER_TAX, q, "The effective tax rate was 11.8% [S1].", doc)
        assert "wrong_sign" not in _codes(ok), ok.feedback

    def test_rate_on_another_pretax_row_is_sent_back(self) -> None:
        """63.9% (a benefit of 133 over another table's pre-tax loss of 208) where the statement
        gives 12.5% on its own pre-tax loss of 1,064: sent back; 12.5% is not."""
        q = "What was Acme's effective tax rate in FY2021?"
        bad = _judge(
            BENEFIT_ON_A_LOSS, q, "The effective tax rate was 63.9% [S1].", "ACME_2021_10K"
        )
        assert "route_conflict" in _codes(bad), bad.details["answer_problems"]
        assert "12.5%" in bad.feedback
        ok = _judge(BENEFIT_ON_A_LOSS, q, "The effective tax rate was 12.5% [S1].", "ACME_2021_10K")
        assert "route_conflict" not in _codes(ok) and "wrong_sign" not in _codes(ok), ok.feedback


class TestBenchmark:
    """The benchmark counts income statements whose model rows close the identity."""

    def test_closed_and_open_cases(self) -> None:
        """A statement whose model names the pre-tax row and signs the tax by the identity
        closes; one whose rows close no identity is listed as open with its rows."""
        from finqa.benchmarks.tax_identity import tax_cases

        (closed,) = tax_cases("acme-10k-2021", [(3, BENEFIT_ON_A_LOSS)])
        assert closed["outcome"] == "closes" and closed["convention"] == -1
        (still,) = tax_cases("acme-10k-2024", [(3, NOT_CLOSED)])
        assert still["outcome"] == "open" and "Operating income [operating_income]" in still["rows"]


def test_filing_pages_skips_a_damaged_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A damaged line of a pages file is skipped and counted; the filings around it are read."""
    from finqa.benchmarks.part_figures import filing_pages

    path = tmp_path / "pages.jsonl"
    good = json.dumps({"doc_name": "ACME_2022_10K", "page": 3, "text": "Net sales 1,000"})
    path.write_text(f'{good}\nnot json\n{{"doc_name": "X"}}\n', encoding="utf-8")
    assert [(d, [p for p, _ in pages]) for d, pages in filing_pages(path, set())] == [
        ("ACME_2022_10K", [3])
    ]
    assert "2 damaged line(s) skipped" in capsys.readouterr().err


# a provision on a pre-tax profit that leaves a net loss; the captions carry note references
PROVISION_NET_LOSS = """ACME CORP
CONSOLIDATED STATEMENTS OF (LOSS) INCOME
(In millions, except per share amounts)
Years ended December 31,
2017 2016 2015
Net sales $ 8,210 $ 7,905 $ 7,640
Cost of sales 4,930 4,770 4,600
Operating income 1,510 1,322 1,240
Equity in earnings of affiliated companies (Note 7) 240 205 190
Other expense, net (330) (64) (78)
Income before income taxes 1,420 1,463 1,352
(Provision) benefit for income taxes (Note 6) (1,850) 4 (139)
Net (loss) income attributable to Acme Corp $ (430) $ 1,467 $ 1,213
"""

# the scale note printed as a row under the period header; the pre-tax line named before an
# equity loss that comes after tax
SCALE_NOTE_ROW = """ACME CORP
Consolidated Statements of Operations
Year Ended
December 30,
2017
December 31,
2016
(In millions, except per share amounts)
Net revenue $ 5,120 $ 4,060
Cost of sales 3,310 3,150
Operating income (loss) 196 (362)
Interest expense (121) (146)
Income (loss) before equity loss and income taxes 75 (508)
Provision for income taxes 18 41
Equity loss in investee (6) (9)
Net income (loss) $ 51 $ (558)
Earnings (loss) per share
Basic $ 0.05 $ (0.66)
"""

# a benefit on a pre-tax profit: net income above pre-tax income, a negative rate
BENEFIT_ON_A_PROFIT = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
Year Ended December 31,
2017 2016
Net revenues 10,520,400 9,310,200
Operating income 1,610,300 1,402,100
Interest expense, net (640,200) (610,700)
Income before income taxes 920,400 791,400
Benefit (provision) for income taxes 1,081,600 (260,100)
Net income 2,002,000 531,300
"""


class TestSignByTheIdentity:
    """Net income below pre-tax income makes the tax line a provision, above it a benefit,
    whatever the caption's parentheses; the rate's sign follows (positive on a provision over
    a pre-tax profit even when the year ends in a net loss)."""

    def _rate(self, text: str, doc: str, q: str, first_page: int = 78) -> str:
        from finqa.agents.reasoning import build_reasoner
        from finqa.lexicon.statements.memory import MemoryStatementStore

        read = read_pages(doc, [(first_page, text)])
        ev = evidence(text, doc=doc, first_page=first_page, question=q)
        reasoner = build_reasoner(Settings(), statements=MemoryStatementStore(read.tables))
        return reasoner.generate(q, ev, 1).text

    def test_a_note_reference_leaves_the_caption_its_line(self) -> None:
        """'(Provision) benefit for income taxes (Note 6)' is the tax line, signed by the
        identity: a provision of 1,850 in the year of a net loss, a benefit of 4 the year
        after a profit of 1,463 became 1,467."""
        got = values_of(
            _read(PROVISION_NET_LOSS, "acme-10k-2017"),
            "(Provision) benefit for income taxes (Note 6)",
        )
        assert got == {"FY2017": 1850e6, "FY2016": -4e6, "FY2015": 139e6}

    def test_a_provision_in_a_net_loss_year_is_a_positive_rate(self) -> None:
        """1,850 of provision on a pre-tax profit of 1,420 is a rate of +130.3%, not -130.3%."""
        text = self._rate(
            PROVISION_NET_LOSS, "ACME_2017_10K", "What was Acme's effective tax rate in FY2017?"
        )
        assert "130.3%" in text and "-130.3%" not in text, text

    def test_a_scale_note_row_makes_no_line_per_share(self) -> None:
        """'(In millions, except per share amounts)' printed as a row under the header leaves
        the amounts in millions; the row before the tax that closes the identity is pre-tax
        income, so the provision of 41 on the pre-tax loss of 508 is a rate of -8.07%."""
        read = _read(SCALE_NOTE_ROW, "acme-10k-2017")
        table = _income(read)
        assert {f.unit for f in table.facts if f.label == "Net revenue"} == {"USD"}
        assert values_of(read, "Provision for income taxes") == {"FY2017": 18e6, "FY2016": 41e6}
        pretax = {f.period.key: f.value for f in table.facts if f.item == "pretax_income"}
        assert pretax == {"FY2017": 75e6, "FY2016": -508e6}
        q = (
            "What was Acme's effective income tax rate for fiscal 2016, defined as the provision "
            "for income taxes divided by income (loss) before equity loss and income taxes? "
            "Round to two decimal places."
        )
        text = self._rate(SCALE_NOTE_ROW, "ACME_2017_10K", q, first_page=59)
        assert "-8.07%" in text, text

    def test_a_benefit_on_a_pre_tax_profit_is_a_negative_rate(self) -> None:
        """A benefit of 1,081,600 on a pre-tax profit of 920,400 (net income 2,002,000): a rate
        of -117.5%."""
        text = self._rate(
            BENEFIT_ON_A_PROFIT, "ACME_2017_10K", "What was Acme's effective tax rate in FY2017?"
        )
        assert "-117.5%" in text, text

    def test_judge_sends_back_a_negative_rate_on_a_provision_in_a_net_loss_year(self) -> None:
        """-130.3% where pre-tax 1,420 and the net loss of 430 make the tax line a provision of
        1,850 (its caption carrying a note reference): sent back for its sign; 130.3% is not."""
        q = "What was Acme's effective tax rate in FY2017?"
        doc = "ACME_2017_10K"
        bad = _judge(PROVISION_NET_LOSS, q, "The effective tax rate was -130.3% [S1].", doc)
        assert "wrong_sign" in _codes(bad), bad.details["answer_problems"]
        ok = _judge(PROVISION_NET_LOSS, q, "The effective tax rate was 130.3% [S1].", doc)
        assert "wrong_sign" not in _codes(ok), ok.details["answer_problems"]
