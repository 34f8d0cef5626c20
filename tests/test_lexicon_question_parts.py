"""One parse of a question into the parts it asks (lexicon.question_parts), read by the judge."""

from __future__ import annotations

from finqa.lexicon.question_parts import question_parts


class TestQuestionParts:
    def test_forms(self) -> None:
        """Each asked clause gets the form of answer it wants."""
        forms = {
            "Does 3M have positive working capital?": "verdict",
            "Why did operating margin fall in FY2022?": "explanation",
            "Which segment had the highest revenue in FY2022?": "choice",
            "What is the FY2022 capital expenditure for 3M?": "figure",
            "What are the company's main products?": "answer",
        }
        for question, form in forms.items():
            (part,) = question_parts(question).parts
            assert part.form == form, question

    def test_two_clauses(self) -> None:
        """A yes/no that says 'explain why' asks an explanation too; ', and why' and 'and what'
        start parts of their own."""
        (part,) = question_parts("Did revenue rise in FY2022? Explain why it did.").parts[:1]
        assert part.form == "verdict"
        (both,) = question_parts("Is revenue up in FY2022 given the reasons behind it?").parts
        assert both.form == "verdict" and both.explain_too
        split = question_parts("Did revenue rise in FY2022, and why?").parts
        assert [p.form for p in split] == ["verdict", "explanation"]
        parts = question_parts("What was revenue in FY2022 and what was net income?").parts
        assert [p.form for p in parts] == ["figure", "figure"]

    def test_compare_years(self) -> None:
        """A comparison of two years' figures asks one figure per year."""
        (part,) = question_parts("What was revenue in 2021 vs 2022?").parts
        assert part.form == "compare" and part.years == (2021, 2022)

    def test_compared_with_another_period(self) -> None:
        """'and how did it compare with a year earlier?' asks the figure of the year before
        too (issue #25: a one-year answer left the comparison out and was accepted); a
        reference that is no period asks no year."""
        parts = question_parts(
            "What inventory balance did Acme carry at May 31, 2021, and how did it compare "
            "with a year earlier?"
        ).parts
        assert [(p.form, p.years) for p in parts] == [("figure", ()), ("compare", (2021, 2020))]
        parts = question_parts(
            "What was revenue in Q2 2023, and how does that compare to fiscal 2021?"
        ).parts
        assert parts[1].form == "compare" and parts[1].years == (2023, 2021)
        parts = question_parts(
            "What was the gross margin in 2022, and how does it compare with the industry?"
        ).parts
        assert parts[1].form == "answer" and parts[1].years == ()

    def test_instructions_and_conditionals(self) -> None:
        """Instructions join their part's context; an 'if not useful' clause is conditional."""
        q = (
            "What is Acme's FY2022 gross margin? Round to two decimal places. "
            "If gross margin is not a useful metric for a company like this, state that and explain why."
        )
        parsed = question_parts(q)
        assert len(parsed.parts) == 1 and "Round to two" in parsed.parts[0].context
        assert parsed.conditionals and parsed.conditionals[0][1] == 0
