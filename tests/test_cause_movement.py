"""A cause answer's basis states the asked line's movement the way the question or the filing's
figures show it: the movement a sentence states (lexicon), the judge's check of it, the
reasoner's choice of sentence, and the question naming two lines one line bridges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.causes import cause_answer
from finqa.agents.types import Answer, Citation
from finqa.lexicon.causes import asked_bridge, stated_direction

MDA = (
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
)
FILLER = (
    "We design, manufacture and sell products to customers around the world. "
    "Our results depend on economic conditions in the markets we serve."
)
ETR = ("effective tax rate", "tax rate")
NET = ("net income", "net loss", "net earnings")

ETR_Q = "Why was Acme's effective tax rate so much higher in 2022 than in 2021?"
# a true sentence about the rate, explaining a factor that pulled it the other way
LOWERED = (
    "In 2022 and 2021, earnings taxed at lower rates in foreign jurisdictions lowered our "
    "effective tax rate by 24 percentage points and 22 percentage points, respectively, "
    "primarily due to the overall increase in foreign income."
)
RAISED = (
    "Our effective tax rate increased to 76% in 2022, primarily due to the one-time transition "
    "tax of the Tax Reform Act."
)

LOSS_Q = "What drove Acme's net loss in 2022?"
LESS_LOSS = (
    "The decrease in Acme's net loss for 2022, as compared to 2021, is primarily due to the "
    "derivative litigation charge in 2021 with no corresponding activity in 2022."
)
FELL = (
    "Net income decreased in 2022, as compared to 2021, primarily due to wildfire-related "
    "charges for third-party claims."
)
LOSS_TABLE = """Consolidated Statements of Income
(in millions)
2022 2021 2020
Operating revenues 16,000 15,000 14,000
Operating income (loss) (8,000) 2,500 2,400
Income tax provision (benefit) (3,400) 500 600
Net income (loss) (6,800) 1,600 1,400
"""


class TestStatedDirection:
    def test_movement_words_either_way(self) -> None:
        """A movement word near the name says which way the figure moved; a level says none."""
        assert stated_direction("Net revenue increased 44% in 2022", ["net revenue"]) == 1
        assert stated_direction("The decrease in operating income was", ["operating income"]) == -1
        assert stated_direction("Gross margin was 45% in 2022 and 48% in 2021.", ["gross margin"]) is None  # fmt: skip
        assert stated_direction("Net revenue increased 44% in 2022", ["gross margin"]) is None

    def test_a_verb_before_the_name(self) -> None:
        """'lowered our effective tax rate by 24 percentage points' states the rate going down."""
        assert stated_direction(LOWERED, ETR) == -1
        assert stated_direction(RAISED, ETR) == 1

    def test_a_loss_line_is_the_results_negative_side(self) -> None:
        """A decrease in net loss is the result going up; 'net income (loss)' is the signed line
        itself, not flipped."""
        assert stated_direction(LESS_LOSS, NET) == 1
        assert stated_direction("Net loss increased to $2 billion", NET) == -1
        assert stated_direction("Net income (loss) decreased to $2 billion", ["net income (loss)"]) == -1  # fmt: skip

    def test_the_whole_of_a_share_did_not_move(self) -> None:
        """'As a percentage of net sales, gross profit decreased' states no movement of net sales."""
        text = "As a percentage of net sales, gross profit decreased to 39.3% from 40.4%"
        assert stated_direction(text, ["net sales"]) is None
        assert stated_direction(text, ["gross profit"]) == -1

    def test_the_question_states_its_movement(self) -> None:
        """'so much higher' asks about a rise; a bare 'net loss' states no movement."""
        assert stated_direction(ETR_Q, ETR) == 1
        assert stated_direction(LOSS_Q, NET) is None


class TestAskedBridge:
    def test_difference_between_two_lines(self) -> None:
        """'the difference between net income and income before taxes' asks about the taxes."""
        for q in (
            "Why is there a difference between Acme's net income and income before taxes?",
            "What accounts for the difference between net income and income before taxes?",
        ):
            bridge = asked_bridge(q)
            assert bridge is not None and bridge.id == "income_tax_expense", q

    def test_each_line_with_its_own_movement(self) -> None:
        """'the increase in X and the decrease in Y' asks each line's own movement, not the gap;
        a movement stated as a premise still asks about the gap."""
        q = "What drove the increase in income before taxes and the decrease in net income?"
        assert asked_bridge(q) is None
        premise = "Acme's income before income taxes rose, yet net income fell. What caused the drop?"  # fmt: skip
        bridge = asked_bridge(premise)
        assert bridge is not None and bridge.id == "income_tax_expense"


def _judge(question: str, quote: str, *pages: str) -> Any:
    cite = Citation(source_id="S1", doc_id="ACME_2022_10K", page=40, quote=quote)
    answer = Answer(text=f'In the filing\'s words: "{quote}" [S1]', citations=(cite,))
    ev = evidence(quote, *pages, question=question, sections=(MDA,))
    return JudgeAgent(Settings()).evaluate(question, answer, ev, 1)


class TestJudgeMovement:
    def test_against_the_asked_movement_rejected(self) -> None:
        """A sentence stating the rate going down does not explain why it rose: not accepted,
        with both movements in the reason."""
        v = _judge(ETR_Q, LOWERED)
        assert v.details["basis"]["outcome"] == "against_movement", v.details["basis"]
        assert v.decision == "retry"
        reason = v.details["basis"]["reason"]
        assert "going down" in reason and "went up" in reason

    def test_agreeing_movement_accepted(self) -> None:
        """A sentence stating the rise the question asks about supports the answer."""
        v = _judge(ETR_Q, RAISED)
        assert v.details["basis"]["outcome"] == "supported", v.details["basis"]
        assert v.decision == "accept"

    def test_the_figures_show_the_movement(self) -> None:
        """Where the question states no movement, the statement model's figures do: the result
        fell from a profit to a loss, so 'the decrease in net loss' explains another movement
        (the figures in the reason); without the statement the verdict is as before."""
        v = _judge(LOSS_Q, LESS_LOSS, LOSS_TABLE)
        basis = v.details["basis"]
        assert basis["outcome"] == "against_movement", basis
        assert "went down" in basis["reason"] and "FY2021" in basis["reason"]
        assert v.decision == "retry"
        assert _judge(LOSS_Q, LESS_LOSS).details["basis"]["outcome"] == "supported"

    def test_no_movement_stated_is_judged_as_before(self) -> None:
        """A sentence stating no movement of the rate is judged by the other checks alone."""
        level = "Our effective tax rate was 76% in 2022, primarily due to the Tax Reform Act."
        assert _judge(ETR_Q, level).details["basis"]["outcome"] == "supported"

    def test_a_sentence_about_another_line_rejected(self) -> None:
        """'Why were net earnings higher?' is not explained by a segment's operating profit:
        'profit' and 'earnings' inside other lines' names ('favorable profit adjustments',
        'equity earnings') name no line; a sentence naming net earnings is judged as before."""
        q = "Why were Acme's net earnings in 2022 so much higher than in 2021?"
        other = (
            "Space's operating profit in 2022 increased, primarily attributable to "
            "higher net favorable profit adjustments and higher equity earnings."
        )
        basis = _judge(q, other).details["basis"]
        assert basis["outcome"] == "not_about" and "net income" in basis["reason"], basis
        own = "Net earnings in 2022 increased, primarily due to a pension charge recorded in 2021."
        assert _judge(q, own).details["basis"]["outcome"] == "supported"


@dataclass(frozen=True)
class _Fact:
    value: float
    unit: str = "USD"  # a statement fact's unit (every line here is an amount)


_FIGURES = {
    "net_income": {2021: 1_600.0, 2022: -6_800.0},
    "income_tax_expense": {2021: 100.0, 2022: 760.0},
    "pretax_income": {2021: 1_000.0, 2022: 1_000.0},
}


class _Store:
    """A statement model holding net income and the tax lines for two years."""

    def lookup(self, doc: str, item: str, year: Any = None) -> list[_Fact]:
        figures = _FIGURES.get(item, {})
        return [_Fact(figures[year])] if year in figures else []


class TestReasonerMovement:
    def _ask(self, question: str, *texts: str) -> Any:
        ev = evidence(FILLER, *texts, question=question, sections=(None,) + (MDA,) * len(texts))
        return build_reasoner(Settings()).generate(question, ev, 1)

    def test_picks_the_agreeing_sentence(self) -> None:
        """Of two sentences about the rate, the one stating the asked rise is quoted, never the
        one stating it going down, though it ranks first by place."""
        a = self._ask(ETR_Q, LOWERED, RAISED)
        assert not a.abstained and RAISED in a.text and LOWERED not in a.text

    def test_the_agreeing_sentence_leads(self) -> None:
        """A sentence stating the asked rise leads one naming the rate's change without a way."""
        change = (
            "The change in our effective tax rate in 2022 was primarily due to tax legislation."
        )
        a = self._ask(ETR_Q, change, RAISED)
        assert not a.abstained and a.citations[0].quote.startswith(RAISED[:40])

    def test_only_a_contrary_sentence_abstains(self) -> None:
        """A sentence stating the rate going down is no explanation of its rise: abstain."""
        assert self._ask(ETR_Q, LOWERED).abstained

    def test_the_statement_model_shows_the_movement(self) -> None:
        """Where the question words no movement, the reasoner reads it from its statement model:
        net income fell, so the sentence on the decrease in net loss is left out."""
        ev = evidence(FILLER, LESS_LOSS, FELL, question=LOSS_Q, sections=(None, MDA, MDA))
        with_figures = cause_answer(LOSS_Q, ev, "standard", _Store())
        assert FELL in with_figures.text and LESS_LOSS not in with_figures.text
        assert LESS_LOSS in cause_answer(LOSS_Q, ev, "standard").text

    def test_a_ratio_moves_by_its_operands(self) -> None:
        """The effective tax rate's movement is read from the tax and pre-tax income lines (10%
        to 76%): the sentence on a factor lowering it is left out."""
        q = "What drove the change in Acme's effective tax rate in 2022?"
        ev = evidence(FILLER, LOWERED, RAISED, question=q, sections=(None, MDA, MDA))
        with_figures = cause_answer(q, ev, "standard", _Store())
        assert RAISED in with_figures.text and LOWERED not in with_figures.text
        assert LOWERED in cause_answer(q, ev, "standard").text


class TestShareOfRevenue:
    def test_a_share_stated_is_the_ratios_movement(self) -> None:
        """'As a percentage of net sales, SG&A decreased' states the ratio's movement: an SG&A
        amount that rose does not contradict it; the same words without the share do."""
        from finqa.agents.judge.movement import LineMovement, against_movement

        lines = [
            LineMovement("sga_ratio", ("sg&a as a percent of net sales",), -1, "the question"),
            LineMovement("sga", ("sg&a", "sg&a expenses"), 1, "sga up", in_ratio=True),
        ]
        share = "As a percentage of net sales, SG&A expenses decreased to 23.5%, due to lower marketing."
        assert against_movement(lines, [share]) is None
        amount = "SG&A expenses decreased to $2.1 billion, due to lower marketing."
        assert against_movement(lines, [amount]) is not None


# net income moved from 1,600 to -6,800 (-525%); a sentence stating a fall of another size is
# about another figure (a division's, a quarter's)
DIVISION_FELL = (
    "Net income decreased 11% in 2022, primarily due to higher commodity costs in the beverages "
    "division."
)
NI_Q = "What drove the change in Acme's net income in 2022?"


class TestStatedSize:
    def test_percents_beside_a_movement_word(self) -> None:
        """Sizes stated beside a movement word are read; percentage points (a ratio's change) and
        percents not beside a movement are not."""
        from finqa.lexicon.movement import against_stated_change, stated_change_percents

        assert stated_change_percents("Operating profit decreased 11%, reflecting") == (11.0,)
        assert stated_change_percents("an increase of 4.8 percent in net revenue") == (4.8,)
        assert stated_change_percents("a 2% decline in sales") == (2.0,)
        assert stated_change_percents("a 14-percentage-point impact of the charges") == ()
        assert stated_change_percents("Gross margin was 45% in 2022") == ()
        assert against_stated_change((11.0,), (-2.05,))
        assert not against_stated_change((2.0,), (-2.05,))  # printed rounded
        assert not against_stated_change((11.0, 2.0), (-2.05,))  # one of them agrees
        assert not against_stated_change((), (-2.05,)) and not against_stated_change((11.0,), ())

    def test_judge_rejects_a_sentence_of_another_size(self) -> None:
        """The judge's routes read the figures' change; a sentence stating the same direction by
        another size is not the asked figure's explanation; one of the right size is."""
        from finqa.agents.judge.movement import LineMovement, against_movement

        line = LineMovement(
            "operating_income", ("operating profit",), -1, "figures", change=(-2.05,)
        )
        other = "Operating profit decreased 11%, reflecting certain operating cost increases."
        own = (
            "Operating profit decreased 2%, primarily reflecting certain operating cost increases."
        )
        found = against_movement([line], [other])
        assert found is not None and "another size" in found[1]
        assert against_movement([line], [own]) is None
        assert against_movement([line], [other, own]) is None
        unread = LineMovement("operating_income", ("operating profit",), -1, "figures")
        assert against_movement([unread], [other]) is None

    def test_reasoner_leaves_out_a_sentence_of_another_size(self) -> None:
        """With the statement model's figures the reasoner does not quote a fall of 11% for a line
        that fell 525%; without them it does (nothing to hold it against)."""
        ev = evidence(FILLER, DIVISION_FELL, question=NI_Q, sections=(None, MDA))
        assert cause_answer(NI_Q, ev, "standard", _Store()).abstained
        assert DIVISION_FELL in cause_answer(NI_Q, ev, "standard").text


class TestCauseInAnotherCompanysName:
    def test_a_company_among_the_causes_is_not_the_subject(self) -> None:
        """'Net income increased driven by ... the Republic Services acquisition': the sentence
        is about the asked line; a sentence whose movement is the other company's is about it."""
        q = "Why did Boeing's net income increase in 2022?"
        cause = "Net income increased in 2022, driven by the Republic Services acquisition."
        assert _judge(q, cause).details["basis"]["outcome"] == "supported"
        other = "Republic Services' net income increased in 2022, driven by higher prices."
        basis = _judge(q, other).details["basis"]
        assert basis["outcome"] == "not_about" and "Republic" in basis["reason"], basis


class TestQualifier:
    def test_a_segment_name_before_the_whole_line_name(self) -> None:
        """'Display Technologies net income' is a segment's figure: the name before the whole
        line name is found past the line's own 'net', and a word of another phrase ('rates' of
        'tax rate' in 'exchange rates') is no place X starts."""
        from finqa.agents.reasoning.offline.causes import cause_target

        target = cause_target("What drove the change in Acme's effective tax rate and net income in 2022?")  # fmt: skip
        segment = "Exchange rates negatively impacted Display Technologies net income in 2022."
        assert target.qualifier(segment) == ["Display", "Technologies"]
        assert target.qualifier("In 2022 the net income increased.") == []
