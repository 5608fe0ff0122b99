// Shared by the job and comparison pages: smoothing, x axes and Plotly traces for scalar series.
import { colourOf, drawDetections, loadImage } from "../js/boxes.js";
import { el, plotlyText } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";

export const COLORS = ["#0f766e", "#e6194b", "#4363d8", "#f58231", "#911eb4", "#3cb44b", "#f032e6", "#9a6324"];
export const PLOT_CONFIG = { displaylogo: false, responsive: true };

// TensorBoard's smoothing: an exponential moving average, debiased at the start.
export function smooth(values, weight) {
  if (weight <= 0) return values.slice();
  const out = new Array(values.length);
  let last = 0;
  let debias = 0;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (!Number.isFinite(v)) { out[i] = v; continue; }
    last = last * weight + (1 - weight) * v;
    debias = debias * weight + (1 - weight);
    out[i] = last / debias;
  }
  return out;
}

// x values for a series: the step, seconds since the run began, or the wall-clock time.
export function xValues(series, mode, start) {
  if (mode === "relative") return series.wall.map((w) => w - start);
  if (mode === "wall") return series.wall.map((w) => new Date(w * 1000));
  return series.step;
}

export function xTitle(mode) {
  return { step: gettext("step"), relative: gettext("seconds since start"), wall: gettext("time") }[mode];
}

// Series that are schedules or readings, not noisy estimates: smoothing would only blur them.
const UNSMOOTHED = new Set(["lr", "memory_mb", "epoch_time"]);

// Fewer points than this (a per-epoch series of a short job) are drawn as they are: a moving
// average over a handful of epochs ends far from the last real value.
const SMOOTH_MIN_POINTS = 12;

// The raw curve, faint, behind the smoothed one, and the last raw value, marked and written.
export function traces(series, { name, color, smoothing, xmode, start, group, yaxis = "y" }) {
  const x = xValues(series, xmode, start);
  const n = series.value.length;
  if (UNSMOOTHED.has(name.split("/").pop()) || n < SMOOTH_MIN_POINTS) smoothing = 0;
  const raw = {
    x, y: series.value, name: plotlyText(interpolate(gettext("%(name)s (raw)"), { name }, true)), type: "scatter", mode: "lines",
    line: { color, width: 1 }, opacity: 0.25, showlegend: false, legendgroup: group ?? name, hoverinfo: "skip", meta: "raw",
  };
  const smoothed = {
    x, y: smooth(series.value, smoothing), name: plotlyText(name), type: "scatter", mode: n < 3 ? "lines+markers" : "lines",
    line: { color, width: 2 }, legendgroup: group ?? name,
  };
  const value = series.value[n - 1];
  const last = {
    x: [x[n - 1]], y: [value], type: "scatter", mode: "markers+text", text: [Number.isFinite(value) ? Number(value.toPrecision(4)).toString() : String(value)],
    textposition: "top left", textfont: { color, size: 11 }, marker: { color, size: 6 }, showlegend: false,
    legendgroup: group ?? name, customdata: [plotlyText(name)], hovertemplate: gettext("%{customdata} (last): %{y}<extra></extra>"), meta: "last",
  };
  return [raw, smoothed, last].map((trace) => ({ ...trace, yaxis }));
}

// The validation loss has its own y axis, on the right, beside the training loss: one bad
// validation epoch (a spike to 10× the training loss) would otherwise flatten the training
// curve into a line along the bottom of a shared axis.
export function axisOf(chart, tag) {
  return chart === "loss" && tag.startsWith("val/") ? "y2" : "y";
}

// A chart's title as people read it: chartOf's names are also the charts' ids and data-chart.
function chartTitle(chart) {
  const titles = {
    loss: gettext("loss"), "loss parts": gettext("loss parts"), accuracy: gettext("accuracy"),
    "learning rate": gettext("learning rate"), "device memory (MiB)": gettext("device memory (MiB)"),
    "epoch time (s)": gettext("epoch time (s)"), "throughput (images/s)": gettext("throughput (images/s)"),
    det_scores: gettext("text detection (IoU 0.5)"),
  };
  return titles[chart] ?? chart;
}

export function chartLayout(title, { xmode, logY, secondAxis = false }) {
  const layout = {
    title: { text: plotlyText(chartTitle(title)), font: { size: 14 } },
    margin: { t: 40, r: 10, b: 45, l: 55 },
    height: 300,
    xaxis: { title: { text: xTitle(xmode) }, type: xmode === "wall" ? "date" : "linear" },
    yaxis: { type: logY ? "log" : "linear" },
    legend: { orientation: "h", y: -0.25 },
  };
  if (secondAxis) {
    layout.margin.r = 55;
    layout.yaxis.title = { text: gettext("train") };
    layout.yaxis2 = { type: layout.yaxis.type, overlaying: "y", side: "right", showgrid: false, title: { text: gettext("val") } };
  }
  return layout;
}

// Which chart a tag is drawn in: train/loss, val/loss and train/eval_loss (the evaluation of
// the training images, for a version without validation images) share "loss"; a detector's
// loss parts (loss_vfl, loss_dfl, ...) share "loss parts", and its mAP and mAP50 share "mAP".
export function chartOf(tag) {
  const metric = tag.split("/").pop().replace(/^eval_/, "");
  if (metric.startsWith("loss_")) return "loss parts";
  // An OCR job's detector: its precision, recall and hmean share one chart.
  if (/^det_(precision|recall|hmean)$/.test(metric)) return "det_scores";
  return { det_throughput: "throughput (images/s)", mAP50: "mAP", acc: "accuracy", micro_f1: "F1", macro_f1: "F1", lr: "learning rate", memory_mb: "device memory (MiB)", epoch_time: "epoch time (s)", throughput: "throughput (images/s)" }[metric] ?? metric;
}

export function appendSeries(target, incoming) {
  target.step.push(...incoming.step);
  target.wall.push(...incoming.wall);
  target.value.push(...incoming.value);
}

// Clicking a header sorts the table by that column (numbers as numbers).
export function makeSortable(table) {
  table.querySelectorAll("thead th").forEach((th, column) => {
    th.addEventListener("click", () => {
      const ascending = th.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach((other) => other.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      const body = table.tBodies[0];
      const rows = [...body.rows];
      const key = (row) => {
        const text = row.cells[column]?.dataset.value ?? row.cells[column]?.textContent.trim() ?? "";
        const number = Number(text.replace(/[#%,]/g, ""));
        return text !== "" && !Number.isNaN(number) ? number : text.toLowerCase();
      };
      rows.sort((a, b) => {
        const [ka, kb] = [key(a), key(b)];
        const order = ka < kb ? -1 : ka > kb ? 1 : 0;
        return ascending ? order : -order;
      });
      rows.forEach((row) => body.appendChild(row));
    });
  });
}

const sampleName = (sample) => interpolate(gettext("sample %(id)s"), { id: sample.sample }, true);

// One sample's tile: the image, the predicted and the true class (or, multi-label, the two
// label sets), and a relabel link.
export function thumbnail(sample, names, { relabel = false } = {}) {
  if (Array.isArray(sample.found)) return boxesThumbnail(sample, names);
  if (Array.isArray(sample.true)) return labelSetThumbnail(sample, names, { relabel });
  const right = sample.pred === sample.true;
  const link = relabel && sample.relabel && [el("br"), el("a", { href: sample.relabel, class: "relabel" }, gettext("Relabel"))];
  return el("figure", { class: `thumb ${right ? "right" : "wrong"}`, "data-sample": sample.sample },
    el("img", { src: `/api/samples/${sample.sample}/thumbnail/`, alt: sampleName(sample) }),
    el("figcaption", {}, `${names[sample.pred]} (${(sample.conf * 100).toFixed(0)}%)`, el("br"),
      el("span", { class: "muted" }, interpolate(gettext("true: %(name)s"), { name: names[sample.true] }, true)), link));
}

// Multi-label: the predicted classes (right ones green, extra ones red, with their scores)
// over the true ones (missed ones struck through). Scores come as the report's [[class, p]]
// or as the epoch samples' `conf`, one per predicted class.
function labelSetThumbnail(sample, names, { relabel }) {
  const truth = new Set(sample.true);
  const predicted = new Set(sample.pred);
  const score = new Map(sample.scores ?? sample.pred.map((k, i) => [k, sample.conf?.[i]]));
  const right = truth.size === predicted.size && [...truth].every((k) => predicted.has(k));
  const percent = (k) => (score.get(k) == null ? "" : ` ${(100 * score.get(k)).toFixed(0)}%`);
  const chosen = sample.pred.map((k) => el("span", { class: `label-chip ${truth.has(k) ? "hit" : "extra"}` }, `${names[k]}${percent(k)}`));
  const actual = sample.true.map((k) => el("span", { class: `label-chip ${predicted.has(k) ? "hit" : "missed"}` }, names[k]));
  const link = relabel && sample.relabel && [el("br"), el("a", { href: sample.relabel, class: "relabel" }, gettext("Relabel"))];
  return el("figure", { class: `thumb ${right ? "right" : "wrong"}`, "data-sample": sample.sample },
    el("img", { src: `/api/samples/${sample.sample}/thumbnail/`, alt: sampleName(sample) }),
    el("figcaption", {},
      el("span", { class: "muted" }, gettext("predicted: ")), chosen.length ? chosen : el("span", { class: "muted" }, gettext("none")), el("br"),
      el("span", { class: "muted" }, gettext("true: ")), actual, link));
}

// Detection: the thumbnail with its true boxes (dashed) and the boxes found over the score a
// tile shows (`BOX_SCORE`), drawn on a canvas once the thumbnail has loaded. Rows as the
// report's: truth [[class, x1, y1, x2, y2]], found [[class, score, x1, y1, x2, y2, truth]].
const BOX_SCORE = 0.5;

function boxesThumbnail(sample, names) {
  const found = sample.found.filter((f) => f[1] >= BOX_SCORE);
  const canvas = el("canvas", { "aria-label": sampleName(sample) });
  const wrong = found.some((f) => f[6] < 0) || new Set(found.map((f) => f[6])).size < sample.truth.length;
  loadImage(`/api/samples/${sample.sample}/thumbnail/`).then((image) => {
    const scale = image.naturalWidth / sample.size[0];
    const shrink = (box) => box.map((v) => v * scale);
    drawDetections(canvas, image, [
      ...sample.truth.map((t) => ({ box: shrink(t.slice(1)), colour: colourOf(t[0]), dashed: true })),
      ...found.map((f) => ({ box: shrink(f.slice(2, 6)), colour: f[6] < 0 ? "#dc2626" : colourOf(f[0]), label: `${names[f[0]]} ${(100 * f[1]).toFixed(0)}%` })),
    ], { maxSide: 200, lineWidth: 1.5 });
  }).catch(() => {});
  return el("figure", { class: `thumb detection-thumb ${wrong ? "wrong" : "right"}`, "data-sample": sample.sample, "data-boxes": String(found.length) },
    canvas, el("figcaption", {}, interpolate(gettext("%(found)s found, %(true)s true"), { found: found.length, true: sample.truth.length }, true)));
}
