// The evaluation report: confusion-matrix heatmap (click a cell to see its images), the most
// confident mistakes, and a threshold explorer over the saved predictions and PR curves.
import { api } from "../datastore/api.js";
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";
import { PLOT_CONFIG, makeSortable, thumbnail } from "./scalars.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const base = `/api/jobs/${page.job}`;
const names = page.classes;
const $ = (id) => document.getElementById(id);
let report = null;

function drawConfusion() {
  const z = report.confusion;
  const totals = z.map((row) => row.reduce((a, b) => a + b, 0));
  const cell = gettext("true %(true)s, predicted %(predicted)s: %(count)s (%(percent)s% of the class)");
  const text = z.map((row, i) => row.map((v, j) => plotlyText(interpolate(cell, {
    true: names[i], predicted: names[j], count: v, percent: totals[i] ? ((100 * v) / totals[i]).toFixed(1) : 0,
  }, true))));
  // The class names are the axes' categories (a click reads them back); what is drawn is text.
  const ticks = { tickvals: names, ticktext: names.map(plotlyText) };
  window.Plotly.newPlot("confusion", [{
    type: "heatmap", z, x: names, y: names, text, hoverinfo: "text", colorscale: [[0, "#f1f5f9"], [1, "#0f766e"]],
    xgap: 1, ygap: 1,
  }], {
    margin: { t: 10, r: 10, b: 60, l: 70 }, height: 460,
    xaxis: { title: { text: gettext("predicted") }, type: "category", ...ticks },
    yaxis: { title: { text: gettext("true") }, type: "category", autorange: "reversed", ...ticks },
    annotations: z.flatMap((row, i) => row.map((v, j) => ({ x: names[j], y: names[i], text: String(v), showarrow: false, font: { size: 11, color: v > Math.max(...totals) / 3 ? "#fff" : "#1f2937" } }))),
  }, PLOT_CONFIG);
  $("confusion").on("plotly_click", (event) => {
    const point = event.points[0];
    showCell(names.indexOf(String(point.y)), names.indexOf(String(point.x)));
  });
}

async function showCell(trueClass, predClass) {
  const { data } = await api(`${base}/report/cell/?true=${trueClass}&pred=${predClass}&limit=120`);
  $("cell-panel").hidden = false;
  const title = ngettext("True %(true)s, predicted %(predicted)s: %(count)s image", "True %(true)s, predicted %(predicted)s: %(count)s images", data.count);
  $("cell-title").textContent = interpolate(title, { true: names[trueClass], predicted: names[predClass], count: data.count }, true);
  replace($("cell-samples"), thumbnails(data.samples, gettext("No images in this cell.")));
  document.body.dataset.cell = `${trueClass},${predClass}`;
}

async function drawMistakes() {
  const { data } = await api(`${base}/report/cell/?limit=24`);
  replace($("mistakes"), thumbnails(data.samples, gettext("No mistakes.")));
}

function thumbnails(samples, empty) {
  if (!samples.length) return el("p", { class: "muted" }, empty);
  return samples.map((s) => thumbnail(s, names, { relabel: true }));
}

// --- threshold explorer -------------------------------------------------------------------
function atThreshold(t) {
  const kept = report.predictions.filter((p) => p.conf >= t);
  const right = kept.filter((p) => p.pred === p.true).length;
  return { coverage: kept.length / report.predictions.length, accuracy: kept.length ? right / kept.length : null, kept: kept.length };
}

function drawCoverage() {
  const grid = Array.from({ length: 101 }, (_, i) => i / 100);
  const points = grid.map(atThreshold);
  window.Plotly.react("coverage-chart", [
    { x: grid, y: points.map((p) => p.coverage), name: gettext("coverage (share answered)"), type: "scatter", mode: "lines" },
    { x: grid, y: points.map((p) => p.accuracy), name: gettext("accuracy of those answered"), type: "scatter", mode: "lines" },
  ], {
    title: { text: gettext("Answer only above a confidence threshold"), font: { size: 14 } }, height: 320,
    margin: { t: 40, r: 10, b: 45, l: 50 }, xaxis: { title: { text: gettext("threshold") } }, yaxis: { range: [0, 1.02] },
    legend: { orientation: "h", y: -0.25 },
    shapes: [{ type: "line", x0: Number($("threshold").value), x1: Number($("threshold").value), y0: 0, y1: 1, line: { dash: "dot", color: "#6b7280" } }],
  }, PLOT_CONFIG);
}

function drawPr() {
  const c = Number($("pr-class").value);
  const curve = report.pr_curves[c];
  const t = Number($("threshold").value);
  let nearest = 0;
  curve.thresholds.forEach((v, i) => { if (Math.abs(v - t) < Math.abs(curve.thresholds[nearest] - t)) nearest = i; });
  window.Plotly.react("pr-chart", [
    { x: curve.recall, y: curve.precision, type: "scatter", mode: "lines", line: { shape: "hv" }, name: plotlyText(interpolate(gettext("%(name)s (AP %(ap)s)"), { name: names[c], ap: curve.ap.toFixed(3) }, true)) },
    { x: [curve.recall[nearest]], y: [curve.precision[nearest]], type: "scatter", mode: "markers", marker: { size: 11 },
      name: interpolate(gettext("threshold %(threshold)s"), { threshold: curve.thresholds[nearest].toFixed(2) }, true) },
  ], {
    title: { text: plotlyText(interpolate(gettext("Precision-recall, %(name)s vs. the rest"), { name: names[c] }, true)), font: { size: 14 } }, height: 320,
    margin: { t: 40, r: 10, b: 45, l: 50 }, xaxis: { title: { text: gettext("recall") }, range: [0, 1.02] },
    yaxis: { title: { text: gettext("precision") }, range: [0, 1.02] }, legend: { orientation: "h", y: -0.25 },
  }, PLOT_CONFIG);
  return { precision: curve.precision[nearest], recall: curve.recall[nearest] };
}

function drawThreshold() {
  const t = Number($("threshold").value);
  $("threshold-value").textContent = t.toFixed(2);
  const at = atThreshold(t);
  const pr = drawPr();
  drawCoverage();
  const name = names[Number($("pr-class").value)];
  const facts = [
    [gettext("Answered"), `${at.kept} (${(100 * at.coverage).toFixed(1)}%)`],
    [gettext("Accuracy when answered"), at.accuracy == null ? "—" : `${(100 * at.accuracy).toFixed(1)}%`],
    [interpolate(gettext("Precision, %(name)s"), { name }, true), pr.precision.toFixed(3)],
    [interpolate(gettext("Recall, %(name)s"), { name }, true), pr.recall.toFixed(3)],
  ];
  replace($("threshold-facts"), facts.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, v))));
}

async function main() {
  ({ data: report } = await api(`${base}/report/`));
  drawConfusion();
  replace($("pr-class"), names.map((n, i) => el("option", { value: i }, n)));
  drawThreshold();
  ["threshold", "pr-class"].forEach((id) => $(id).addEventListener("input", drawThreshold));
  makeSortable($("per-class"));
  await drawMistakes();
  document.body.dataset.reportReady = "true";
}

main();
