// A deployment's page: try an image (drop, paste or choose), see the top classes as a bar chart
// or the boxes on the image (or, multi-label, the set of classes over their thresholds), pick a
// confidence threshold, overall and per class (with what it means on the evaluation images),
// and save it, switch the served export, and watch the traffic. An OCR deployment shows the
// text lines it reads instead (tryit_ocr.js).
import { api } from "../datastore/api.js";
import { colourOf, drawDetections } from "../js/boxes.js";
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";
import { drawLines, linesSummary, NO_LINES } from "./tryit_ocr.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
const slider = $("threshold");
const canvas = $("canvas");
const chartBox = $("chart-classes");
const ACCEPTED = "#0f766e";
const BELOW = "#cbd5e1";
const MULTI = page.task === "multi_label";
const DETECTION = page.task === "detection";
const OCR = page.task === "ocr"; // one class, "text": the threshold is the lines' minimum score
// Multi-label and detection: until a threshold is saved or the slider moves, each class uses
// the package's.
const PER_CLASS = page.per_class_defaults;
let sliderChosen = page.threshold != null;

let last = null; // { image: HTMLImageElement, prediction }

function threshold() {
  return Number(slider.value);
}

// The per-class inputs: a class with a value uses it instead of the slider's threshold.
const classInputs = new Map();

// A multi-label class with no threshold uses 0.5; a detector's keeps every box it answers.
function packageThreshold(name) {
  const own = page.package_thresholds.per_class?.[name];
  if (own != null) return own;
  return page.package_thresholds.score ?? (MULTI ? 0.5 : 0);
}

// As the server decides: the class's own, else the deployment's, else (multi-label,
// detection) the package's for the class.
function thresholdOf(name) {
  const input = classInputs.get(name);
  if (input && input.value !== "") return Number(input.value);
  return PER_CLASS && !sliderChosen ? packageThreshold(name) : threshold();
}

// Multi-label: the classes of the answer that reach their thresholds, best first.
function labelSet(prediction) {
  return prediction.classes.filter((c) => c.score >= thresholdOf(c.name));
}

function classThresholds() {
  const chosen = {};
  for (const [name, input] of classInputs) {
    if (input.value !== "") chosen[name] = Number(input.value);
  }
  return chosen;
}

function say(text, isError = false) {
  const line = $("deploy-status");
  line.textContent = text;
  line.classList.toggle("error", isError);
}

// --- trying an image ------------------------------------------------------------------------
async function tryImage(blob) {
  const body = new FormData();
  body.append("image", blob, blob.name || "pasted.png");
  body.append("top_k", "20"); // every class up to 20: the slider then works without a refetch
  body.append("threshold", "0");
  clearResult(); // a refused file must not leave the last image's answer on show
  $("answer").textContent = gettext("Predicting…");
  const [image, answer] = await Promise.all([loadImage(blob).catch(() => null), predict(body)]);
  if (!answer) return;
  if (!image) {
    refuse(gettext("The server answered, but this browser cannot show the image."));
    return;
  }
  last = { image, prediction: answer.predictions[0], model: answer.model };
  draw();
  traffic();
}

async function predict(body) {
  try {
    const { data } = await api(page.predict_url, { method: "POST", body });
    return data;
  } catch (error) {
    refuse(error.message);
    return null;
  }
}

// No image, no boxes, no chart: what is shown belongs to the file just chosen.
function clearResult() {
  last = null;
  $("preview").hidden = true;
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
  if ($("detected-boxes")) replace($("detected-boxes"));
  if ($("text-lines")) replace($("text-lines"));
  if (chartBox && window.Plotly) window.Plotly.purge(chartBox);
  document.body.dataset.chartReady = "";
  document.body.dataset.boxesDrawn = "";
  document.body.dataset.linesDrawn = "";
  document.body.dataset.refused = "";
}

function refuse(message) {
  clearResult();
  $("answer").textContent = message;
  $("answer").classList.add("error");
  document.body.dataset.refused = "true";
}

function loadImage(blob) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(gettext("The browser cannot show this image.")));
    image.src = URL.createObjectURL(blob);
  });
}

function draw() {
  if (!last) return;
  const { image, prediction } = last;
  $("preview").hidden = false;
  if (OCR) {
    const shown = drawLines(canvas, image, prediction.lines, threshold(), $("text-lines"));
    $("answer").classList.remove("error");
    $("answer").textContent = prediction.lines.length
      ? linesSummary(prediction.lines, threshold(), last.model.version) : NO_LINES;
    document.body.dataset.linesDrawn = String(shown);
    return;
  }
  if (DETECTION) {
    drawBoxes(image, prediction.boxes);
    describe(prediction);
    return;
  }
  const scale = Math.min(1, 360 / Math.max(image.width, image.height));
  const smallest = image.width < 64 ? 6 : 1; // tiny digits: draw them big and crisp
  canvas.width = image.width * Math.max(scale, smallest);
  canvas.height = image.height * Math.max(scale, smallest);
  const ctx = canvas.getContext("2d");
  ctx.imageSmoothingEnabled = smallest === 1;
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  drawClasses(prediction.classes, MULTI ? gettext("Score of every class (its threshold: |)") : gettext("Top classes"));
  describe(prediction);
}

// The answer's boxes that reach their class's threshold, on the image and as a list.
function drawBoxes(image, boxes) {
  const shown = boxes.filter((b) => b.score >= thresholdOf(b.name));
  const percent = (b) => `${(100 * b.score).toFixed(0)}%`;
  drawDetections(canvas, image, shown.map((b) => ({
    box: b.box, colour: colourOf(b.index), label: `${b.name} ${percent(b)}`,
  })), { maxSide: 480 });
  replace($("detected-boxes"), shown.map((b) => el("li", { class: "detected-box", "data-class": b.name },
    el("span", { class: "swatch", style: { "--swatch": colourOf(b.index) } }),
    el("span", { class: "class-name" }, b.name),
    el("span", { class: "probability" }, percent(b)),
    el("span", { class: "muted small" }, interpolate(gettext("at %(box)s"), { box: b.box.map((v) => Math.round(v)).join(", ") }, true)))));
  explainClasses();
  document.body.dataset.boxesDrawn = String(shown.length);
}

function drawClasses(classes, title = gettext("Top classes")) {
  const top = classes.slice(0, page.top_k > 10 ? page.top_k : 10).reverse();
  const names = top.map((c) => c.name);
  const trace = {
    type: "bar",
    orientation: "h",
    x: top.map((c) => c.score),
    y: names,
    text: top.map((c) => `${(100 * c.score).toFixed(1)}%`),
    textposition: "outside",
    marker: { color: top.map((c) => (c.score >= thresholdOf(c.name) ? ACCEPTED : BELOW)) },
    customdata: names.map(plotlyText),
    hovertemplate: "%{customdata}: %{x:.4f}<extra></extra>",
  };
  const layout = {
    title: { text: title, font: { size: 14 } },
    margin: { l: 90, r: 40, t: 36, b: 36 },
    height: 60 + 26 * Math.max(top.length, 3),
    xaxis: { range: [0, 1.08], title: gettext("probability") },
    // The names are the categories; what is drawn is their text, not Plotly's markup.
    yaxis: { type: "category", automargin: true, tickvals: names, ticktext: names.map(plotlyText) },
    shapes: MULTI ? [] : [{ type: "line", x0: threshold(), x1: threshold(), yref: "paper", y0: 0, y1: 1,
      line: { dash: "dash", color: "#b91c1c", width: 1.5 } }],
  };
  // Multi-label classes may each have their own threshold: a tick on each bar shows it.
  const ticks = MULTI && {
    type: "scatter", mode: "markers", x: top.map((c) => thresholdOf(c.name)), y: names, hoverinfo: "skip",
    marker: { symbol: "line-ns-open", size: 14, color: "#b91c1c", line: { width: 2 } },
  };
  layout.showlegend = false;
  window.Plotly.react(chartBox, ticks ? [trace, ticks] : [trace], layout, { displayModeBar: false, responsive: true });
  document.body.dataset.chartReady = "true";
}

function describe(prediction) {
  const answer = $("answer");
  answer.classList.remove("error");
  if (DETECTION) {
    const kept = prediction.boxes.filter((b) => b.score >= thresholdOf(b.name)).length;
    const reached = gettext("%(kept)s of %(count)s boxes reach their class's threshold (model v%(version)s)");
    answer.textContent = interpolate(reached, { kept, count: prediction.boxes.length, version: last.model.version }, true);
    return;
  }
  if (MULTI) {
    const labels = labelSet(prediction);
    const percent = (c) => `${c.name} ${(100 * c.score).toFixed(1)}%`;
    const best = prediction.classes[0];
    const version = last.model.version;
    answer.textContent = labels.length
      ? interpolate(gettext("Labels: %(labels)s (model v%(version)s)"), { labels: labels.map(percent).join(", "), version }, true)
      : interpolate(gettext("No label: no class reaches its threshold (the best, %(best)s, needs %(threshold)s) (model v%(version)s)"),
        { best: percent(best), threshold: thresholdOf(best.name).toFixed(2), version }, true);
    answer.dataset.labels = JSON.stringify(labels.map((c) => c.name));
    return;
  }
  const best = prediction.classes[0];
  const t = thresholdOf(best.name);
  const answered = { name: best.name, score: (100 * best.score).toFixed(1), threshold: t.toFixed(2), version: last.model.version };
  answer.textContent = interpolate(best.score >= t
    ? gettext("%(name)s — %(score)s% (model v%(version)s)")
    : gettext("No label: the best guess, %(name)s at %(score)s%, is below %(threshold)s (model v%(version)s)"), answered, true);
  answer.dataset.label = best.score >= t ? best.name : "";
}

// --- the threshold ---------------------------------------------------------------------------
function explain() {
  const t = threshold();
  $("threshold-value").textContent = t.toFixed(2);
  if (PER_CLASS) {
    $("explorer").textContent = sliderChosen
      ? interpolate(gettext("Every class without its own threshold is predicted from %(threshold)s."), { threshold: t.toFixed(2) }, true)
      : gettext("Each class uses the package's threshold for it; move the slider to use one for all.");
    return;
  }
  const points = page.report_points;
  if (!points.length) {
    $("explorer").textContent = "";
    return;
  }
  const kept = points.filter(([conf]) => conf >= t);
  const right = kept.filter(([, correct]) => correct).length;
  const share = (100 * kept.length) / points.length;
  const facts = { count: points.length, share: share.toFixed(1), correct: kept.length ? ((100 * right) / kept.length).toFixed(1) : "" };
  $("explorer").textContent = interpolate(kept.length
    ? gettext("On the %(count)s evaluation images: %(share)s% would be accepted, %(correct)s% of them correct.")
    : gettext("On the %(count)s evaluation images: %(share)s% would be accepted."), facts, true);
}

function buildClassRows() {
  const rows = $("class-threshold-rows");
  if (!rows) return; // OCR: no classes to set apart
  const editable = page.can_edit;
  rows.replaceChildren(...page.class_names.map((name) => {
    const input = el("input", {
      type: "number", min: "0", max: "1", step: "0.01", placeholder: "—", "data-class-name": name,
      "aria-label": interpolate(gettext("Threshold for %(name)s"), { name }, true), disabled: !editable, value: page.class_thresholds[name],
    });
    if (PER_CLASS) input.placeholder = packageThreshold(name).toFixed(2);
    input.addEventListener("input", () => { explainClasses(); draw(); });
    classInputs.set(name, input);
    return el("tr", {}, el("td", {}, name), el("td", {}, input), el("td", { class: "small" }));
  }));
}

// Multi-label: a class's precision and recall on the evaluation images at a threshold (the
// nearest point of its precision-recall curve).
function curveAt(index, t) {
  const curve = page.report_curves[index];
  if (!curve || !curve.thresholds.length) return "";
  let best = 0;
  curve.thresholds.forEach((v, i) => { if (Math.abs(v - t) < Math.abs(curve.thresholds[best] - t)) best = i; });
  return `P ${curve.precision[best].toFixed(2)} · R ${curve.recall[best].toFixed(2)}`;
}

function explainClasses() {
  if (OCR) return;
  if (DETECTION) { // per class: its boxes in the image tried that reach its threshold
    const boxes = last ? last.prediction.boxes : [];
    page.class_names.forEach((name) => {
      const mine = boxes.filter((b) => b.name === name);
      const kept = mine.filter((b) => b.score >= thresholdOf(name)).length;
      classInputs.get(name).closest("tr").lastChild.textContent = last ? `${kept}/${mine.length}` : "";
    });
    return;
  }
  if (MULTI) {
    page.class_names.forEach((name, index) => {
      classInputs.get(name).closest("tr").lastChild.textContent = curveAt(index, thresholdOf(name));
    });
    return;
  }
  // Per class: of the evaluation images predicted as this class, how many its threshold keeps.
  const points = page.report_points;
  page.class_names.forEach((name, index) => {
    const cell = classInputs.get(name).closest("tr").lastChild;
    const mine = points.filter((p) => p[2] === index);
    if (!mine.length) { cell.textContent = ""; return; }
    const kept = mine.filter(([conf]) => conf >= thresholdOf(name));
    const right = kept.filter(([, correct]) => correct).length;
    cell.textContent = `${kept.length}/${mine.length}` +
      (kept.length ? ` · ${interpolate(gettext("%(percent)s% right"), { percent: ((100 * right) / kept.length).toFixed(0) }, true)}` : "");
  });
}

async function saveClassThresholds() {
  const chosen = classThresholds();
  const bad = Object.entries(chosen).find(([, v]) => !(v >= 0 && v <= 1));
  if (bad) { say(interpolate(gettext("The threshold of %(name)s must be from 0 to 1."), { name: bad[0] }, true), true); return; }
  try {
    const { data } = await api(page.detail_url, { method: "PATCH", json: { class_thresholds: chosen } });
    page.class_thresholds = data.class_thresholds;
    const names = Object.keys(data.class_thresholds);
    const own = ngettext("Saved: %(count)s class has its own threshold (%(names)s).", "Saved: %(count)s classes have their own threshold (%(names)s).", names.length);
    say(names.length
      ? interpolate(own, { count: names.length, names: names.join(", ") }, true)
      : gettext("Saved: every class uses the threshold above."));
  } catch (error) {
    say(error.message, true);
  }
}

async function saveThreshold(value) {
  try {
    const { data } = await api(page.detail_url, { method: "PATCH", json: { threshold: value } });
    const none = PER_CLASS ? gettext("the package's, per class") : gettext("none");
    $("saved-threshold").textContent = data.threshold == null ? none : data.threshold.toFixed(2);
    if (PER_CLASS) {
      sliderChosen = data.threshold != null;
      explain(); explainClasses(); draw();
    }
    say(data.threshold == null
      ? (PER_CLASS ? gettext("Saved: each class uses the package's threshold.") : gettext("Saved: the endpoint accepts every prediction."))
      : interpolate(gettext("Saved: the endpoint now answers with threshold %(threshold)s."), { threshold: data.threshold.toFixed(2) }, true));
  } catch (error) {
    say(error.message, true);
  }
}

async function switchExport() {
  const exportId = Number($("switch-export").value);
  say(gettext("Switching…"));
  try {
    const { data } = await api(page.detail_url, { method: "PATCH", json: { export: exportId } });
    const e = data.export_detail;
    $("serving").textContent = `${e.name} · v${e.version}`;
    say(interpolate(gettext("Now serving v%(version)s; requests already running finish on the previous model."), { version: e.version }, true));
  } catch (error) {
    say(error.message, true);
  }
}

// --- traffic ---------------------------------------------------------------------------------
async function traffic() {
  try {
    const { data } = await api(`${page.traffic_url}?minutes=60`);
    const t = data.totals;
    const ms = (v) => (v == null ? "—" : `${v.toFixed(1)} ms`);
    const facts = [[gettext("Requests (1 h)"), t.requests], [gettext("Images"), t.images], [gettext("Errors"), t.errors],
      ["p50", ms(t.p50_ms)], ["p95", ms(t.p95_ms)], ["p99", ms(t.p99_ms)]];
    replace($("traffic-totals"), facts.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, v))));
    const x = data.series.map((s) => s.minute);
    const traces = [
      { type: "bar", name: gettext("requests"), x, y: data.series.map((s) => s.requests), marker: { color: "#99f6e4" } },
      { type: "scatter", name: "p50 ms", x, y: data.series.map((s) => s.p50_ms), yaxis: "y2", line: { color: ACCEPTED } },
      { type: "scatter", name: "p95 ms", x, y: data.series.map((s) => s.p95_ms), yaxis: "y2", line: { color: "#b45309" } },
    ];
    // The last hour on the axis, whatever minutes had requests (one minute alone would
    // otherwise stretch to sub-second ticks). Minutes are UTC, and so is this range.
    const end = Date.now() + 60_000;
    const hour = [new Date(end - 3_600_000).toISOString(), new Date(end).toISOString()];
    window.Plotly.react($("chart-traffic"), traces, {
      height: 220, margin: { l: 40, r: 50, t: 10, b: 30 }, legend: { orientation: "h" },
      // A time label near the right edge would run under the ms axis's "0": hide it there.
      xaxis: { type: "date", range: hour, tickformat: "%H:%M", ticklabeloverflow: "hide past domain" },
      yaxis: { title: gettext("requests / min"), rangemode: "tozero" },
      yaxis2: { title: "ms", overlaying: "y", side: "right", rangemode: "tozero" },
    }, { displayModeBar: false, responsive: true });
    document.body.dataset.trafficReady = "true";
  } catch (error) {
    $("traffic-totals").textContent = error.message;
  }
}

// --- wiring ----------------------------------------------------------------------------------
const zone = $("dropzone");
zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
zone.addEventListener("dragleave", () => zone.classList.remove("over"));
zone.addEventListener("drop", (event) => {
  event.preventDefault();
  zone.classList.remove("over");
  const file = event.dataTransfer.files[0];
  if (file) tryImage(file);
});
document.addEventListener("paste", (event) => {
  const item = [...event.clipboardData.items].find((i) => i.type.startsWith("image/"));
  if (item) tryImage(item.getAsFile());
});
$("file").addEventListener("change", (event) => {
  if (event.target.files[0]) tryImage(event.target.files[0]);
});
slider.addEventListener("input", () => { sliderChosen = true; explain(); explainClasses(); draw(); });
$("save-threshold")?.addEventListener("click", () => saveThreshold(threshold()));
$("clear-threshold")?.addEventListener("click", () => saveThreshold(null));
$("save-class-thresholds")?.addEventListener("click", saveClassThresholds);
$("switch")?.addEventListener("click", switchExport);

if (page.suggested_threshold != null && !Number.isNaN(Number(page.suggested_threshold))) {
  slider.value = page.suggested_threshold; // from the evaluation report's threshold explorer
  sliderChosen = true;
}
buildClassRows();
explain();
explainClasses();
traffic();
setInterval(traffic, 5000);
