"""Movement words by meaning (lexicon.movement): literal words keep their way, evaluative ones
('improve', 'weaken') take the item's favourable direction from the catalogue and ask none over an
item without one; a literal movement of a net loss read on net income is net income moving the
other way; one list of the words feeds every pattern; one stemmer meets plurals; one rule reads
the way figures moved, for the reasoner and the judge alike."""

from __future__ import annotations

from typing import Any

import pytest
from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.judge.movement import asked_movements
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.causes import CauseTarget, observed_direction
from finqa.agents.types import Answer, Evidence
from finqa.lexicon import answer_form, causes, intent, movement, polarity, query
from finqa.lexicon.catalogue import CatalogueError, _check
from finqa.lexicon.question_ask import read_ask
from finqa.lexicon.stems import stem

DOC = "ACME_2022_10K"

# a filer with a loss in both years (invented figures)
LOSS = """Consolidated Statements of Operations
(in millions)
2022
2021
Net sales
1,000
900
Cost of sales
700
640
Operating loss
(40)
(95)
Net loss
(30)
(80)
"""


def _ev(question: str, *texts: str) -> Evidence:
    return evidence(*texts, doc=DOC, question=question)


def _ask(question: str, *texts: str) -> Answer:
    return build_reasoner(Settings()).generate(question, _ev(question, *texts), 1)


def _problems(question: str, text: str, *texts: str) -> list[str]:
    verdict = JudgeAgent(Settings()).evaluate(question, Answer(text=text), _ev(question, *texts), 1)
    return [p["code"] for p in verdict.details["answer_problems"]]


class TestFavourableDirection:
    def test_from_the_catalogue(self) -> None:
        """Revenue, a margin, a return and the current ratio are better higher; an expense (by
        its nature), days sales outstanding and debt-to-equity lower; days payable outstanding,
        the effective tax rate, capex intensity and an unknown item have no favourable way."""
        for item in ("revenue", "net_income", "gross_margin", "roe", "current_ratio"):
            assert movement.favourable_direction(item) == 1, item
        for item in ("cogs", "sga", "impairment", "dso", "ccc", "debt_to_equity", "sga_ratio"):
            assert movement.favourable_direction(item) == -1, item
        for item in ("dpo", "effective_tax_rate", "capex_ratio", "inventory", "no_such_item"):
            assert movement.favourable_direction(item) is None, item
        assert movement.favourable_direction(None) is None

    def test_catalogue_refuses_another_value(self) -> None:
        """`favourable` is higher, lower or none: another value is refused at load."""
        with pytest.raises(CatalogueError, match="favourable"):
            _check("widget", {"name": "Widget", "favourable": "sideways"})


class TestAskedDirection:
    def test_net_loss_that_improved_fell(self) -> None:
        """'Did the net loss improve?' on net income asks a rise of net income (a smaller
        loss); 'Did the net loss increase?' asks a fall of it (a larger loss)."""
        q = "Did Acme's net loss improve in FY2022 compared with FY2021?"
        assert movement.asked_direction(q, "net_income") == (True, False)
        assert read_ask(q).direction == (True, False)
        q = "Did Acme's net loss increase in FY2022 compared with FY2021?"
        assert movement.asked_direction(q, "net_income") == (False, True)
        assert read_ask(q).direction == (False, True)

    def test_a_loss_line_of_its_own_moves_as_named(self) -> None:
        """An impairment loss is the loss line itself: its increase is a rise of the line."""
        q = "Did Acme's impairment losses increase in FY2022?"
        assert movement.asked_direction(q, "impairment") == (True, False)

    def test_dso_that_improved_fell(self) -> None:
        """Days sales outstanding improve when they fall; revenue when it rises."""
        q = "Did Acme's days sales outstanding improve in FY2022 compared with FY2021?"
        assert read_ask(q).direction == (False, True)
        q = "Did Acme's revenue improve in FY2022 compared with FY2021?"
        assert read_ask(q).direction == (True, False)
        q = "Did Acme's operating margin weaken in FY2022?"
        assert read_ask(q).direction == (False, True)

    def test_no_favourable_direction_asks_none(self) -> None:
        """'Did DPO improve?' asks no direction (analysts disagree which way is good): no Yes/No
        answers it; a literal word still does ('Did DPO increase?')."""
        ask = read_ask(
            "Did Acme's days payable outstanding improve in FY2022 compared with FY2021?"
        )
        assert ask.direction == (False, False) and ask.open_direction
        assert ask.aggregate == "trend"
        ask = read_ask(
            "Did Acme's days payable outstanding increase in FY2022 compared with FY2021?"
        )
        assert ask.direction == (True, False) and not ask.open_direction

    def test_literal_words_and_idioms(self) -> None:
        """Literal words keep their way whatever the item; idioms name no movement."""
        assert movement.asked_direction("Did Acme's costs go down in 2022?", "cogs") == (
            False,
            True,
        )
        assert movement.asked_direction("Did the sale give rise to a gain?") == (False, False)
        assert movement.asked_direction("Does it fall within ASC 842?") == (False, False)
        assert intent.asks_movement("Did Acme's liquidity weaken?")
        assert not intent.asks_movement("Did the sale give rise to a gain?")

    def test_things_whose_existence_is_asked(self) -> None:
        """'Were there any events ... that increased net income?' asks whether such events
        exist, not whether net income rose; 'Was there any drop in cash?' asks a movement."""
        events = "Were there any unusual events that substantially increased Acme's net income?"
        assert not intent.asks_movement(events)
        assert intent.asks_movement("Was there any drop in Acme's cash between 2022 and 2023?")
        assert intent.asks_movement("Did Acme's net income increase in 2022?")


class TestOneList:
    def test_every_reader_takes_the_words_from_the_list(self) -> None:
        """A word of the list is read as a movement by intent (amount asked), polarity (figures
        answer), query (a computation), causes (a movement sentence, its way) and the opposites."""
        assert intent.asks_change_amount("By how much did Acme's gross margin weaken in 2022?")
        assert not intent.asks_change_amount("What was Acme's revenue growth in FY2022?")
        assert polarity.asks_direction("Did Acme's segment shrink in 2022?")
        assert not polarity.asks_direction("Did Acme reduce its workforce in 2022?")  # an act
        assert query.analyze("What drove the fall in Acme's revenue in FY2022?").is_computation
        assert causes.names_movement("Operating expenses weakened due to ...")
        assert causes.direction_word("shrank") == -1
        assert causes.direction_word("improved") is None
        assert causes.direction_word("improved", "dso") == -1
        options = answer_form.alternatives("Did Acme's margin strengthen or weaken in 2022?")
        assert options is not None
        assert answer_form.names_alternative("the margin deteriorated", options)

    def test_cause_sentence_reads_evaluative_words_by_the_item(self) -> None:
        """'The improvement in net loss' is net income going up; 'impairment losses increased'
        is the impairment line going up (not the result's negative side)."""
        text = "The improvement in net loss was primarily due to new contracts."
        assert causes.stated_direction(text, ["net loss"], "net_income") == 1
        assert causes.stated_direction(text, ["net loss"]) is None
        text = "Impairment losses increased due to store closures."
        assert causes.stated_direction(text, ["impairment losses"], "impairment") == 1
        assert causes.stated_direction("The decrease in net loss was due to", ["net loss"]) == 1


class TestStems:
    def test_plurals_meet(self) -> None:
        """'losses' and 'loss', 'liabilities' and 'liability', 'benefits' and 'benefit' share a
        stem, as do a verb's forms."""
        assert stem("losses") == stem("loss")
        assert stem("liabilities") == stem("liability")
        assert stem("benefits") == stem("benefit")
        assert stem("decreased") == stem("decrease") == stem("decreases")
        assert stem("materially") == stem("material")

    def test_plural_opposites(self) -> None:
        """'gains or losses', 'assets or liabilities' and 'expense or benefits' offer opposites."""
        assert answer_form.alternatives("Did Acme record net gains or losses on the sale?")
        assert answer_form.alternatives("Were these deferred taxes assets or liabilities?")
        assert answer_form.alternatives("Did Acme record a tax expense or tax benefits in 2022?")


class TestObservedDirection:
    def test_all_one_way(self) -> None:
        """Every later figure against every earlier one, all one way beyond a tolerance."""
        assert movement.observed_direction([110.0], [100.0]) == 1
        assert movement.observed_direction([90.0, 91.0], [100.0]) == -1
        assert movement.observed_direction([100.2], [100.0]) is None  # flat
        assert movement.observed_direction([110.0, 90.0], [100.0]) is None  # readings disagree
        assert movement.observed_direction([], [100.0]) is None

    def test_unreadable_store_reads_no_movement(self) -> None:
        """A statement store that cannot read its filing (a damaged file) gives no movement to
        the reasoner's cause answer nor to the judge's; another error is not swallowed."""

        class Broken:
            def __init__(self, error: Exception) -> None:
                self.error = error

            def lookup(self, *_a: Any, **_k: Any) -> list[Any]:
                raise self.error

            def values(self, *_a: Any, **_k: Any) -> list[Any]:
                raise self.error

        q = "What drove the change in Acme's revenue in FY2022?"
        target = CauseTarget("revenue", (), frozenset(), False, frozenset(), metric="revenue")
        ev = _ev(q, INCOME)
        assert observed_direction(target, q, ev, Broken(OSError("damaged"))) is None
        lines = asked_movements(q, Broken(ValueError("bad parquet")), [2022])
        assert lines and lines[0].direction is None
        with pytest.raises(RuntimeError):
            observed_direction(target, q, ev, Broken(RuntimeError("a bug")))


class TestAnswers:
    def test_net_loss_that_improved(self) -> None:
        """A net loss from $80 million to $30 million improved (Yes) and did not increase (No)."""
        a = _ask("Did Acme's net loss improve in FY2022 compared with FY2021?", LOSS)
        assert not a.abstained and a.text.startswith("Yes.")
        a = _ask("Did Acme's net loss increase in FY2022 compared with FY2021?", LOSS)
        assert not a.abstained and a.text.startswith("No.")

    def test_revenue_improved_and_cost_did_not(self) -> None:
        """Revenue that rose improved; a cost of sales that rose did not."""
        a = _ask("Did Acme's revenue improve in FY2022 compared with FY2021?", INCOME)
        assert a.text.startswith("Yes.")
        a = _ask("Did Acme's cost of sales improve in FY2022 compared with FY2021?", INCOME)
        assert a.text.startswith("No.")

    def test_no_favourable_direction_states_the_movement(self) -> None:
        """'Did the effective tax rate improve?': both figures, no Yes/No of the answer's own."""
        a = _ask("Did Acme's effective tax rate improve in FY2022 compared with FY2021?", INCOME)
        assert not a.abstained
        assert not a.text.startswith(("Yes", "No")) and "decreased from" in a.text


class TestJudge:
    def test_yes_no_on_no_favourable_direction_is_not_accepted(self) -> None:
        """A 'Yes' to whether the effective tax rate improved is a verdict its definition cannot
        give; the movement alone is accepted."""
        q = "Did Acme's effective tax rate improve in FY2022 compared with FY2021?"
        moved = "The effective tax rate decreased from 21.8% in FY2021 to 16.1% in FY2022 [S1]."
        assert "open_verdict" in _problems(q, "Yes. " + moved, INCOME)
        assert "open_verdict" not in _problems(q, moved, INCOME)

    def test_verdict_follows_the_economics_of_a_loss(self) -> None:
        """'Did the net loss increase?' answered 'Yes' beside net income going from -$80 million
        to -$30 million contradicts its figure; 'No' does not."""
        q = "Did Acme's net loss increase in FY2022 compared with FY2021?"
        moved = "The net income increased from -$80 million in FY2021 to -$30 million in FY2022."
        assert "verdict_sign" in _problems(q, "Yes. " + moved, LOSS)
        assert "verdict_sign" not in _problems(q, "No. " + moved, LOSS)


class TestCauseWithOneStemmer:
    def test_percentage_meets_percent(self) -> None:
        """Under the one stemmer ('percentage' -> 'percentag'), 'As a percentage of net sales,
        SG&A expenses decreased ... due to ...' still names 'SG&A as a percent of net sales'."""
        from finqa.agents.reasoning.offline.causes import cause_answer

        q = "What drove the reduction in SG&A expense as a percent of net sales in FY2022?"
        text = (
            "Management's Discussion and Analysis\nResults of Operations\nAs a percentage of net "
            "sales, SG&A expenses decreased to 21.4% compared to 22.0% in fiscal 2021, primarily "
            "due to lower advertising spend and leverage of fixed store costs on higher sales."
        )
        a = cause_answer(q, _ev(q, text), "standard")
        assert not a.abstained and "lower advertising spend" in a.text


class TestStatedFigureOfTheAskedSpan:
    def test_quarter_sentence_does_not_answer_six_months(self) -> None:
        """A figure stated for the second quarter does not answer 'the first six months': the
        sentence for the six months does (a tie of words is not left to the stemmer)."""
        from finqa.agents.reasoning.offline.sentences import figure_answer

        q = "How much cash did Acme spend repurchasing common shares in the first six months of fiscal 2023?"  # fmt: skip
        text = (
            "Share Repurchase Program During the second quarter of fiscal 2023, the Company "
            "repurchased 500,000 shares of its common stock for cash of $200.0 million.\n"
            "During the first six months of fiscal 2023, the Company repurchased 1.0 million "
            "shares of its common stock for cash of $450.0 million."
        )
        a = figure_answer(q, _ev(q, text), "standard")
        assert a is not None and a.text.startswith("$450.0 million")


class TestSwing:
    def test_a_swing_is_a_change(self) -> None:
        """'how large was the swing from fiscal 2022' asks a movement; a 'swing line' credit
        facility names none."""
        found = movement.pattern().search(
            movement.without_idioms("how large was the swing from 2022")
        )
        assert found is not None and found.group(0) == "swing"
        assert (
            movement.pattern().search(movement.without_idioms("borrowings under the swing line"))
            is None
        )

    def test_levels_do_not_answer_the_swing_part(self) -> None:
        """Two years' levels of a line do not state how large its swing was: the part stays
        open (the judge used to accept the answer's levels for it)."""
        from finqa.agents.judge.facets import _asks_movement, _states_movement

        assert _asks_movement("how large was the swing from fiscal 2022?")
        assert not _states_movement("FY2023: other retirement plans income of $1,054 million.")
