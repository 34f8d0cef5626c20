"""One year asked, whatever dates its average names (issue #25: a second route for every
accepted figure): 'the average of total assets at December 31, 2019 and 2020' names 2019 only
as the opening balance, so the judge's route may contradict a 2020 return on assets (a net
income of 37 read off 'Net income tax payments were $37 ...' was accepted: the two dates read
as a span no route can contradict); and the reasoner never reads a row the statement model typed
as another item ('Net income tax payments': income taxes paid) as net income by its first
words."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.judge import JudgeAgent
from finqa.agents.types import Answer, Calculation, Operand
from finqa.lexicon.statements import MemoryStatementStore, read_pages

DOC = "ACME_2020_10K"
INCOME = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(Dollars in millions)
Years ended December 31, 2020 2019 2018
Total revenues 58,158 76,559 101,127
Loss from operations (12,767) (1,975) 11,987
Net (loss)/earnings (11,941) (636) 10,460
Less: net loss attributable to noncontrolling interest (68) — —
Net (loss)/earnings attributable to Acme Shareholders (11,873) (636) 10,460
"""
BALANCE = """ACME CORP
CONSOLIDATED STATEMENTS OF FINANCIAL POSITION
(Dollars in millions)
December 31, 2020 2019
Total current assets 121,642 102,229
Total assets 152,136 133,625
"""
TAXES = (
    "Note 5 - Income Taxes\n(Dollars in millions)\nNet income tax payments were $37, $837 and $1,326 "
    "in 2020, 2019 and 2018, respectively."
)
Q = (
    "Using net loss attributable to Acme shareholders and the average of total assets at "
    "December 31, 2019 and 2020, what was Acme's return on assets for 2020?"
)


def _store(*pages: tuple[int, str]) -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, list(pages)).tables)


def _operand(name: str, value: float, source: str, text: str) -> Operand:
    year = name.rsplit("_fy", 1)[1]
    return Operand(
        name=name, value=value, unit="USD", scale=1e6, period=f"FY{year}", source_id=source,
        text=text,
    )  # fmt: skip


def test_a_route_contradicts_a_return_on_another_line() -> None:
    assets = "Total assets 152,136 133,625"
    ops = (
        _operand("net_income_fy2020", 37.0, "S2", TAXES),
        _operand("total_assets_fy2020", 152136.0, "S1", assets),
        _operand("total_assets_fy2019", 133625.0, "S1", assets),
    )
    expression = "(net_income_fy2020 / avg(total_assets_fy2020, total_assets_fy2019)) * 100"
    calc = Calculation(expression=expression, operands=ops, result=37 / 142880.5 * 100, unit="%")
    text = (
        f"FY2020 return on assets: 0.0% [S1][S2]. Computed by finqa as {expression} from net "
        "income FY2020 = 37 [S2]; total assets FY2020 = 152,136 [S1]; total assets FY2019 = "
        "133,625 [S1] (amounts in USD millions). Answer: 0.0%."
    )
    store = _store((60, INCOME), (62, BALANCE))
    verdict = JudgeAgent(Settings(), statements=store).evaluate(
        Q, Answer(text=text, calculations=(calc,)), evidence(BALANCE, TAXES, doc=DOC), 1
    )
    assert verdict.decision != "accept"
    assert "route_conflict" in [p["code"] for p in verdict.details["answer_problems"]]


def test_a_row_typed_as_another_item_is_not_net_income() -> None:
    from finqa.agents.reasoning.offline.book import Book
    from finqa.lexicon.model import StatementFact, StatementPeriod, StatementTable

    period = StatementPeriod(label="2020", fiscal_year=2020, months=12)
    paid = StatementFact(
        doc_id=DOC, statement="other", table_id="p87-s0", label="Net income tax payments",
        item="income_taxes_paid", period=period, value=37e6, scale=1e6, page=87,
    )  # fmt: skip
    table = StatementTable(
        table_id="p87-s0", doc_id=DOC, statement="other", pages=(87,), scale=1e6,
        periods=(period,), labels=("Net income tax payments",), facts=(paid,),
    )  # fmt: skip
    book = Book(evidence(BALANCE, TAXES, doc=DOC), MemoryStatementStore([table]))
    assert book.find("income_taxes_paid", 2020) is not None  # the row is read as its own item
    assert book.find("net_income", 2020) is None
