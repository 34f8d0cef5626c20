"""The review page's script and style for a question across filings (`finqa.audit._report_legs`).

`LEGS_JS` is spliced into the page's script (`finqa.audit._report_assets`) after the functions
that draw one attempt, so a leg's life is drawn as any question's; like the rest of the page it
builds the DOM with `textContent` only. A parent question shows the whole's status (which legs
kept it from being accepted), the combination (operation, one operand per leg with company,
period, figure and citation, the result re-executed now, a derived mark, notes) and then each
leg with its own retrieval, reasoning, judge and retries.
"""

from __future__ import annotations

__all__ = ["LEGS_CSS", "LEGS_JS"]

LEGS_CSS = """
.legs{margin:8px 0}.leg{border:1px solid var(--line);border-left:4px solid #9334e6;border-radius:6px;padding:6px 10px;margin:10px 0}
.leg.unverified{border-color:var(--bad)}
.combination{border:1px solid var(--line);border-left:4px solid #188038;border-radius:6px;padding:6px 10px;margin:10px 0}
.s-derived{background:#f3e8fd}.whole{font-weight:600;margin:4px 0}
"""

LEGS_JS = r"""
  // ---------------------------------------------------------------- a question across filings
  function th(h) { return el("th", null, h); }
  function cited(c) { return c ? txt(c.doc_id) + " p." + txt(c.page) : ""; }
  function legTable(list) {
    var t = el("table", "legtable", el("tr", null, ["leg", "figure of", "company", "period", "figure", "status", "utility", "cited"].map(th)));
    list.forEach(function (g) {
      var tr = el("tr", null, [g.index, g.label, g.company, g.period, g.figure, g.status, g.utility, cited(g.citation)].map(function (x) { return el("td", null, txt(x)); }));
      tr.dataset.leg = txt(g.index);
      t.appendChild(tr);
    });
    return t;
  }
  function oneLeg(g) {
    var e = g.entry, box = el("div", "leg" + (e && !e.verified ? " unverified" : ""));
    box.dataset.qid = txt(g.question_id); box.dataset.leg = txt(g.index);
    box.appendChild(el("h3", null, ["Leg " + txt(g.index) + ": " + txt(g.label) + " ", pill(txt(g.status), "s-" + g.status)]));
    box.appendChild(el("div", "muted", "asked as " + txt(g.question_id) + ": " + txt(g.question)));
    box.appendChild(el("div", null, [el("b", null, "Figure: "), txt(g.figure) + (g.period_end ? " (fiscal period ending " + txt(g.period_end) + ")" : "") + (g.citation ? " — cited " + cited(g.citation) : "")]));
    if (g.citation && g.citation.quote) box.appendChild(el("blockquote", "quote", g.citation.quote));
    if (g.reason) box.appendChild(el("div", "muted", "Why: " + txt(g.reason)));
    Object.keys(g.extra || {}).forEach(function (k) { box.appendChild(el("div", "muted", k + ": " + txt(g.extra[k]))); });
    if (!e) { box.appendChild(el("div", "badtxt", "No records of this leg are in this report")); return box; }
    box.appendChild(el("div", null, [el("b", null, "Leg answer: "), el("span", "answer", txt(e.answer))]));
    box.appendChild(el("div", "muted", "seq " + e.seqs.join("–") + (e.verified ? " · all records verified" : " · contains records NOT verified")));
    if (e.reviews && e.reviews.length) box.appendChild(reviews(e));
    e.life.forEach(function (a) { box.appendChild(attempt(a)); });
    box.appendChild(rawList(e.other, "Other records of this leg (shown raw)"));
    return box;
  }
  function legsBox(q) {
    var box = el("div", "legs");
    box.appendChild(el("h3", null, "Legs (" + q.legs.length + "), each retrieved, answered and judged on its own"));
    box.appendChild(legTable(q.legs));
    q.legs.forEach(function (g) { box.appendChild(oneLeg(g)); });
    return box;
  }
  function combination(q) {
    var c = q.combination, box = el("div", "combination" + (c.verified ? "" : " unverified"));
    box.appendChild(el("h3", null, ["Combination: " + txt(c.operation) + (c.kind ? " (" + c.kind + ")" : "") + " ", c.derived ? pill("derived", "s-derived") : null, c.verified ? null : pill("NOT verified", "flag-unverified")]));
    box.appendChild(el("div", (c.failed.length || c.status !== "accepted") ? "badtxt whole" : "good whole", "Whole: " + txt(c.verdict)));
    if (c.plan) box.appendChild(el("div", "muted", "Plan: " + txt(c.plan)));
    c.calculations.forEach(function (k, n) {
      box.appendChild(el("div", null, [el("b", null, "Calculation " + (n + 1) + ": "), txt(k.description), " — ", el("code", null, txt(k.expression))]));
      var t = el("table", "operands", el("tr", null, ["operand", "leg", "company", "period", "figure", "value", "leg status", "cited"].map(th)));
      k.operands.forEach(function (o) {
        var g = o.leg || {};
        var from = g.doc_id ? txt(g.doc_id) + " p." + txt(g.page) : "";
        t.appendChild(el("tr", null, [o.name, g.label, g.company, g.period + (g.period_end ? " (ending " + g.period_end + ")" : ""), g.figure, o.value, g.status, from].map(function (x) { return el("td", null, txt(x)); })));
      });
      box.appendChild(t);
      var ok = k.reexec_ok;
      box.appendChild(el("div", ok ? "good" : "badtxt", "Result " + txt(k.shown) + " (recorded " + txt(k.result) + " " + txt(k.unit) + "); re-executed now: " + (k.reexecuted === null ? "could not compute (" + txt(k.reexec_error) + ")" : txt(k.reexecuted)) + (ok ? " ✓ matches" : " ✗ does not match")));
    });
    if (!c.calculations.length) box.appendChild(el("div", "badtxt", "No combination was calculated: " + txt(c.reason)));
    if (c.derived) box.appendChild(el("div", "muted derived", "Derived: a period no filing reports, made from two filings' figures"));
    c.notes.forEach(function (n) { box.appendChild(el("div", "note", "Note: " + n)); });
    return box;
  }
"""
