"""A margin's whole operands (issue #25 item 2): cost lines a question names as the operands of the
company's margin are not a part of the business; a filer that prints no gross profit and splits
its cost of revenue under captions the catalogue does not list shows them by its layout (a
cost-of-revenue sub-heading, an expense caption repeating a revenue line's); every line of one
statement is summed, each as its size, and the answer names them."""

from __future__ import annotations

from _reasoning_data import evidence
from finqa.agents.config import Settings
from finqa.agents.reasoning import build_reasoner
from finqa.agents.reasoning.offline.book import Book
from finqa.lexicon.dimension_members import DimensionMember
from finqa.lexicon.dimensions import resolve_dimension
from finqa.lexicon.statements import MemoryStatementStore, read_pages
from finqa.lexicon.statements.catalogue import item_for_label
from finqa.lexicon.statements.cost_lines import revenue_costs

DOC = "ACME_2022_10K"

# cost of revenue printed as two negative lines, no gross profit (as Boeing prints it)
SIGNED = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Years ended December 31,
2022 2021
Sales of products 800 700
Sales of services 200 180
Total revenues 1,000 880
Cost of products (600) (530)
Cost of services (150) (140)
General and administrative expense (50) (45)
Earnings from operations 200 165
Net earnings 150 120
"""

# costs of revenue under sub-headings, one caption under both (as Activision Blizzard prints)
HEADED = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Years ended December 31,
2022 2021
Net revenues
Product sales 400 380
Subscription and other revenues 600 500
Total net revenues 1,000 880
Costs and expenses
Cost of revenues—product sales:
Product costs 100 90
Software royalties and licenses 50 45
Cost of revenues—subscription and other revenues:
Game operations costs 150 140
Software royalties and licenses 20 15
Product development 200 180
General and administrative 100 90
Total costs and expenses 620 560
Operating income 380 320
Net income 300 250
"""

# expense lines repeating the revenue lines' captions (as Oracle prints them)
REPEATED = """ACME CORP
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
Years ended December 31,
2022 2021
Revenues:
Cloud services 700 600
License 100 120
Hardware 200 220
Total revenues 1,000 940
Operating expenses:
Cloud services 150 140
Hardware 80 90
Sales and marketing 300 280
Research and development 150 140
Total operating expenses 680 650
Operating income 320 290
Net income 250 220
"""


def _store(*pages: str) -> MemoryStatementStore:
    return MemoryStatementStore(read_pages(DOC, list(enumerate(pages, start=40))).tables)


def _gross_margin(page: str, question: str = "What was Acme's gross margin in FY2022?") -> str:
    ans = build_reasoner(Settings(), statements=_store(page)).generate(question, evidence(page), 1)
    assert not ans.abstained, ans.text
    return ans.text


class TestOperandsAreNoPart:
    MEMBERS = [
        DimensionMember(
            "srt:ProductOrServiceAxis", "acme:ProductMember", "product", "Sales of products",
            ("salesofproducts", "ofproducts", "products"),
        ),
        DimensionMember(
            "srt:ProductOrServiceAxis", "acme:ServicesAndOtherMember", "product",
            "Services and other", ("servicesandother",),
        ),
    ]  # fmt: skip

    def test_cost_lines_named_as_operands(self) -> None:
        """'cost of products and cost of services as cost of revenue', 'all cost of revenue
        lines (product, and services and other)': the lines are the company's cost of revenue,
        not the product 'Sales of products' or 'Services and other'."""
        for q in (
            "What was Acme's 2022 gross margin, treating both cost of products and cost of "
            "services as cost of revenue?",
            "What was Acme's gross margin in FY2022, defined as (total revenues - cost of "
            "products - cost of services) / total revenues?",
            "What was Acme's gross margin in FY2022, counting all cost of revenue lines "
            "(subscription, product, and services and other)?",
        ):
            assert resolve_dimension(q, self.MEMBERS) is None, q

    def test_the_part_named_otherwise_is_still_asked(self) -> None:
        """The same names as the figure's subject stay the part asked."""
        for q in (
            "What was the gross margin of Acme's sales of products in FY2022?",
            "What was Acme's services and other gross margin in FY2022?",
        ):
            asked = resolve_dimension(q, self.MEMBERS)
            assert asked is not None and asked.member is not None, q

    def test_a_parenthesis_that_lists_no_lines_keeps_the_part(self) -> None:
        """'operating costs (for services and other)' names the part whose costs are asked,
        not the lines of a cost."""
        q = "What were Acme's operating costs (for services and other) in FY2022?"
        asked = resolve_dimension(q, self.MEMBERS)
        assert asked is not None and asked.member == "acme:ServicesAndOtherMember"


class TestSummedCostLines:
    def test_negative_cost_lines_are_read_as_their_sizes(self) -> None:
        """Cost of products (600) + cost of services (150): gross margin (1,000 - 750) / 1,000 =
        25.0%, not (1,000 + 750) / 1,000 = 175.0% (each summed line read as its size)."""
        text = _gross_margin(SIGNED)
        assert "25.0%" in text and "'Cost of products' and 'Cost of services'" in text


class TestCostsByLayout:
    def test_lines_under_a_cost_of_revenue_heading(self) -> None:
        """The four lines under the two 'Cost of revenues—...' sub-headings, the caption they
        share counted under each, down to the first line of another item (product
        development): (1,000 - 320) / 1,000 = 68.0%."""
        store = _store(HEADED)
        costs = [f.value for f in Book(evidence(HEADED), store).find_summed("cogs", 2022)]
        assert sorted(costs) == [20.0, 50.0, 100.0, 150.0]
        assert "68.0%" in _gross_margin(HEADED)

    def test_expense_lines_repeating_revenue_captions(self) -> None:
        """'Cloud services' and 'Hardware' under operating expenses are those revenues' costs:
        (1,000 - 230) / 1,000 = 77.0%; 'Sales and marketing' is not one."""
        text = _gross_margin(REPEATED)
        assert "77.0%" in text

    def test_revenue_costs_by_position(self) -> None:
        """Only the lines right after the revenue total: an expense line repeating a revenue
        caption after another item's line is not typed, nor a line with no such caption."""

        def rows(*labels: str) -> list[tuple[str, list[str]]]:
            return [(x, [] if x.endswith(":") else ["1"]) for x in labels]

        def typed(*labels: str) -> set[str]:
            table = rows(*labels)
            items = [item_for_label(x) if cells else None for x, cells in table]
            return {table[r][0] for r in revenue_costs(table, [""] * len(table), items)}

        assert typed("Hardware", "Services", "Total revenues", "Hardware", "Marketing") == {
            "Hardware"
        }
        assert typed("Hardware", "Total revenues", "Marketing", "Hardware") == set()
        assert typed("Hardware", "Total revenues", "Occupancy", "Hardware") == set()
        assert typed("Hardware revenues", "Total revenues", "Hardware expenses") == {
            "Hardware expenses"
        }

    def test_a_statement_with_its_own_cost_caption_is_read_by_it(self) -> None:
        """A filer printing 'Cost of products' needs no layout: no line is typed by it."""
        table = [(x, ["1"]) for x in ("Sales", "Total revenues", "Cost of products", "Other")]
        items = [item_for_label(x) for x, _ in table]
        assert revenue_costs(table, [""] * len(table), items) == frozenset()


class TestCatalogueCaptions:
    def test_merchandise_costs_is_cost_of_revenue(self) -> None:
        """Costco's cost of sales line, 'Merchandise costs', is the catalogue's cost of
        revenue."""
        assert item_for_label("Merchandise costs") == "cogs"


class TestFootnoteMarks:
    def test_a_mark_before_the_figures_is_no_column(self) -> None:
        """'Hardware (1) 1,360 1,576' under two years: 1,360 is the first year's figure (the
        mark is no cell), as the statement model reads the row; the judge finds it there."""
        from finqa.lexicon.statements.located import column_period

        text = (
            "CONSOLIDATED STATEMENTS OF OPERATIONS\n(in millions)\nYear Ended May 31,\n"
            "2019 2018\nTotal revenues 39,506 39,383\nOperating expenses:\n"
            "Hardware (1) 1,360 1,576\nSales and marketing (1) 8,509 8,433\n"
        )
        at = text.index("1,360")
        assert column_period(text, at, at + 5).year == 2019
        at = text.index("8,433")
        assert column_period(text, at, at + 5).year == 2018
