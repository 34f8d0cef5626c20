"""'What drove / why did X change' answered from the filing's own explanation, or an abstention."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.causes import cause_answer, cause_target
from finqa.lexicon.causes import (
    asks_cause,
    cause_marker,
    is_discussion_section,
    is_hypothetical,
    names_movement,
    opens_on_movement,
    split_at_cause,
)

MDA = (
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
)
FILLER = (
    "We design, manufacture and sell products to customers around the world. "
    "Our results depend on economic conditions in the markets we serve."
)
MARGIN_CAUSE = (
    "Gross margin decreased to 45% in 2022 from 48% in 2021, primarily due to amortization of "
    "intangible assets associated with the acquisition."
)
REVENUE_THEN_CAUSE = (
    "Net revenue for 2022 was $23.6 billion, an increase of 44% compared to 2021. "
    "The increase was driven by higher sales of server processors and semi-custom products."
)
QUARTER_CAUSE = (
    "In the fourth quarter of 2022, gross margin decreased to 44% primarily due to higher "
    "freight costs and unfavorable product mix."
)
NO_CAUSE = "Gross margin was 45% in 2022 and 48% in 2021, as shown in the table below."
RISK = (
    "Our gross margin may decline due to competition, pricing pressure and other factors "
    "described in these risk factors."
)


def ask(question: str, *texts: str, sections: tuple[str | None, ...] = ()):  # type: ignore[no-untyped-def]
    ev = evidence(*texts, question=question, sections=sections)
    return build_reasoner(Settings()).generate(question, ev, 1)


class TestCauseLanguage:
    def test_cause_questions(self) -> None:
        """'What drove', 'why did' and 'reasons for' ask for a cause; 'what was' does not."""
        assert asks_cause("What drove gross margin change in FY2022?")
        assert asks_cause("Why did the company raise its full year guidance?")
        assert asks_cause("What were the main reasons for the decline in revenue?")
        assert not asks_cause("What was the gross margin in FY2022?")

    def test_markers(self) -> None:
        """A sentence's cause marker is read from the one vocabulary; a plain statement has none."""
        assert cause_marker(MARGIN_CAUSE) == "due to"
        assert cause_marker("Sales rose, partially offset by lower volumes.") == "offset by"
        assert cause_marker(NO_CAUSE) is None

    def test_movement_opening_and_section(self) -> None:
        """'The increase was ...' opens on a movement; the MD&A heading is the discussion."""
        assert opens_on_movement("The increase was driven by higher sales.")
        assert is_hypothetical(RISK) and not is_hypothetical(MARGIN_CAUSE)
        assert split_at_cause(MARGIN_CAUSE) is not None
        assert names_movement("Gross margin decreased") and not names_movement("Gross margin was")
        assert not opens_on_movement("Higher sales drove the increase.")
        assert is_discussion_section(MDA)
        assert not is_discussion_section("Item 1A. Risk Factors")


class TestCauseTarget:
    def test_catalogue_names_the_figure(self) -> None:
        """An operating-margin question is named by the operating income line too."""
        t = cause_target("What drove operating margin change as of FY2022 for Acme?")
        assert t.named_in({"operat", "incom", "decreas"})
        assert not t.named_in({"gros", "margin", "decreas"})


class TestCauseAnswer:
    def test_quotes_the_explaining_sentence(self) -> None:
        """The sentence naming the figure with a cause leads the answer, cited."""
        a = ask("What drove gross margin change in FY2022 for Acme?", FILLER, MARGIN_CAUSE)
        assert not a.abstained
        assert f'"{MARGIN_CAUSE}" [S2]' in a.text
        assert a.confidence["mode"] == "cause"
        assert [c.source_id for c in a.citations] == ["S2"]

    def test_lead_restates_what_is_explained(self) -> None:
        """The answer leads with the movement and the figure it explains, as the question asks."""
        a = ask("What drove the decrease in gross margin in FY2022 for Acme?", FILLER, MARGIN_CAUSE)
        assert a.text.startswith("What drove the decrease in gross margin, in the filing's words:")

    def test_sentence_before_names_the_figure(self) -> None:
        """'The increase was driven by ...' is quoted with the sentence naming revenue before it."""
        a = ask("What drove revenue change as of FY2022 for Acme?", FILLER, REVENUE_THEN_CAUSE)
        assert "Net revenue for 2022 was $23.6 billion" in a.text
        assert "higher sales of server processors" in a.text

    def test_opener_naming_another_figure(self) -> None:
        """'The decrease in gross margin was due to ...' after a revenue sentence explains gross
        margin, not revenue."""
        text = (
            "Gross margin as a percentage of net revenue was 45% in 2022. "
            "The decrease in gross margin was primarily due to amortization of intangible assets."
        )
        a = ask("What drove revenue change as of FY2022 for Acme?", FILLER, text)
        assert a.abstained

    def test_a_segments_figure_is_not_the_companys(self) -> None:
        """'Data Center operating income ... driven by' does not explain the company's operating
        income; it does when the question names Data Center."""
        text = (
            "Data Center operating income was $1.8 billion in 2022, compared to $991 million in "
            "2021. The increase in operating income was primarily driven by higher revenue."
        )
        company = ask("What drove operating income change in FY2022 for Acme?", FILLER, text)
        segment = ask("What drove Data Center operating income change in FY2022?", FILLER, text)
        assert company.abstained
        assert not segment.abstained and "higher revenue" in segment.text

    def test_listed_causes_and_cost_of_sales(self) -> None:
        """'Cost of products sold increased ... driven by:' and its list of causes, one a line,
        explain a gross margin change (a gross margin moves with the cost of sales)."""
        text = (
            "Cost of products sold increased as a percent to sales driven by:\n\n"
            "One-time manufacturing exit related costs\n\n"
            "Currency impacts in the Pharmaceutical segment\n"
            "partially offset by\n\n"
            "Supply chain benefits in the Consumer segment\n"
            "The intangible asset amortization expense included in cost of products sold was $4.3 "
            "billion and $4.7 billion for the fiscal years 2022 and 2021, respectively, as shown "
            "in the table of amortization by segment below.\n"
        )
        a = ask("What drove gross margin change as of FY2022 for Acme?", FILLER, text)
        assert not a.abstained
        assert "Currency impacts in the Pharmaceutical segment" in a.text
        assert "Supply chain benefits" in a.text and "amortization expense" not in a.text

    def test_colon_without_a_list_is_no_cause(self) -> None:
        """'... driven by:' with no list after it names no cause and abstains."""
        text = "Cost of products sold increased as a percent to sales driven by:"
        a = ask("What drove gross margin change as of FY2022 for Acme?", FILLER, text)
        assert a.abstained

    def test_no_cause_abstains(self) -> None:
        """Without a sentence giving a cause the answer abstains and says what it looked for."""
        a = ask("What drove gross margin change in FY2022 for Acme?", FILLER, NO_CAUSE)
        assert a.abstained
        assert "gross margin" in a.text and "'due to'" in a.text

    def test_no_cause_tells_the_judge_what_was_looked_for(self) -> None:
        """The abstention names what it looked for in the typed `missing` field (the judge's
        and the retry's input), not only as an untyped confidence key."""
        a = ask("What drove gross margin change in FY2022 for Acme?", FILLER, NO_CAUSE)
        assert a.missing == ("the cause of the change in gross margin",)
        assert "missing" not in a.confidence

    def test_other_figure_is_no_answer(self) -> None:
        """A cause of another figure's movement does not answer (operating margin asked)."""
        a = ask("What drove operating margin change in FY2022 for Acme?", FILLER, MARGIN_CAUSE)
        assert a.abstained

    def test_risk_factor_is_no_explanation(self) -> None:
        """'May decline due to ...' is a possibility, not the cause of a movement: it abstains."""
        a = ask("What drove gross margin change in FY2022 for Acme?", FILLER, RISK)
        assert a.abstained

    def test_figure_named_after_the_marker_is_no_explanation(self) -> None:
        """A sentence whose cause mentions the figure ('impairment due to lower revenue growth')
        does not explain the figure's own movement."""
        s = "Goodwill impairment increased primarily due to lower revenue growth in the unit."
        a = ask("What drove revenue change in FY2022 for Acme?", FILLER, s)
        assert a.abstained

    def test_year_before_quarter(self) -> None:
        """A question about the year prefers the year's explanation to a quarter's."""
        a = cause_answer(
            "What drove gross margin change in FY2022?",
            evidence(QUARTER_CAUSE, MARGIN_CAUSE),
            "standard",
        )
        assert a.text.index(MARGIN_CAUSE) < a.text.find("[S")

    def test_second_explanation_of_another_year_is_left_out(self) -> None:
        """The year before's explanation does not follow the asked year's."""
        prior = (
            "Gross margin decreased to 48% in 2021 from 50% in 2020, primarily due to higher "
            "freight costs."
        )
        a = cause_answer(
            "What drove gross margin change in FY2022?", evidence(MARGIN_CAUSE, prior), "standard"
        )
        assert "freight" not in a.text and MARGIN_CAUSE in a.text

    def test_discussion_before_risk_factors(self) -> None:
        """The management's discussion ranks before a risk factor naming the same figure."""
        a = cause_answer(
            "What drove gross margin change in FY2022?",
            evidence(RISK, MARGIN_CAUSE, sections=("Item 1A. Risk Factors", MDA)),
            "standard",
        )
        assert a.text.index(MARGIN_CAUSE) < a.text.find("[S")


class TestJudgeChecksCauses:
    def test_judge_accepts_a_cited_explanation(self) -> None:
        """The judge checks a cause answer like any other and accepts a grounded, cited one."""
        from finqa.agents.judge.agent import JudgeAgent

        q = "What drove gross margin change in FY2022 for Acme?"
        ev = evidence(FILLER, MARGIN_CAUSE, question=q)
        a = build_reasoner(Settings()).generate(q, ev, 1)
        v = JudgeAgent(Settings()).evaluate(q, a, ev, 1)
        assert v.decision == "accept" and v.grounding == 1.0

    def test_judge_rejects_the_abstention(self) -> None:
        """An abstention saying what was looked for is not accepted as an answer."""
        from finqa.agents.judge.agent import JudgeAgent

        q = "What drove gross margin change in FY2022 for Acme?"
        ev = evidence(FILLER, NO_CAUSE, question=q)
        a = build_reasoner(Settings()).generate(q, ev, 1)
        assert JudgeAgent(Settings()).evaluate(q, a, ev, 1).decision == "retry"


class TestBridgingLine:
    Q = "Why did Acme's 2020 net income exceed its income before taxes?"
    SEGMENT = (
        "Computing operating income was $1.3 billion in 2020 compared to $577 million in 2019, "
        "primarily driven by higher sales."
    )
    TAX = (
        "The income tax benefit of $1.2 billion in 2020 was primarily due to the release of a "
        "valuation allowance on our U.S. federal deferred tax assets."
    )

    def test_two_lines_one_bridges_ask_about_that_line(self) -> None:
        """Net income and income before taxes are bridged by income taxes: a cause question
        naming both asks about the taxes; one naming a single line asks about that line."""
        from finqa.lexicon.causes import asked_bridge

        bridge = asked_bridge(self.Q)
        assert bridge is not None and bridge.id == "income_tax_expense"
        assert asked_bridge("What drove the increase in Acme's net income in 2020?") is None
        assert asked_bridge("What were Acme's net income and pretax income in 2020?") is None
        # two lines listed side by side ask what moved each, not why they differ
        assert (
            asked_bridge("What drove changes in Acme's net income and income before taxes?") is None
        )

    def test_the_taxes_explain_the_gap(self) -> None:
        """The sentence explaining the income tax line answers, not a segment's income movement."""
        a = ask(self.Q, FILLER, self.SEGMENT, self.TAX, sections=(None, MDA, MDA))
        assert not a.abstained and self.TAX in a.text and self.SEGMENT not in a.text

    def test_without_a_tax_sentence_it_abstains(self) -> None:
        """Where no sentence explains the bridging line, what moved net income is no answer to
        why it differs from income before taxes: the answer abstains."""
        moved = "Net income increased in 2020, primarily driven by higher operating income."
        a = ask(self.Q, FILLER, moved, sections=(None, MDA))
        assert a.abstained

    def test_the_line_is_read_by_the_catalogue_not_its_words(self) -> None:
        """'The mix of income before income taxes ... impacted our effective tax rate' holds the
        words 'income taxes' inside another line's name: it does not explain the tax line."""
        mix = (
            "The mix of income before income taxes between the U.S. and foreign countries "
            "impacted our effective tax rate as a result of the geographic distribution of sales."
        )
        a = ask(self.Q, FILLER, mix, sections=(None, MDA))
        assert a.abstained
