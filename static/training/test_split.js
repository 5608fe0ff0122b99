// The report page's test-split section: starts an evaluation of the finished model on the
// version's test split, follows its progress, and shows its scores (the report's shape:
// accuracy, top-5 where it means something, per-class scores and the confusion matrix; for a
// multi-label job mAP and F1 at the thresholds the report chose, applied as they are; for a
// detector COCO mAP, per-class AP and the class mix-ups at its report's thresholds).
import { api } from "../datastore/api.js";
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
import { PLOT_CONFIG } from "./scalars.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const base = `/api/jobs/${page.job}/evaluations/`;
const classes = page.classes;
const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);
const fixed = (v, digits = 4) => (v == null ? "—" : Number(v).toFixed(digits));
const ACTIVE = new Set(["queued", "running"]);

function showProgress(evaluation) {
  $("test-progress").hidden = false;
  $("test-progress-bar").value = evaluation.progress;
  const stage = evaluation.status === "queued" ? gettext("Queued") : evaluation.stage || gettext("Running");
  $("test-stage").textContent = `${stage} · ${evaluation.progress}%`;
}

function showFailure(evaluation) {
  $("test-failure").hidden = false;
  $("test-error").textContent = evaluation.error;
  $("test-fix").textContent = evaluation.error_fix;
}

function score(label, value, id) {
  return el("div", {}, el("span", { class: "muted small" }, label), el("strong", { id }, value));
}

function scores(result) {
  if (result.task === "detection") {
    return [
      score(gettext("mAP@[.5:.95] (test)"), fixed(result.mean_average_precision), "test-map"),
      score(gettext("mAP@.5 (test)"), fixed(result.map_50), "test-map50"),
      score(gettext("Images"), String(result.sample_count), "test-count"),
    ];
  }
  if (result.task === "multi_label") {
    const t = fixed(result.default_threshold, 2);
    return [
      score(gettext("mAP (test)"), fixed(result.mean_average_precision), "test-map"),
      score(interpolate(gettext("Micro F1 @ %(threshold)s"), { threshold: t }, true), fixed(result.micro_f1), "test-micro-f1"),
      score(interpolate(gettext("Macro F1 @ %(threshold)s"), { threshold: t }, true), fixed(result.macro_f1), "test-macro-f1"),
      score(gettext("Micro F1, report's thresholds"), fixed(result.tuned_micro_f1), "test-tuned-micro-f1"),
      score(gettext("Macro F1, report's thresholds"), fixed(result.tuned_macro_f1), "test-tuned-macro-f1"),
    ];
  }
  return [
    score(gettext("Accuracy (test)"), fixed(result.accuracy), "test-accuracy"),
    result.top5_accuracy != null && score(gettext("Top-5 accuracy (test)"), fixed(result.top5_accuracy), "test-top5"),
    score(gettext("Images"), String(result.sample_count), "test-count"),
  ];
}

const ap = (v) => (v == null ? "—" : fixed(v, 3));
// Per task: the per-class table's columns and one class's cells.
const [CLASS, PRECISION, RECALL, SUPPORT, THRESHOLD] = [gettext("Class"), gettext("Precision"), gettext("Recall"), gettext("Support"), gettext("Threshold")];
const PER_CLASS = {
  classification: [[CLASS, PRECISION, RECALL, "F1", SUPPORT], (c) => [c.name, fixed(c.precision, 3), fixed(c.recall, 3), fixed(c.f1, 3), c.support]],
  multi_label: [[CLASS, "AP", SUPPORT, THRESHOLD, PRECISION, RECALL, "F1"], (c) => [c.name, ap(c.ap), c.support, fixed(c.threshold, 3), fixed(c.precision, 3), fixed(c.recall, 3), fixed(c.f1, 3)]],
  detection: [[CLASS, gettext("True boxes"), "AP@[.5:.95]", "AP@.5", THRESHOLD, PRECISION, RECALL, "F1"], (c) => [c.name, c.support, ap(c.ap), ap(c.ap50), fixed(c.threshold, 3), fixed(c.precision, 3), fixed(c.recall, 3), fixed(c.f1, 3)]],
};

function perClassTable(result) {
  const [head, row] = PER_CLASS[result.task] ?? PER_CLASS.classification;
  const table = $("test-per-class");
  replace(table.tHead, el("tr", {}, head.map((h) => el("th", {}, h))));
  replace(table.tBodies[0], result.per_class.map((c) => el("tr", {}, row(c).map((v) => el("td", {}, String(v))))));
}

// Detection mix-ups have a background row and column (boxes on nothing, objects missed).
function drawConfusion(z, detection) {
  const box = $("test-confusion");
  box.hidden = false;
  const names = detection ? [...classes, gettext("background")] : classes;
  const ticks = { tickvals: names, ticktext: names.map(plotlyText) };
  const cell = gettext("true %(true)s, predicted %(predicted)s: %(count)s");
  const text = z.map((r, i) => r.map((v, j) => plotlyText(interpolate(cell, { true: names[i], predicted: names[j], count: v }, true))));
  const peak = Math.max(...z.flat(), 1);
  window.Plotly.newPlot(box, [{
    type: "heatmap", z, x: names, y: names, text, hoverinfo: "text", colorscale: [[0, "#f1f5f9"], [1, "#0f766e"]], xgap: 1, ygap: 1,
  }], {
    title: { text: detection ? gettext("Class mix-ups, test split") : gettext("Confusion matrix, test split"), font: { size: 14 } }, margin: { t: 40, r: 10, b: 60, l: 70 }, height: 420,
    xaxis: { title: { text: gettext("predicted") }, type: "category", ...ticks },
    yaxis: { title: { text: gettext("true") }, type: "category", autorange: "reversed", ...ticks },
    annotations: z.flatMap((r, i) => r.map((v, j) => ({ x: names[j], y: names[i], text: String(v), showarrow: false, font: { size: 11, color: v > peak / 3 ? "#fff" : "#1f2937" } }))),
  }, PLOT_CONFIG);
}

function showResult(result) {
  $("test-result").hidden = false;
  const when = result.finished_at ? `, ${new Date(result.finished_at).toLocaleString()}` : "";
  const omitted = result.top5_omitted ? ` ${result.top5_omitted}` : "";
  const summary = gettext("On the %(count)s images of the test split (evaluation #%(id)s%(when)s).");
  $("test-summary").textContent = interpolate(summary, { count: result.sample_count, id: result.id, when }, true) + omitted;
  replace($("test-scores"), scores(result));
  perClassTable(result);
  if (result.task !== "multi_label") drawConfusion(result.confusion, result.task === "detection");
}

async function follow(evaluation) {
  let current = evaluation;
  $("test-failure").hidden = true;
  if ($("run-test")) $("run-test").disabled = ACTIVE.has(current.status);
  while (ACTIVE.has(current.status)) {
    showProgress(current);
    document.body.dataset.testSplit = current.status;
    await new Promise((done) => { setTimeout(done, POLL_MS); });
    ({ data: current } = await api(current.url));
  }
  $("test-progress").hidden = true;
  if ($("run-test")) {
    $("run-test").disabled = false;
    $("run-test").textContent = gettext("Evaluate on the test split again");
  }
  if (current.status === "failed") showFailure(current);
  if (current.status === "succeeded") {
    const { data: full } = await api(current.url);
    showResult(full);
  }
  document.body.dataset.testSplit = current.status;
}

async function start() {
  try {
    const { data } = await api(base, { method: "POST", json: { split: "test" } });
    await follow(data);
  } catch (error) {
    showFailure({ error: error.message, error_fix: "" });
  }
}

async function main() {
  if (page.testImages) {
    if ($("run-test")) $("run-test").addEventListener("click", start);
    const { data: evaluations } = await api(base);
    const latest = evaluations.results.find((e) => e.split === "test");
    document.body.dataset.testSplitReady = "true";
    if (latest) await follow(latest);
    return;
  }
  document.body.dataset.testSplitReady = "true";
}

main();
