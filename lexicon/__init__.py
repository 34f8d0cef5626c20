"""finqa lexicon: companies, fiscal periods, metrics and unit-aware numbers of financial text.

Importing is cheap: data files in lexicon/data/ are read on first use and cached.
"""

from __future__ import annotations

from finqa.lexicon.asked_period import AskedPeriod, asked_periods
from finqa.lexicon.compare import find_in_text, quantities_match
from finqa.lexicon.display import format_amount
from finqa.lexicon.docnames import DocMeta, parse_doc_name
from finqa.lexicon.entities import (
    Company,
    CompanyMatch,
    all_companies,
    company_for_doc,
    find_companies,
    lookup_company,
)
from finqa.lexicon.formula import FormulaError, evaluate_metric
from finqa.lexicon.metrics import METRICS, Metric, MetricMatch, find_metrics, get_metric
from finqa.lexicon.numbers import Quantity, detect_scale, extract_quantities, parse_quantity
from finqa.lexicon.periods import PeriodMatch, find_periods, year_mentions
from finqa.lexicon.query import analyze, primary_fiscal_year

__all__ = [
    "analyze",
    "format_amount",
    "find_companies",
    "lookup_company",
    "company_for_doc",
    "all_companies",
    "parse_doc_name",
    "find_periods",
    "asked_periods",
    "AskedPeriod",
    "year_mentions",
    "primary_fiscal_year",
    "find_metrics",
    "get_metric",
    "METRICS",
    "evaluate_metric",
    "FormulaError",
    "extract_quantities",
    "parse_quantity",
    "detect_scale",
    "Quantity",
    "quantities_match",
    "find_in_text",
    "Company",
    "CompanyMatch",
    "DocMeta",
    "Metric",
    "MetricMatch",
    "PeriodMatch",
]
