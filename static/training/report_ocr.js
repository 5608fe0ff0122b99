// The report of a text-recognition job: the worst-read lines, each with its crop, its true
// text (what the fine-tuned reading missed underlined), what the starting and the fine-tuned
// weights read (the characters that differ from the truth marked), and a link to the line on
// the text labeling page. Data never becomes markup: every string goes in as text through
// dom.js.
import { api } from "../datastore/api.js";
import { el, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);

// Which characters of `read` are not part of a longest common subsequence with `truth`
// (what an edit would change), as [[text, differs], ...] runs.
export function markDifferences(read, truth) {
  const a = [...read];
  const b = [...truth];
  const lengths = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const runs = [];
  const push = (c, differs) => {
    const last = runs[runs.length - 1];
    if (last && last[1] === differs) last[0] += c;
    else runs.push([c, differs]);
  };
  let i = 0;
  let j = 0;
  while (i < a.length) {
    if (j < b.length && a[i] === b[j]) { push(a[i], false); i += 1; j += 1; }
    else if (j < b.length && lengths[i][j + 1] > lengths[i + 1][j]) j += 1;
    else { push(a[i], true); i += 1; }
  }
  return runs;
}

function marked(read, truth) {
  if (!read) return el("span", { class: "muted" }, gettext("(nothing)"));
  return el("span", { class: "ocr-text" }, markDifferences(read, truth).map(([text, differs]) => (differs ? el("mark", { class: "diff" }, text) : text)));
}

// The truth with the characters the fine-tuned reading lacks or replaced underlined: a
// dropped character leaves nothing to mark in the reading itself.
function missed(truth, read) {
  return el("span", { class: "ocr-text" }, markDifferences(truth, read).map(([text, differs]) => (differs ? el("mark", { class: "missed" }, text) : text)));
}

function row(line) {
  const link = page.datasetId ? `/datasets/${page.datasetId}/label/?sample=${line.sample}&line=${line.line}` : null;
  const title = gettext("Correct this line on the text labeling page");
  return el("tr", { "data-sample": String(line.sample), "data-line": String(line.line) },
    el("td", {}, el("a", { href: link, class: "relabel", title }, el("img", { src: line.crop, alt: line.text, class: "ocr-crop" }))),
    el("td", { class: "truth" }, missed(line.text, line.read)),
    el("td", { class: "before" }, marked(line.before, line.text)),
    el("td", { class: "read" }, marked(line.read, line.text)),
    el("td", { class: "distance" }, String(line.distance)));
}

async function main() {
  const { data: report } = await api(`/api/jobs/${page.job}/report/`);
  const rows = report.predictions;
  $("worst-count").textContent = rows.length
    ? interpolate(ngettext("%(count)s line read wrong is shown.", "%(count)s lines read wrong are shown, the worst first.", rows.length), { count: rows.length }, true)
    : gettext("The fine-tuned model reads every validation line right.");
  replace($("worst-lines").tBodies[0], rows.map(row));
  document.body.dataset.reportReady = "true";
}

main();
