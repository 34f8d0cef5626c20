"""A gain, loss or income named by what it is on or from ('a net loss on equity investments',
'income from continuing operations') is a line of its own: read from the row captioned so, or
an abstention naming it; never the company's net income, the catalogue's nearest item (issue
#25, 'the nearer word')."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.lexicon.named_line import caption_part, named_line

INCOME = """QUILLMARK INC.
CONSOLIDATED STATEMENT OF INCOME
(In millions)
Year Ended December 31, 2024 2023
Net revenues $ 9,800 $ 9,300
Operating income 2,300 2,100
Income from continuing operations before income taxes 1,900 1,750
Provision for income taxes (450) (400)
Income from continuing operations 1,450 1,350
Income from discontinued operations, net of income taxes 6,100 40
Net income $ 7,550 $ 1,390
"""

Q_CONTINUING = (
    "What was Quillmark's income from continuing operations for FY2024? Answer in USD millions."
)
Q_GAIN = (
    "Did Quillmark record a net gain or a net loss on strategic investments and warrants in "
    "FY2024, and how large was it compared with FY2023? Answer in USD millions."
)


def _answer(question: str) -> str:
    return (
        build_reasoner(Settings()).generate(question, evidence(INCOME, question=question), 1).text
    )


class TestResultLineRead:
    def test_object_of_a_result_word_names_a_line(self) -> None:
        """'income from continuing operations' and 'a net loss on X' name lines of their own;
        'income from operations' is the catalogue's operating income, no such line."""
        line = named_line(Q_CONTINUING)
        assert line is not None and line.own and line.metric is None
        assert caption_part(line, "Income from continuing operations") == ""
        assert caption_part(line, "Income from continuing operations before income taxes") is None
        assert (
            caption_part(line, "Income from discontinued operations, net of income taxes") is None
        )
        gain = named_line(Q_GAIN)
        assert gain is not None and gain.own
        assert caption_part(gain, "Gains (losses) on strategic investments and warrants, net") == ""
        assert (
            named_line("By what percentage did Quillmark's income from operations grow in 2024?")
            is None
        )

    def test_result_word_ending_a_longer_item(self) -> None:
        """'provision for credit losses on its card portfolio': the loss word ends the
        catalogue's provision, so no line of its own is named by it."""
        line = named_line(
            "What was Quillmark's provision for credit losses on its card portfolio in 2024?"
        )
        assert line is None or not line.own


class TestResultLineAnswered:
    def test_read_from_its_caption(self) -> None:
        """Income from continuing operations is its own line (1,450), not net income (7,550)."""
        text = _answer(Q_CONTINUING)
        assert "$1,450 million" in text and "7,550" not in text

    def test_line_not_printed_abstains(self) -> None:
        """No row is captioned with the gain or loss named: an abstention naming it, not net
        income's change."""
        text = _answer(Q_GAIN)
        assert "cannot determine" in text and "strategic investments and warrants" in text
        assert "7,550" not in text and "6,160" not in text
