// The report of a detection job: the score-threshold explorer (precision, recall and F1 per
// class from the IoU-0.5 precision-recall curves, at each class's own threshold or one for
// all), the curves, the class mix-ups, and a gallery of false positives and misses drawn on
// canvases over the thumbnails, each linking to the box labeling page. Data never becomes
// markup: text goes through dom.js, Plotly text through plotlyText, canvas text via fillText.
import { api } from "../datastore/api.js";
import { colourOf, drawDetections, loadImage } from "../js/boxes.js";
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
import { PLOT_CONFIG, makeSortable } from "./scalars.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const names = page.classes;
const $ = (id) => document.getElementById(id);
const GALLERY = 24;
const FALSE = "#dc2626";
let report = null;
let drawing = 0;

function thresholds() {
  if ($("own-thresholds").checked) return report.class_thresholds;
  return names.map(() => Number($("threshold").value));
}

// Precision and recall keeping the boxes that score at least `t` (the curve is by descending
// score: the last point at or above t).
function at(curve, t) {
  let last = -1;
  curve.thresholds.forEach((score, i) => { if (score >= t) last = i; });
  if (last < 0) return { precision: 0, recall: 0 };
  return { precision: curve.precision[last], recall: curve.recall[last], index: last };
}

const f1 = ({ precision: p, recall: r }) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

function drawExplorer() {
  const t = thresholds();
  $("threshold").disabled = $("own-thresholds").checked;
  $("threshold-value").textContent = Number($("threshold").value).toFixed(2);
  const rows = report.pr_curves.map((curve, k) => {
    const point = at(curve, t[k]);
    return el("tr", { "data-class": String(k) }, el("td", {}, names[k]), el("td", {}, t[k].toFixed(3)),
      el("td", { class: "precision" }, point.precision.toFixed(3)), el("td", { class: "recall" }, point.recall.toFixed(3)),
      el("td", { class: "f1" }, f1(point).toFixed(3)));
  });
  replace($("explorer").tBodies[0], rows);
  const traces = report.pr_curves.flatMap((curve, k) => {
    const point = at(curve, t[k]);
    const ap = curve.ap == null ? "—" : curve.ap.toFixed(3);
    return [
      { x: curve.recall, y: curve.precision, type: "scatter", mode: "lines", line: { color: colourOf(k) }, name: plotlyText(interpolate(gettext("%(name)s (AP@.5 %(ap)s)"), { name: names[k], ap }, true)) },
      { x: point.index == null ? [] : [point.recall], y: point.index == null ? [] : [point.precision], type: "scatter", mode: "markers", marker: { size: 10, color: colourOf(k) }, showlegend: false, hoverinfo: "skip" },
    ];
  });
  window.Plotly.react("pr-chart", traces, {
    title: { text: gettext("Precision-recall at IoU 0.5, per class"), font: { size: 14 } }, height: 360,
    margin: { t: 40, r: 10, b: 45, l: 50 }, xaxis: { title: { text: gettext("recall") }, range: [0, 1.02] },
    yaxis: { title: { text: gettext("precision") }, range: [0, 1.02] }, legend: { orientation: "h", y: -0.2 },
  }, PLOT_CONFIG);
}

function drawConfusion() {
  const labels = [...names, gettext("background")];
  const z = report.confusion;
  const cell = gettext("true %(true)s, predicted %(predicted)s: %(count)s");
  const text = z.map((row, i) => row.map((v, j) => plotlyText(interpolate(cell, { true: labels[i], predicted: labels[j], count: v }, true))));
  const ticks = { tickvals: labels, ticktext: labels.map(plotlyText) };
  const top = Math.max(1, ...z.flat());
  window.Plotly.newPlot("confusion", [{
    type: "heatmap", z, x: labels, y: labels, text, hoverinfo: "text", colorscale: [[0, "#f1f5f9"], [1, "#0f766e"]], xgap: 1, ygap: 1,
  }], {
    margin: { t: 10, r: 10, b: 80, l: 90 }, height: 420,
    xaxis: { title: { text: gettext("predicted") }, type: "category", ...ticks },
    yaxis: { title: { text: gettext("true") }, type: "category", autorange: "reversed", ...ticks },
    annotations: z.flatMap((row, i) => row.map((v, j) => ({ x: labels[j], y: labels[i], text: String(v), showarrow: false, font: { size: 11, color: v > top / 2 ? "#fff" : "#1f2937" } }))),
  }, PLOT_CONFIG);
}

// A gallery row at thresholds `t`: found boxes kept, those matching nothing (false positives),
// and true boxes no kept box matched (misses). `found` rows: [class, score, x1, y1, x2, y2, truth].
function judged(row, t) {
  const kept = row.found.filter((f) => f[1] >= t[f[0]]);
  const hit = new Set(kept.filter((f) => f[6] >= 0).map((f) => f[6]));
  const missed = row.truth.map((_, j) => j).filter((j) => !hit.has(j));
  return { kept, missed, errors: kept.filter((f) => f[6] < 0).length + missed.length };
}

async function drawCard(row, verdict, figure) {
  const image = await loadImage(`/api/samples/${row.sample}/thumbnail/`);
  const scale = image.naturalWidth / row.size[0];
  const shrink = (box) => box.map((v) => v * scale);
  const missed = new Set(verdict.missed);
  const boxes = [
    ...row.truth.map((t, j) => ({ box: shrink(t.slice(1)), colour: missed.has(j) ? FALSE : colourOf(t[0]), dashed: true, label: missed.has(j) ? interpolate(gettext("missed %(name)s"), { name: names[t[0]] }, true) : "" })),
    ...verdict.kept.map((f) => ({ box: shrink(f.slice(2, 6)), colour: f[6] < 0 ? FALSE : colourOf(f[0]), label: `${f[6] < 0 ? "✗ " : ""}${names[f[0]]} ${(100 * f[1]).toFixed(0)}%` })),
  ];
  drawDetections(figure.querySelector("canvas"), image, boxes, { maxSide: 220, lineWidth: 1.5 });
}

async function drawGallery() {
  const mine = ++drawing;
  const t = thresholds();
  const rows = report.predictions.map((row) => ({ row, verdict: judged(row, t) }))
    .filter((r) => r.verdict.errors > 0).sort((a, b) => b.verdict.errors - a.verdict.errors);
  const count = gettext("%(count)s of %(total)s images have a false positive or a miss.");
  $("gallery-count").textContent = interpolate(count, { count: rows.length, total: report.predictions.length }, true);
  const cards = rows.slice(0, GALLERY).map(({ row, verdict }) => {
    const link = page.datasetId ? `/datasets/${page.datasetId}/label/?sample=${row.sample}` : null;
    const figure = el("figure", { class: "thumb wrong detection-thumb", "data-sample": String(row.sample), "data-errors": String(verdict.errors), "data-found": String(verdict.kept.length) },
      el("a", { href: link, class: "relabel", title: gettext("Fix the boxes of this image") }, el("canvas", {})),
      el("figcaption", {}, interpolate(gettext("%(false)s false, %(missed)s missed"),
        { false: verdict.kept.filter((f) => f[6] < 0).length, missed: verdict.missed.length }, true)));
    return figure;
  });
  replace($("gallery"), cards.length ? cards : el("p", { class: "muted" }, gettext("No false positives or misses at these thresholds.")));
  await Promise.all(rows.slice(0, GALLERY).map(({ row, verdict }, i) => drawCard(row, verdict, cards[i]).catch(() => {})));
  if (mine === drawing) document.body.dataset.galleryReady = "true";
}

function redraw() {
  drawExplorer();
  drawGallery();
}

async function main() {
  ({ data: report } = await api(`/api/jobs/${page.job}/report/`));
  makeSortable($("per-class"));
  drawConfusion();
  redraw();
  $("own-thresholds").addEventListener("change", redraw);
  $("threshold").addEventListener("input", redraw);
  document.body.dataset.reportReady = "true";
}

main();
