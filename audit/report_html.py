"""`finqa audit report`: one self-contained HTML review page of an audit log (and a PDF of it).

The page holds its CSS, its script and its data (JSON in ``<script type="application/json">``
blocks — the summary, and one line per question's life, parsed when it is opened — whose ``<``, ``>`` and ``&`` are written as ``\\u003c`` ... so no text in it can close the
block or open a comment); it requests nothing from any host and opens from ``file://``.
``--pdf`` prints the page through headless Chromium (`chromium_path`), every question expanded.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from finqa.agents.errors import AuditError
from finqa.audit._report_assets import CSS, JS
from finqa.audit.keys import TrustedKeys
from finqa.audit.report_data import build_report_data
from finqa.audit.signing import CheckpointKeys

__all__ = [
    "CHROMIUM_ARGS",
    "chromium_path",
    "embed_json",
    "render_html",
    "DETAIL_KEYS",
    "write_report",
    "print_pdf",
]

# Flags for every headless Chromium finqa starts (tests included): no GPU, no sandbox (root in
# containers), and no background traffic (updates, sync, QUIC probes) on a closed network.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def embed_json(data: Any) -> str:
    """JSON text safe inside a <script> element: no '<', '>', '&' or line separators literally."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


# Per-question fields kept out of the page's main data: one JSON line per question in a second
# block, parsed only when that question is opened (the table of 10,000 questions loads fast).
DETAIL_KEYS = ("life", "other", "citations", "reviews", "switches", "legs", "combination")


def render_html(data: dict[str, Any]) -> str:
    """The whole page for report data from `build_report_data`."""
    status = data["verify"]["label"]
    questions = data.get("questions") or []
    summary = {
        **data,
        "questions": [{k: v for k, v in q.items() if k not in DETAIL_KEYS} for q in questions],
    }
    details = "\n".join(embed_json({k: q.get(k) for k in DETAIL_KEYS}) for q in questions)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>finqa audit review — {status}</title>\n<style>{CSS}</style></head>\n<body>\n"
        '<div id="app"><noscript>This review page needs JavaScript to show the log '
        "(no network access is made).</noscript></div>\n"
        f'<script type="application/json" id="finqa-data">{embed_json(summary)}</script>\n'
        f"<script>{JS}</script>\n"
        f'<script type="application/json" id="finqa-details">{details}</script>\n'
        "</body></html>\n"
    )


def write_report(
    log: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    run_id: str | None = None,
    question_id: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    pdf: bool = False,
    keys: CheckpointKeys | None = None,
    reviewers: TrustedKeys | None = None,
) -> tuple[Path, dict[str, Any]]:
    """Write the report (atomically) and, with `pdf`, OUT.pdf beside it; the path and its data.
    `checkpoint`, `keys`, `reviewers`: as for `build_report_data`."""
    data = build_report_data(
        log,
        run_id=run_id,
        question_id=question_id,
        checkpoint=checkpoint,
        keys=keys,
        reviewers=reviewers,
    )
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(render_html(data), encoding="utf-8")
    os.replace(tmp, target)
    if pdf:
        print_pdf(target, target.with_suffix(".pdf"))
    return target, data


def chromium_path() -> str:
    """The Chromium executable: $FINQA_CHROMIUM, else chromium / chromium-browser / google-chrome."""
    configured = os.environ.get("FINQA_CHROMIUM")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise AuditError(
        "no Chromium found for --pdf: install it (Debian: apt-get install chromium) or set FINQA_CHROMIUM"
    )


def print_pdf(html: Path, pdf: Path, *, timeout_s: float = 300.0) -> Path:
    """Print `html` (every question expanded) to `pdf` with headless Chromium."""
    exe = chromium_path()
    pdf.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="finqa-chromium-") as profile:
        cmd = [
            exe,
            *CHROMIUM_ARGS,
            f"--user-data-dir={profile}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf.resolve()}",
            html.resolve().as_uri() + "#print",
        ]
        try:
            done = subprocess.run(
                cmd, capture_output=True, text=True, timeout=timeout_s, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise AuditError(f"Chromium could not print {html} to PDF: {exc}") from None
    if done.returncode != 0 or not pdf.exists() or pdf.stat().st_size == 0:
        tail = (done.stderr or "").strip().splitlines()[-1:] or ["no output"]
        raise AuditError(f"Chromium could not print {html} to PDF: {tail[0]}")
    return pdf
