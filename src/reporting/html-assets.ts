/**
 * The HTML report's only style and script, inlined so the page opens from a CI artifact with no
 * network. Filtering works by classes on the page root and CSS rules, so hiding every passed row
 * of a 10,000-case report is one class change, not 10,000 style writes. Neither asset contains
 * run data: all of it is escaped page text (html-escape.ts).
 */

/** The page's stylesheet. */
export const HTML_STYLE = `
:root { --pass: #1a7f37; --fail: #cf222e; --untested: #9a6700; --blocked: #953800; --excluded: #6e7781; --xfail: #8250df; --err: #bc4c00; --skip: #57606a; --na: #8c959f; --ns: #afb8c1; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 16px 24px 48px; max-width: 1400px; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.verdict { padding: 10px 14px; border-radius: 6px; font-weight: 600; margin: 10px 0; }
.verdict.exit-0 { background: #dafbe1; } .verdict.exit-1 { background: #ffebe9; } .verdict.exit-2, .verdict.exit-3, .verdict.exit-130, .verdict.exit-143 { background: #fff1e5; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 12px; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid #eaeef2; }
th { background: #f6f8fa; font-weight: 600; }
table.meta { width: auto; } table.meta th { width: 11em; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: #f6f8fa; padding: 8px; border-radius: 4px; overflow: auto; max-height: 24em; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; color: #fff; font-size: 12px; font-weight: 600; white-space: nowrap; }
.st-passed { background: var(--pass); } .st-failed { background: var(--fail); } .st-untested { background: var(--untested); } .st-blocked { background: var(--blocked); }
.st-excluded { background: var(--excluded); } .st-expected-failure { background: var(--xfail); } .st-errored { background: var(--err); } .st-skipped { background: var(--skip); } .st-not-applicable { background: var(--na); } .st-not-selected { background: var(--ns); } .st-informative { background: var(--ns); color: #24292f; }
ul.statements { margin: 4px 0; padding-left: 18px; } li.stmt { margin: 2px 0; } tr.trace-total th { text-align: left; }
.filters { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 6px 0; padding: 6px 10px; background: #f6f8fa; border-radius: 6px; }
.filters label { cursor: pointer; user-select: none; }
.shown { color: #57606a; margin-left: auto; }
.reason { color: #57606a; }
.failure { border-left: 4px solid var(--fail); padding: 4px 12px; margin: 10px 0; }
.failure.expected { border-left-color: var(--xfail); }
ol.roots li.root { border-left: 4px solid var(--fail); padding: 4px 12px; margin: 8px 0; list-style-position: inside; }
ol.roots li.non-gating { border-left-color: var(--xfail); } ol.roots li.blocker { border-left-color: var(--blocked); }
.failure h4 { margin: 0; font-size: 14px; }
.chart text { font-size: 12px; fill: #1f2328; }
details > summary { cursor: pointer; }
#page.hide-req-passed tr.req.st-row-passed, #page.hide-req-failed tr.req.st-row-failed, #page.hide-req-untested tr.req.st-row-untested, #page.hide-req-blocked tr.req.st-row-blocked,
#page.hide-req-excluded tr.req.st-row-excluded, #page.hide-req-expected-failure tr.req.st-row-expected-failure, #page.hide-req-not-applicable tr.req.st-row-not-applicable, #page.hide-req-not-selected tr.req.st-row-not-selected,
#page.hide-case-passed tr.case.st-row-passed, #page.hide-case-failed tr.case.st-row-failed, #page.hide-case-errored tr.case.st-row-errored,
#page.hide-case-skipped tr.case.st-row-skipped { display: none; }
`;

/**
 * The page's script: each filter checkbox toggles a `hide-<kind>-<status>` class on #page, and
 * the "shown" counters add up the per-status counts written into the page (no row is visited).
 */
export const HTML_SCRIPT = `
(function () {
  var page = document.getElementById('page');
  function update(kind) {
    var boxes = document.querySelectorAll('input[data-filter="' + kind + '"]');
    var shown = 0, total = 0;
    for (var i = 0; i < boxes.length; i++) {
      var b = boxes[i], n = Number(b.getAttribute('data-count'));
      total += n;
      if (b.checked) shown += n;
      page.classList.toggle('hide-' + kind + '-' + b.value, !b.checked);
    }
    var out = document.getElementById('shown-' + kind);
    if (out) out.textContent = 'showing ' + shown + ' of ' + total;
  }
  var all = document.querySelectorAll('input[data-filter]');
  for (var i = 0; i < all.length; i++) {
    all[i].addEventListener('change', function (e) { update(e.target.getAttribute('data-filter')); });
  }
  update('req');
  update('case');
})();
`;
