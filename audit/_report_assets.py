"""The review report's inline CSS and JavaScript (no request to any other host).

The script (placed between the summary block and the per-question lives block, so the table is
drawn before the lives have been read) reads the JSON data and builds the page with DOM calls and ``textContent``
only: no ``innerHTML``, no links or URLs taken from the data, so filing text and LLM output
show as text and run nothing. ``#print`` in the URL renders every question expanded (PDF).
"""

from __future__ import annotations

from finqa.audit._report_legs_assets import LEGS_CSS, LEGS_JS

__all__ = ["CSS", "JS"]

_CSS = """
:root{--ok:#1b6e20;--bad:#b00020;--warn:#8a5a00;--mute:#5f6368;--line:#dadce0;--bg:#f8f9fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#202124}
header,main{padding:12px 20px}
h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:18px 0 8px}h3{font-size:14px;margin:12px 0 4px}
.banner{padding:12px 16px;border-radius:6px;margin:8px 0;color:#fff;font-weight:600}
.banner.ok{background:var(--ok)}.banner.tampered{background:var(--bad)}.banner.torn{background:var(--warn)}
.banner .sub{font-weight:400;font-size:13px;margin-top:4px;word-break:break-all}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}
th{background:var(--bg);position:sticky;top:0}
th.sortable{cursor:pointer;user-select:none}th.sortable:hover{text-decoration:underline}
tr.q{cursor:pointer}tr.q:hover{background:#eef3fd}
.kv{table-layout:fixed}.kv td{overflow-wrap:anywhere}.kv td.k{color:var(--mute);width:130px}
summary{cursor:pointer;font-weight:600;font-size:16px;margin:14px 0 6px}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
.controls input[type=search]{min-width:260px;padding:4px}
.pill{display:inline-block;padding:0 6px;border-radius:9px;font-size:12px;border:1px solid var(--line);margin:1px}
.s-accepted{background:#e6f4ea}.s-best_effort{background:#fef7e0}.s-abstained{background:#e8eaed}
.s-failed,.s-incomplete,.flag-unverified,.flag-failed,.s-rejected{background:#fce8e6}
.s-approved{background:#e6f4ea}.s-flagged{background:#fef7e0}
.flag-out{background:#e8f0fe}
.detail{background:#fcfcfd;padding:8px 14px;border-left:3px solid #1a73e8}
.attempt{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:8px 0}
.unverified{border-color:var(--bad)}
.muted{color:var(--mute)}
blockquote{margin:4px 0 4px 8px;padding:2px 8px;border-left:3px solid var(--line);white-space:pre-wrap}
pre{white-space:pre-wrap;word-break:break-all;background:var(--bg);padding:6px;margin:4px 0;font-size:12px}
.pager{margin:8px 0;display:flex;gap:8px;align-items:center}
.good{color:var(--ok)}.badtxt{color:var(--bad)}
@media print{.controls,.pager{display:none}th{position:static}.attempt{break-inside:avoid}}
"""

_JS = r"""
(function () {
  "use strict";
  var T0 = performance.now();
  var D = JSON.parse(document.getElementById("finqa-data").textContent);
  var T1 = performance.now();
  var PRINT = location.hash === "#print";
  function el(tag, cls, kids) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    add(n, kids);
    return n;
  }
  function add(n, kids) {
    if (kids === undefined || kids === null) return n;
    if (!Array.isArray(kids)) kids = [kids];
    kids.forEach(function (k) {
      if (k === undefined || k === null) return;
      n.appendChild(typeof k === "object" ? k : document.createTextNode(String(k)));
    });
    return n;
  }
  function txt(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3);
    if (typeof v === "object") return JSON.stringify(v);
    return String(v);
  }
  function kv(rows) {
    var t = el("table", "kv"), tr = null;
    rows.filter(function (r) { return r[1] !== null && r[1] !== undefined && r[1] !== ""; }).forEach(function (r, n) {
      if (n % 2 === 0) { tr = el("tr"); t.appendChild(tr); }
      add(tr, [el("td", "k", r[0]), el("td", null, txt(r[1]))]);
    });
    return t;
  }
  function pill(text, cls) { return el("span", "pill " + (cls || ""), text); }
  function bytes(n) { return n > 1048576 ? (n / 1048576).toFixed(1) + " MB" : n > 1024 ? (n / 1024).toFixed(1) + " KB" : n + " B"; }

  // ---------------------------------------------------------------- banner and runs
  function banner() {
    var v = D.verify, cls = v.status === 0 ? "ok" : v.status === 1 ? "tampered" : "torn", head;
    var anchored = v.checkpointed_through_seq ? "; checkpoint matches up to seq " + v.checkpointed_through_seq + (v.checkpointed_through_seq < v.verified_through_seq ? ", later records verified by the chain alone" : "") : "; no checkpoint vouches for it";
    if (v.status === 0) head = "Chain verified: intact up to seq " + v.verified_through_seq + anchored;
    else if (v.status === 1 && v.first_bad_line === null && v.verified_through_seq > 0) head = "TAMPERED: " + v.review_problems.length + " sign-off(s) do not verify (shown as NOT verified); chain intact up to seq " + v.verified_through_seq + anchored;
    else if (v.status === 1 && v.verified_through_seq === 0) head = "TAMPERED: nothing in this log is verified (" + v.message + ")";
    else if (v.status === 1) head = "TAMPERED at seq " + v.first_bad_seq + " (line " + v.first_bad_line + "): records from seq " + v.first_bad_seq + " on are NOT verified; chain intact only up to seq " + v.verified_through_seq;
    else head = "TRUNCATED/TORN at line " + v.first_bad_line + ": chain intact up to seq " + v.verified_through_seq;
    var b = el("div", "banner " + cls, [el("div", null, head)]);
    b.id = "banner";
    b.appendChild(el("div", "sub", v.message));
    b.appendChild(el("div", "sub", "Checkpoint: " + v.checkpoint.note));
    b.appendChild(el("div", "sub", "Log " + D.log.path + " · " + bytes(D.log.bytes) + " · " + D.log.records + " records · head seq " + D.log.head_seq + " hash " + txt(D.log.head_hash)));
    b.appendChild(el("div", "sub", "Verified when this report was made, " + D.generated + ", by finqa " + D.finqa_version));
    return b;
  }
  function runs() {
    var s = el("details", null, el("summary", null, "Runs (" + D.runs.length + ")"));
    s.id = "runs"; s.open = true;
    D.runs.forEach(function (r) {
      s.appendChild(el("h3", null, "Run " + r.run_id + (r.verified ? "" : " — contains unverified records")));
      s.appendChild(kv([
        ["start – end", r.start + " – " + r.end], ["config hash", r.config_hash],
        ["backend / model", txt(r.backend) + " / " + txt(r.model)], ["models", r.models],
        ["prompt templates", r.templates.map(function (t) { return t.id + " " + t.hash + " (×" + t.uses + ")"; }).join("; ")],
        ["thresholds τ0 / λ / τmin", [r.thresholds.tau0, r.thresholds.tau_lambda, r.thresholds.tau_min].map(txt).join(" / ")],
        ["weights g / c / n", [r.weights.w_grounding, r.weights.w_completeness, r.weights.w_numeric].map(txt).join(" / ")],
        ["budget (retries)", r.budget], ["finqa code", r.code_version], ["index", r.index_version],
        ["python", r.python], ["records", r.records], ["run_start record", r.has_run_start ? "yes" : "missing"]
      ]));
    });
    return s;
  }

  // ---------------------------------------------------------------- the life of one question
  function evidence(items) {
    var t = el("table", null, el("tr", null, ["source", "filing", "pages", "section", "score"].map(function (h) { return el("th", null, h); })));
    items.forEach(function (i) {
      t.appendChild(el("tr", null, [i.source_id, i.doc_id, (i.pages || []).join(", "), i.section, txt(i.score)].map(function (c) { return el("td", null, txt(c)); })));
    });
    return t;
  }
  function calcs(list) {
    var box = el("div");
    list.forEach(function (c, n) {
      box.appendChild(el("div", null, [el("b", null, "Calculation " + (n + 1) + ": "), txt(c.description), " — ", el("code", null, txt(c.expression))]));
      var t = el("table", null, el("tr", null, ["operand", "value", "unit", "scale", "period", "source", "read from"].map(function (h) { return el("th", null, h); })));
      c.operands.forEach(function (o) {
        var from = txt(o.source_id) + (o.doc_id ? " " + o.doc_id + " p." + txt(o.page) : "");
        t.appendChild(el("tr", null, [o.name, o.value, o.unit, o.scale, o.period, from, o.text].map(function (x) { return el("td", null, txt(x)); })));
      });
      box.appendChild(t);
      var ok = c.reexec_ok;
      box.appendChild(el("div", ok ? "good" : "badtxt", "Recorded result " + txt(c.result) + " " + txt(c.unit) + "; re-executed now: " + (c.reexecuted === null ? "could not compute (" + txt(c.reexec_error) + ")" : txt(c.reexecuted)) + (ok ? " ✓ matches" : " ✗ does not match")));
    });
    return box;
  }
  function rawList(list, title) {
    var box = el("div");
    if (!list || !list.length) return box;
    box.appendChild(el("h3", null, title));
    list.forEach(function (o) {
      box.appendChild(el("div", "muted", "seq " + txt(o.seq) + (o.verified ? "" : " — NOT verified")));
      box.appendChild(el("pre", "raw", o.raw));
    });
    return box;
  }
  function attempt(a) {
    var box = el("div", "attempt" + (a.verified ? "" : " unverified"));
    box.appendChild(el("h3", null, ["Attempt " + a.attempt + " ", a.verified ? pill("verified", "s-accepted") : pill("NOT verified", "flag-unverified")]));
    if (a.changes) box.appendChild(el("div", "muted", "Changed since attempt " + (a.attempt - 1) + ": " + a.changes.join("; ")));
    var r = a.retrieval;
    if (r) {
      box.appendChild(el("div", null, [el("b", null, "Retrieval: "), txt(r.decision) + " — " + txt(r.reason)]));
      box.appendChild(el("div", "muted", "route " + txt(r.route) + ", k " + txt(r.k) + ", candidates " + txt(r.candidates) + ", RSE " + txt(r.rse) + (r.reused_from ? ", evidence reused from attempt " + r.reused_from : "") + (r.filters ? ", filters " + txt(r.filters) : "") + (r.query ? ", query " + txt(r.query) : "")));
      if (r.items.length) box.appendChild(evidence(r.items));
    }
    var q = a.reasoning;
    if (q) {
      box.appendChild(el("div", null, [el("b", null, "Answer" + (q.abstained ? " (abstains)" : "") + ": "), el("span", "answer", txt(q.answer))]));
      box.appendChild(el("div", "muted", "strategy " + txt(q.strategy) + ", template " + txt(q.template_id) + " " + txt(q.template_hash) + ", backend " + txt(q.backend) + (q.model ? ", model " + q.model : "")));
      q.citations.forEach(function (c) {
        box.appendChild(el("div", null, "[" + txt(c.source_id) + "] " + txt(c.doc_id) + " p." + txt(c.page)));
        if (c.quote) box.appendChild(el("blockquote", "quote", c.quote));
      });
      if (q.calculations.length) box.appendChild(calcs(q.calculations));
    }
    var j = a.judge;
    if (j) {
      var s = j.scores;
      box.appendChild(el("div", null, [el("b", null, "Judge: "), txt(j.decision) + " — grounding " + txt(s.grounding) + ", completeness " + txt(s.completeness) + ", numeric " + txt(s.numeric) + ", utility " + txt(s.utility) + " vs threshold " + txt(s.threshold) + (j.diagnosis ? "; diagnosis " + j.diagnosis : "")]));
      if (j.feedback) box.appendChild(el("div", "muted", "Feedback: " + j.feedback));
      if (j.missing_facets.length) box.appendChild(el("div", "muted", "Missing: " + j.missing_facets.map(txt).join("; ")));
      if (j.unsupported_numbers.length) box.appendChild(el("div", "muted", "Unsupported numbers: " + j.unsupported_numbers.map(txt).join("; ")));
    }
    if (a.error) box.appendChild(el("div", "badtxt", "Error in " + txt(a.error.agent) + ": " + txt(a.error.reason)));
    if (a.decision) box.appendChild(el("div", null, [el("b", null, "Decision: "), txt(a.decision.decision) + " — " + txt(a.decision.reason)]));
    box.appendChild(rawList(a.other, "Other records (shown raw)"));
    return box;
  }
  function reviews(q) {
    var box = el("div");
    box.appendChild(el("h3", null, "Sign-off"));
    if (!q.reviews.length) { box.appendChild(el("div", "muted", "Not reviewed")); return box; }
    q.reviews.slice().reverse().forEach(function (r, n) {
      box.appendChild(el("div", "review", [pill(txt(r.verdict), "s-" + r.verdict), " by " + txt(r.reviewer) + " at " + txt(r.ts) + " (seq " + txt(r.seq) + ")" + (n === 0 ? " — current" : " — superseded") + (r.verified ? " — signed, verified" : " — NOT verified" + (r.sign_problem ? " (" + r.sign_problem + ")" : "")) + (r.hash_ok === false ? " — its hash does not verify: not counted" : "") + (r.note ? ": " + r.note : "")]));
    });
    return box;
  }
  function whenParsed(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn, { once: true });
    else fn();
  }
  var LINES = null, DTEXT = "";
  function load(q) {  // a question's life: its line of the details block, parsed on first use
    if (q.life) return;
    if (LINES === null) {
      LINES = []; DTEXT = document.getElementById("finqa-details").textContent;
      var start = 0, end;
      while (start < DTEXT.length) { end = DTEXT.indexOf("\n", start); if (end < 0) end = DTEXT.length; LINES.push([start, end]); start = end + 1; }
    }
    var r = LINES[q._i], x = JSON.parse(DTEXT.substring(r[0], r[1]));
    Object.keys(x).forEach(function (k) { q[k] = x[k]; });
  }
  function detail(q) {
    load(q);
    var box = el("div", "detail");
    box.appendChild(el("div", null, [el("b", null, "Question: "), txt(q.question)]));
    box.appendChild(el("div", null, [el("b", null, "Final: "), pill(q.status, "s-" + q.status), " " + txt(q.reason)]));
    box.appendChild(el("div", null, [el("b", null, "Answer: "), el("span", "answer", txt(q.answer))]));
    if (q.error) box.appendChild(el("div", "badtxt", "Error: " + q.error));
    box.appendChild(el("div", "muted", "run " + q.run_id + " · seq " + q.seqs.join("–") + (q.verified ? (q.checkpointed ? " · all records verified (chain and checkpoint)" : " · all records verified by the chain (after the last checkpoint)") : " · contains records NOT verified")));
    box.appendChild(reviews(q));
    if (q.combination) box.appendChild(combination(q));
    if (q.legs) box.appendChild(legsBox(q));
    q.life.forEach(function (a) { box.appendChild(attempt(a)); });
    box.appendChild(rawList(q.other, "Other records of this question (shown raw)"));
    return box;
  }
/*LEGS*/

  // ---------------------------------------------------------------- the questions table
  var COLS = [["qid", "Question ID"], ["question", "Question"], ["status", "Status"], ["utility", "Utility"], ["attempts", "Attempts"], ["company", "Company"], ["filings", "Filings cited"], ["review", "Review"], ["flags", "Flags"]];
  var state = { status: "", company: "", review: "", search: "", sort: null, dir: 1, page: 0, size: 50, open: {} };
  var Q = D.questions;
  Q.forEach(function (q, i) { q._i = i; q._rv = q.review ? q.review.verdict : "not reviewed"; });
  function hay(q) {
    if (q._h === undefined) q._h = [q.qid, q.question, q.company, q.filings.join(" "), q.answer, q.status, q._rv, q.flags.join(" "), (q.leg_ids || []).join(" "), (q.leg_labels || []).join(" ")].join("\n").toLowerCase();
    return q._h;
  }
  function rows() {
    var s = state.search.toLowerCase();
    var out = Q.filter(function (q) {
      return (!state.status || q.status === state.status) && (!state.company || q.company === state.company) && (!state.review || q._rv === state.review) && (!s || hay(q).indexOf(s) >= 0);
    });
    if (state.sort) {
      var k = state.sort, d = state.dir;
      out.sort(function (a, b) {
        var x = k === "review" ? a._rv : a[k], y = k === "review" ? b._rv : b[k];
        if (Array.isArray(x)) { x = x.join(","); y = y.join(","); }
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : x > y ? 1 : 0) * d;
      });
    }
    return out;
  }
  function select(id, label, values, key) {
    var s = el("select"); s.id = id;
    var all = el("option", null, "all " + label); all.value = ""; s.appendChild(all);
    values.forEach(function (v) { var o = el("option", null, v || "(none)"); o.value = v; s.appendChild(o); });
    s.addEventListener("change", function () { state[key] = s.value; state.page = 0; draw(); });
    return s;
  }
  function uniq(f) { var m = {}; Q.forEach(function (q) { m[f(q)] = 1; }); return Object.keys(m).sort(); }
  var tbody, pager, count;
  function cell(q, k) {
    if (k === "status") return el("td", null, pill(q.status, "s-" + q.status));
    if (k === "review") return el("td", null, q.review ? pill(q.review.verdict, "s-" + q.review.verdict) : el("span", "muted", "not reviewed"));
    if (k === "flags") return el("td", null, q.flags.map(function (f) { return pill(f, "flag-" + f.split(" ")[0]); }));
    if (k === "filings") return el("td", null, q.filings.join(", "));
    if (k === "attempts" && q.leg_count) return el("td", null, txt(q.attempts) + " (" + q.leg_count + " legs)");
    if (k === "qid") { var b = el("button", "toggle", (state.open[q._i] ? "▾ " : "▸ ") + q.qid); b.setAttribute("aria-expanded", state.open[q._i] ? "true" : "false"); return el("td", null, b); }
    return el("td", null, txt(q[k]));
  }
  function draw() {
    var list = rows(), size = PRINT ? list.length || 1 : state.size;
    var pages = Math.max(1, Math.ceil(list.length / size));
    if (state.page >= pages) state.page = pages - 1;
    var shown = list.slice(state.page * size, state.page * size + size);
    var body = el("tbody"); body.id = "qrows";
    shown.forEach(function (q) {
      var tr = el("tr", "q"); tr.dataset.qid = q.qid;
      COLS.forEach(function (c) { tr.appendChild(cell(q, c[0])); });
      tr.addEventListener("click", function () { whenParsed(function () { state.open[q._i] = !state.open[q._i]; draw(); }); });
      body.appendChild(tr);
      if (state.open[q._i] || PRINT) {
        var td = el("td", null, detail(q)); td.colSpan = COLS.length;
        var dr = el("tr", "detail-row", td); dr.dataset.qid = q.qid; body.appendChild(dr);
      }
    });
    tbody.parentNode.replaceChild(body, tbody); tbody = body;
    count.textContent = list.length + " of " + Q.length + " questions";
    pager.querySelector(".where").textContent = "page " + (state.page + 1) + " of " + pages;
  }
  function table() {
    var s = el("section"); s.id = "questions";
    s.appendChild(el("h2", null, "Questions (" + Q.length + ")"));
    var c = el("div", "controls");
    var search = el("input"); search.type = "search"; search.id = "search"; search.placeholder = "search id, question, company, filing, answer";
    var timer = null;
    search.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { state.search = search.value; state.page = 0; draw(); }, 120); });
    count = el("span", "muted"); count.id = "count";
    add(c, [search, select("status-filter", "statuses", uniq(function (q) { return q.status; }), "status"), select("company-filter", "companies", uniq(function (q) { return q.company; }), "company"), select("review-filter", "review states", uniq(function (q) { return q._rv; }), "review"), count]);
    s.appendChild(c);
    var t = el("table"); t.id = "qtable";
    var head = el("tr");
    COLS.forEach(function (col) {
      var th = el("th", "sortable", col[1]); th.dataset.key = col[0];
      th.addEventListener("click", function () { state.dir = state.sort === col[0] ? -state.dir : 1; state.sort = col[0]; draw(); });
      head.appendChild(th);
    });
    t.appendChild(el("thead", null, head));
    tbody = el("tbody"); t.appendChild(tbody); s.appendChild(t);
    pager = el("div", "pager");
    var prev = el("button", null, "‹ previous"), next = el("button", null, "next ›");
    prev.id = "prev"; next.id = "next";
    prev.addEventListener("click", function () { if (state.page > 0) { state.page--; draw(); } });
    next.addEventListener("click", function () { state.page++; draw(); });
    add(pager, [prev, el("span", "where"), next]);
    s.appendChild(pager);
    return s;
  }
  function leftovers() {
    var s = el("section");
    if (D.other.length) { s.appendChild(rawList(D.other, "Records outside any question (" + D.other.length + ", shown raw)")); }
    if (D.unparsed.length) {
      s.appendChild(el("h3", null, "Lines that are not records (" + D.unparsed.length + ")"));
      D.unparsed.forEach(function (u) {
        s.appendChild(el("div", "badtxt", "line " + u.line + ", byte " + u.offset + ", " + u.bytes + " bytes" + (u.newline ? "" : ", no newline (torn)")));
        s.appendChild(el("pre", "raw", u.excerpt));
      });
    }
    s.id = "leftovers";
    return s;
  }
  var root = document.getElementById("app");
  root.textContent = "";
  var hdr = el("header", null, el("h1", null, "finqa audit review"));
  hdr.appendChild(banner());
  root.appendChild(hdr);
  var main = el("main");
  main.appendChild(runs());
  main.appendChild(table());
  main.appendChild(leftovers());
  root.appendChild(main);
  function ready() {
    draw();
    window.finqaReady = performance.now();
    window.finqaTimings = { script: T0, parsed: T1, ready: window.finqaReady };
    document.body.setAttribute("data-ready", "1");
  }
  // The lives block follows this script: the table is usable while it is still being read;
  // opening a question (and the print view, which opens all) waits until it has been read.
  if (PRINT) whenParsed(ready); else ready();
  whenParsed(function () { window.finqaParsed = performance.now(); });
})();
"""

CSS = _CSS + LEGS_CSS
JS = _JS.replace("/*LEGS*/", LEGS_JS)
