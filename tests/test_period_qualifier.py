"""Words that say which date a balance is taken at ('beginning and end-of-year total assets',
'year-end cash') name no part of the line: they are no qualifier, so the judge does not ask the
answer to name an 'end of year' line (issue #25: a correct ROA was refused for it)."""

from __future__ import annotations

import pytest
from finqa.lexicon.qualifiers import qualifiers


@pytest.mark.parametrize(
    "question",
    [
        "Using net income attributable to Acme and the average of beginning and end-of-year "
        "total assets, what was Acme's return on assets for fiscal 2019?",
        "What was Acme's year-end cash balance in 2019?",
        "What were Acme's opening total assets in 2019?",
    ],
)
def test_date_words_are_no_part(question: str) -> None:
    assert qualifiers(question) == ()


def test_a_part_is_still_read() -> None:
    found = qualifiers("What was Acme's membership fee revenue in 2019?")
    assert [q.words for q in found] == [("membership", "fee")]
