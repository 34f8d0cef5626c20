"""Command-line flags shared by subcommands: the LLM backend, model and retry budget.

`add_llm_flags(parser)` adds `--backend`, `--model`, `--base-url` and `--budget`;
`llm_overrides(args)` turns the ones given into dotted settings overrides. `add_global_flags`
lets `--debug` stand before or after the subcommand (`finqa --debug ask ...` or `finqa ask ... --debug`).
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_global_flags", "add_llm_flags", "llm_overrides"]

_BACKENDS = ("offline", "openai", "hybrid")


def add_llm_flags(parser: argparse.ArgumentParser) -> None:
    """`--backend`, `--model`, `--base-url`, `--budget` (each overrides the config when given)."""
    parser.add_argument(
        "--backend",
        choices=_BACKENDS,
        help="reasoning backend (default: llm.backend of the config)",
    )
    parser.add_argument("--model", help="LLM model name for the openai backend (llm.model)")
    parser.add_argument(
        "--base-url",
        help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8011/v1 (llm.base_url)",
    )
    parser.add_argument(
        "--budget", type=int, help="retries after the first attempt (orchestrator.budget)"
    )


def llm_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The dotted overrides for the LLM flags that were given on the command line."""
    given = {
        "llm.backend": getattr(args, "backend", None),
        "llm.model": getattr(args, "model", None),
        "llm.base_url": getattr(args, "base_url", None),
        "orchestrator.budget": getattr(args, "budget", None),
    }
    budget = given["orchestrator.budget"]
    if budget is not None and budget < 0:
        from finqa.agents.errors import ConfigError

        raise ConfigError(f"--budget must be 0 or more, got {budget}")
    return {key: value for key, value in given.items() if value is not None}


def add_global_flags(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand (at any depth) the global `--debug` flag, so its place is free."""
    for action in parser._actions:  # argparse keeps sub-parsers only here
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                if not any("--debug" in a.option_strings for a in sub._actions):
                    sub.add_argument(
                        "--debug",
                        action="store_true",
                        default=argparse.SUPPRESS,
                        help="show tracebacks on errors",
                    )
                add_global_flags(sub)
