"""'How did that line affect Y?' (blind sets P, S, T, U, W, X): the effect of a line of the income
statement on a total of costs or a result, stated by the line's side and the figure's kind, and
checked by the judge against that definition; a quoted sentence about what moved Y that never
names the line answers no effect."""

from __future__ import annotations

import pytest
from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.effect import check_effect
from finqa.agents.types import Answer
from finqa.lexicon.causes import effect_object
from finqa.lexicon.sides import affected_kind, effect_of, stated_effect

OPEX = """ACME INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
2022 2021 2020
Operating revenues 3,159 3,011 2,743
Operation and maintenance 1,404 1,350 1,300
Depreciation and amortization 440 424 400
(Gain) loss on asset dispositions and purchases (3) (2) 1
Total operating expenses, net 1,841 1,772 1,701
Operating income 1,318 1,239 1,042
"""
Q = "Was Acme's 2022 '(Gain) loss on asset dispositions and purchases' line a gain or a loss, and how did it affect total operating expenses?"


class TestEffectLexicon:
    def test_affected_figure_and_its_kind(self) -> None:
        """The figure is the words after 'affect', without its period or owner; a total of costs
        or a result by its head ('income before income taxes' is a result)."""
        assert (
            effect_object("How did the charge affect 3M's 2017 operating income, and why?")
            == "operating income"
        )
        assert effect_object("What drove 3M's operating income?") is None
        assert affected_kind("total operating expenses") == "cost"
        assert affected_kind("income before income tax provision") == "result"
        assert affected_kind("bottom line") == "result"
        assert affected_kind("cash") is None

    def test_way_from_side_and_kind(self) -> None:
        assert effect_of("income", "result")[0] == "raised"
        assert effect_of("income", "cost")[0] == "lowered"
        assert effect_of("expense", "result")[0] == "lowered"
        assert effect_of("expense", "cost")[0] == "raised"
        assert stated_effect("the charge reduced it")[1] == "lowered"  # type: ignore[index]
        assert stated_effect("no effect word") is None


class TestEffectAnswered:
    def test_reasoner_states_the_way_and_judge_accepts(self) -> None:
        from finqa.agents.reasoning import build_reasoner

        settings = Settings()
        ev = evidence(OPEX, question=Q)
        answer = build_reasoner(settings).generate(Q, ev, 1)
        assert "gain" in answer.text and "lowered" in answer.text, answer.text
        assert "no stated reason" not in answer.text
        v = JudgeAgent(settings).evaluate(Q, answer, ev, 1)
        facet = [f for f in v.details["facets"] if f["kind"] == "explanation"][0]
        assert facet["addressed"], facet

    @pytest.mark.parametrize(
        ("text", "ok"),
        [
            (
                "A gain of $3 million. Its effect on total operating expenses: the gain lowered it.",
                True,
            ),
            (
                "A gain of $3 million. Its effect on total operating expenses: the gain raised it.",
                False,
            ),
            ("A loss of $3 million. The loss increased total operating expenses.", True),
            ("A loss of $3 million. The loss increased operating income.", None),
        ],
    )
    def test_judge_checks_the_way_against_the_side(self, text: str, ok: bool | None) -> None:
        """The way stated must be the one the side gives (a gain is netted against costs); a
        sentence naming another figure states no effect on the asked one."""
        got = check_effect("how did it affect total operating expenses?", text)
        if ok is None:
            assert got is None
        else:
            assert got is not None and got.addressed is ok, got

    def test_wrong_way_not_accepted(self) -> None:
        settings = Settings()
        ev = evidence(OPEX, question=Q)
        text = (
            "FY2022 (Gain) loss on asset dispositions and purchases: gain of $3 million [S1]. "
            "Its effect on total operating expenses: the gain raised it."
        )
        v = JudgeAgent(settings).evaluate(Q, Answer(text=text), ev, 1)
        assert v.decision != "accept"
        facet = [f for f in v.details["facets"] if f["kind"] == "explanation"][0]
        assert not facet["addressed"] and "lowered" in facet["how"], facet


BLOCKS = """MICRO CORP.
INCOME STATEMENTS
(In millions)
Year Ended June 30, 2019 2018
Revenue:
Product $ 66,069 $ 64,497
Service and other 59,774 45,863
Total revenue 125,843 110,360
Cost of revenue:
Product 16,273 15,420
Service and other 26,637 22,933
Total cost of revenue 42,910 38,353
Gross margin 82,933 72,007
"""
QB = "By what percentage did Micro's 'service and other' cost of revenue grow in fiscal 2019?"


class TestCaptionInTwoBlocks:
    """A caption printed under revenue and again under cost of revenue is the block's the
    question names beside it: the reasoner reads that block's row, the judge refuses the other's
    by the heading the cited source prints above it."""

    def test_reasoner_reads_the_named_block(self) -> None:
        from finqa.agents.reasoning import build_reasoner
        from finqa.lexicon.statements import MemoryStatementStore, read_pages

        doc = "MICRO_2019_10K"
        store = MemoryStatementStore(read_pages(doc, [(40, BLOCKS)]).tables)
        reasoner = build_reasoner(Settings(), statements=store)
        answer = reasoner.generate(QB, evidence("MD&A.", doc=doc), 1)
        assert "16.2%" in answer.text, answer.text
        revenue = "By what percentage did Micro's 'service and other' revenue grow in fiscal 2019?"
        answer = reasoner.generate(revenue, evidence("MD&A.", doc=doc), 1)
        assert "30.3%" in answer.text, answer.text

    def test_judge_refuses_the_other_blocks_row(self) -> None:
        from finqa.agents.types import Calculation, Operand

        ev = evidence(BLOCKS, question=QB)
        src = ev.items[0].source_id

        def answer(new: str, old: str, pct: str) -> Answer:
            ops = tuple(
                Operand(
                    name=f"service_and_other_fy{y}",
                    value=float(v.replace(",", "")),
                    source_id=src,
                    text=f"Service and other {row}",
                )
                for y, v, row in (
                    (2018, old, "59,774 45,863" if old == "45,863" else "26,637 22,933"),
                    (2019, new, "59,774 45,863" if new == "59,774" else "26,637 22,933"),
                )
            )
            calc = Calculation(
                expression="((service_and_other_fy2019) - (service_and_other_fy2018)) / abs(service_and_other_fy2018) * 100",
                operands=ops,
                result=float(pct),
                unit="%",
            )
            text = f"Growth in service and other, FY2018 to FY2019: {pct}% [{src}]. Answer: {pct}%."
            return Answer(text=text, calculations=(calc,))

        judge = JudgeAgent(Settings())
        wrong = judge.evaluate(QB, answer("59,774", "45,863", "30.3"), ev, 1)
        assert "named_line" in [p["code"] for p in wrong.details["answer_problems"]]
        assert "Revenue" in str(wrong.details["answer_problems"])
        right = judge.evaluate(QB, answer("26,637", "22,933", "16.2"), ev, 1)
        assert not [p for p in right.details["answer_problems"] if "another block" in p["message"]]


NIKE_LIKE = """ACME, INC.
CONSOLIDATED STATEMENTS OF INCOME
(In millions)
Year Ended May 31, 2019 2018 2017
Revenues $ 39,117 $ 36,397 $ 34,350
Cost of sales 21,643 20,441 19,038
Gross profit 17,474 15,956 15,312
Total selling and administrative expense 12,702 11,511 10,563
Interest expense (income), net 49 54 59
Other (income) expense, net (78) 66 (196)
Income before income taxes 4,801 4,325 4,886
"""
QE = "For fiscal 2019, did Acme's 'Other (income) expense, net' line add to or reduce its income before income taxes, and by how much?"


def test_either_or_effect_answered_by_the_lines_side() -> None:
    """'did the line add to or reduce pre-tax income, and by how much?' asks the line's own
    figure and the option its side has, not the line's movement from the year before."""
    from finqa.agents.reasoning import build_reasoner
    from finqa.lexicon.question_intent import read_intent
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    assert read_intent(QE).ask.aggregate == "single"
    doc = "ACME_2019_10K"
    store = MemoryStatementStore(read_pages(doc, [(40, NIKE_LIKE)]).tables)
    answer = build_reasoner(Settings(), statements=store).generate(
        QE, evidence("MD&A.", doc=doc), 1
    )
    assert answer.text.startswith("It did add to its income before income taxes"), answer.text
    assert "$78 million" in answer.text and "144" not in answer.text


def test_either_or_effect_accepted_and_the_other_option_refused() -> None:
    from finqa.agents.reasoning import build_reasoner
    from finqa.lexicon.statements import MemoryStatementStore, read_pages

    doc = "ACME_2019_10K"
    store = MemoryStatementStore(read_pages(doc, [(40, NIKE_LIKE)]).tables)
    ev = evidence(NIKE_LIKE, doc=doc, question=QE)
    settings = Settings()
    answer = build_reasoner(settings, statements=store).generate(QE, ev, 1)
    judge = JudgeAgent(settings, statements=store)
    v = judge.evaluate(QE, answer, ev, 1)
    assert v.decision == "accept", (answer.text, v.feedback)
    wrong = answer.model_copy(
        update={"text": answer.text.replace("It did add to", "It did reduce", 1)}
    )
    assert judge.evaluate(QE, wrong, ev, 1).decision != "accept"


def test_a_figures_own_movement_is_no_effect() -> None:
    """'did total debt increase or decrease during 2016?' asks the debt's movement; only an
    option naming the figure it moved ('reduce its income before income taxes') asks an effect."""
    from finqa.lexicon.question_intent import read_intent

    q = "Did Acme's total debt increase or decrease during 2016? Give both year-end totals."
    assert read_intent(q).ask.aggregate == "trend"
    assert read_intent(QE).ask.aggregate == "single"


def test_effect_on_a_result_the_catalogue_does_not_name() -> None:
    """'add to or reduce its income from continuing operations before taxes' names a result by
    its head even where no catalogue item spells it so: an effect, not a movement."""
    from finqa.lexicon.question_intent import read_intent

    q = (
        "Acme reports a line called 'Other (income)/deductions—net'. In 2020, did this line add "
        "to or reduce Acme's income from continuing operations before taxes, and by how much?"
    )
    assert read_intent(q).ask.aggregate == "single"
