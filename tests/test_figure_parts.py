"""A question asking two figures, each in a part of its own (issue #25: a second part left out
was accepted; recall): each part is asked on its own, with the question's premise and earlier
parts before it, and the answers are joined in the question's order; one part the reasoner
cannot answer leaves the whole question to its one reading (no partial answer)."""

from __future__ import annotations

from _reasoning_data import INCOME, evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.figure_parts import part_questions


class TestPartQuestions:
    def test_each_part_with_what_came_before(self) -> None:
        subs = part_questions(
            "How much cash did Acme hold at the end of fiscal 2015, and how much did that "
            "balance increase during the year?"
        )
        assert subs == (
            "How much cash did Acme hold at the end of fiscal 2015?",
            "How much cash did Acme hold at the end of fiscal 2015. How much did that balance "
            "increase during the year?",
        )

    def test_a_lead_in_opens_every_part(self) -> None:
        subs = part_questions(
            "For fiscal 2021, what operating margin did Acme's Cloud segment earn, and how fast "
            "did the segment's revenue grow year over year?"
        )
        assert subs is not None
        assert subs[0] == "For fiscal 2021, what operating margin did Acme's Cloud segment earn?"
        assert subs[1].endswith(
            "For fiscal 2021, how fast did the segment's revenue grow year over year?"
        )

    def test_only_questions_of_figure_parts(self) -> None:
        assert part_questions("What was revenue in 2022?") is None
        assert part_questions("Did revenue rise in 2022, and what drove it?") is None


class TestJoinedAnswer:
    def test_both_figures_in_order(self) -> None:
        q = "What was Acme's net revenue in 2022, and how fast did it grow from 2021?"
        ans = build_reasoner(Settings()).generate(q, evidence(INCOME), 1)
        assert not ans.abstained, ans.text
        level, growth = ans.text.find("$86,392 million"), ans.text.find("8.7%")
        assert 0 <= level < growth, ans.text


class TestClaimsOfAMovementPart:
    def test_a_growth_claim_answers_the_part_asking_growth(self) -> None:
        """'The growth in revenue of the Cloud segment ... was 24.2%' shares the segment's name
        with the margin part, but states the movement the other part asks."""
        from finqa.agents.judge.facets import assign_claims, decompose

        q = (
            "For fiscal 2021, what operating margin did Acme's Cloud segment earn, and how fast "
            "did the segment's revenue grow year over year?"
        )
        claims = [
            "The operating margin of the Cloud segment for FY2021 was 43.5%;",
            "The growth in revenue of the Cloud segment for FY2021 was 24.2%.",
        ]
        assert assign_claims(decompose(q), claims, [1, 1]) == [0, 1]

    def test_a_part_referring_back_takes_the_movement(self) -> None:
        """'how much did the balance change?' names no line: a movement claim of the balance
        the first part asks answers it."""
        from finqa.agents.judge.facets import assign_claims, decompose

        q = (
            "What deferred revenues balance did Acme carry at December 31, 2022, and how much did "
            "the balance change from a year earlier?"
        )
        claims = [
            "Deferred revenue as of December 31, 2022: $2,088 million.",
            "Growth in deferred revenue, FY2021 to FY2022: 86.8% ($970 million).",
        ]
        assert assign_claims(decompose(q), claims, [1, 1]) == [0, 1]

    def test_a_movement_of_another_line_stays(self) -> None:
        """'Change in operating margin' does not answer 'how much did its operating income
        fall' beside a part asking the margin."""
        from finqa.agents.judge.facets import assign_claims, decompose

        q = (
            "What operating margin did Acme post in fiscal 2023, and by how much did its operating "
            "income fall from fiscal 2022?"
        )
        claims = [
            "The operating margin decreased from 6.7% in FY2022 to 5.4% in FY2023.",
            "Change in operating margin, FY2022 to FY2023: -1.2 percentage points.",
        ]
        assert assign_claims(decompose(q), claims, [1, 1])[1] == 0


class TestNoRepeatedPart:
    def test_a_part_answered_with_another_part_s_figure_is_not_split(self) -> None:
        from finqa.agents.reasoning.offline.figure_parts import answer_parts
        from finqa.agents.types import Answer

        same = Answer(text="Deferred revenue as of December 31, 2015: $3,118 million [S1].")
        q = (
            "How much unearned revenue did Acme carry at December 31, 2015, and how much "
            "unearned revenue was added during 2015?"
        )
        assert answer_parts(q, lambda sub: same) is None
        other = iter([same, Answer(text="Additions to unearned revenue in 2015: $7,401 million.")])
        joined = answer_parts(q, lambda sub: next(other))
        assert joined is not None and "$7,401 million" in joined.text
