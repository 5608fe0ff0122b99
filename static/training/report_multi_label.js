// The evaluation report of a multi-label job: precision-recall curves per class (each with the
// points of its own threshold and the job's), and example images with their predicted and
// true label sets, the most wrong first, for every class or one.
import { api } from "../datastore/api.js";
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";
import { COLORS, PLOT_CONFIG, makeSortable, thumbnail } from "./scalars.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const base = `/api/jobs/${page.job}`;
const names = page.classes;
const $ = (id) => document.getElementById(id);
const ALL = "all";
let report = null;

// The point of a (thinned) curve whose threshold is nearest `t`.
function nearest(curve, t) {
  let best = 0;
  curve.thresholds.forEach((v, i) => { if (Math.abs(v - t) < Math.abs(curve.thresholds[best] - t)) best = i; });
  return best;
}

function curveTraces(index, color) {
  const curve = report.pr_curves[index];
  if (!curve.recall.length) return [];
  const label = interpolate(gettext("%(name)s (AP %(ap)s)"), { name: names[index], ap: curve.ap.toFixed(3) }, true);
  const marks = [
    [report.class_thresholds[index], gettext("%(name)s, own threshold %(threshold)s"), "diamond"],
    [report.default_threshold, gettext("%(name)s, default threshold %(threshold)s"), "circle-open"],
  ];
  return [
    { x: curve.recall, y: curve.precision, type: "scatter", mode: "lines", line: { shape: "hv", color }, name: plotlyText(label), legendgroup: String(index) },
    ...marks.map(([t, mark, symbol]) => {
      const i = nearest(curve, t);
      return {
        x: [curve.recall[i]], y: [curve.precision[i]], type: "scatter", mode: "markers", legendgroup: String(index), showlegend: false,
        marker: { size: 10, symbol, color }, customdata: [plotlyText(interpolate(mark, { name: names[index], threshold: t.toFixed(2) }, true))],
        hovertemplate: gettext("%{customdata}: precision %{y:.3f}, recall %{x:.3f}<extra></extra>"),
      };
    }),
  ];
}

function drawCurves() {
  const chosen = $("pr-class").value;
  const classes = chosen === ALL ? names.map((_, i) => i) : [Number(chosen)];
  const data = classes.flatMap((i) => curveTraces(i, COLORS[i % COLORS.length]));
  const title = chosen === ALL
    ? gettext("Precision-recall, every class")
    : interpolate(gettext("Precision-recall, %(name)s"), { name: names[Number(chosen)] }, true);
  window.Plotly.react("pr-chart", data, {
    title: { text: plotlyText(title), font: { size: 14 } }, height: 420,
    margin: { t: 40, r: 10, b: 45, l: 50 }, xaxis: { title: { text: gettext("recall") }, range: [0, 1.02] },
    yaxis: { title: { text: gettext("precision") }, range: [0, 1.02] }, legend: { orientation: "h", y: -0.2 },
  }, PLOT_CONFIG);
  $("pr-chart").dataset.traces = String(data.length);
}

async function drawExamples() {
  const chosen = $("example-class").value;
  const filter = chosen === ALL ? "" : `&class=${chosen}`;
  const { data } = await api(`${base}/report/examples/?limit=48${filter}`);
  const shown = data.samples.length;
  const count = ngettext("%(shown)s of %(count)s image", "%(shown)s of %(count)s images", data.count);
  $("example-count").textContent = interpolate(count, { shown, count: data.count }, true);
  replace($("examples"), shown ? data.samples.map((s) => thumbnail(s, names, { relabel: true })) : el("p", { class: "muted" }, gettext("No images.")));
}

function classOptions() {
  return [el("option", { value: ALL }, gettext("Every class")), ...names.map((n, i) => el("option", { value: i }, n))];
}

async function main() {
  ({ data: report } = await api(`${base}/report/`));
  replace($("pr-class"), classOptions());
  replace($("example-class"), classOptions());
  drawCurves();
  $("pr-class").addEventListener("input", drawCurves);
  $("example-class").addEventListener("input", drawExamples);
  makeSortable($("per-class"));
  await drawExamples();
  document.body.dataset.reportReady = "true";
}

main();
