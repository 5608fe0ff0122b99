// The job page: status and progress, live scalar charts, histograms, sample predictions and
// the log, polled every second from the JSON API (incrementally, with ?after=). Workers write
// metrics at most a second apart, so a chart is at most two seconds behind the worker.
import { api } from "../datastore/api.js";
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";
import { statusLabel } from "../js/statuses.js";
import { COLORS, PLOT_CONFIG, appendSeries, axisOf, chartLayout, chartOf, thumbnail, traces } from "./scalars.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const base = `/api/jobs/${page.job}`;
const POLL_MS = 1000;
const state = {
  job: null, after: 0, logAfter: 0, predictionsAfter: 0, series: {}, hidden: new Set(),
  predictions: [], histogramTag: "", histogramEpochs: -1, lastEpoch: -1,
};
const $ = (id) => document.getElementById(id);

function duration(seconds) {
  if (seconds == null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return interpolate(gettext("%(seconds)ss"), { seconds: s }, true);
  if (s < 3600) return interpolate(gettext("%(minutes)sm %(seconds)ss"), { minutes: Math.floor(s / 60), seconds: s % 60 }, true);
  return interpolate(gettext("%(hours)sh %(minutes)sm"), { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60) }, true);
}

// The job's validation score; a version without validation images has none, and the job
// never puts its training-image numbers in its place.
function validationFact(job) {
  const [label, value] = {
    multi_label: [gettext("Val. mAP"), job.val_map],
    detection: [gettext("Val. mAP@[.5:.95]"), job.val_map],
  }[job.task] ?? [gettext("Val. accuracy"), job.val_accuracy];
  const images = page.validationImages;
  if (value != null && images != null) {
    const on = ngettext("on %(count)s validation image", "on %(count)s validation images", images);
    return [label, `${value.toFixed(4)} · ${interpolate(on, { count: images }, true)}`];
  }
  if (value != null) return [label, value.toFixed(4)];
  return [label, page.measuredSplit === "train" ? gettext("— (no validation images)") : "—"];
}

function showJob(job) {
  state.job = job;
  const badge = $("status");
  badge.textContent = statusLabel(job.status);
  badge.className = `status status-${job.status}`;
  $("progress").value = job.percent;
  const eta = job.status === "running" && job.eta_seconds != null
    ? ` · ${interpolate(gettext("ETA %(time)s"), { time: duration(job.eta_seconds) }, true)}` : "";
  const progress = { percent: job.percent, epoch: job.epoch, epochs: job.total_epochs, step: job.step, steps: job.total_steps || "?" };
  $("progress-text").textContent = interpolate(gettext("%(percent)s% · epoch %(epoch)s/%(epochs)s · step %(step)s/%(steps)s"), progress, true) + eta;
  const facts = [
    [gettext("Created"), job.created_at], [gettext("Started"), job.started_at], [gettext("Finished"), job.finished_at],
    [gettext("Worker"), job.worker || "—"], [gettext("Device"), job.device || "—"], [gettext("Batch size"), job.batch_size],
    [gettext("Attempt"), job.attempt],
    [gettext("Checkpoint"), job.checkpoint_epoch ? interpolate(gettext("after epoch %(epoch)s"), { epoch: job.checkpoint_epoch }, true) : "—"],
    validationFact(job),
  ];
  const shown = (v) => (v && String(v).includes("T") ? new Date(v).toLocaleString() : v ?? "—");
  replace($("facts"), facts.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, shown(v)))));
  const failed = Boolean(job.failure_reason);
  $("failure").hidden = !failed;
  if (failed) {
    $("failure-reason").textContent = job.failure_reason;
    $("failure-suggestion").textContent = job.failure_suggestion;
  }
  const finished = ["succeeded", "failed", "cancelled"].includes(job.status);
  if ($("cancel")) $("cancel").hidden = finished;
  if ($("resume")) $("resume").hidden = !job.resumable;
  $("report-link").hidden = job.status !== "succeeded";
  takeDownStaleFlashes(job.status, finished);
  if (document.body.dataset.jobStatus !== job.status) {
    document.body.dataset.jobStatus = job.status;
    // The export panel (deploy/exports.js) offers its form once the job has a model: it
    // succeeded, or was cancelled after an epoch and kept its last checkpoint.
    const hasModel = job.output_weights != null && ["succeeded", "cancelled"].includes(job.status);
    // A succeeded job is evaluated on its report page; a cancelled one, which has none, here.
    if ($("test-split")) $("test-split").hidden = !(hasModel && job.status === "cancelled");
    document.dispatchEvent(new CustomEvent("job-status", { detail: { job: job.id, status: job.status, hasModel } }));
  }
}

// "Job #N is queued" and "Cancel requested" describe a moment that has passed once the job
// has started or finished; the status badge says what is true now.
function takeDownStaleFlashes(status, finished) {
  const stale = [status !== "queued" && ".message.job-queued", finished && ".message.job-cancelling"].filter(Boolean);
  if (!stale.length) return;
  document.querySelectorAll(stale.join(", ")).forEach((message) => {
    const list = message.parentElement;
    message.remove();
    if (list && !list.children.length) list.remove();
  });
}

// --- scalars ------------------------------------------------------------------------------
function options() {
  const smoothing = Number($("smoothing").value);
  $("smoothing-value").textContent = smoothing.toFixed(2);
  const starts = Object.values(state.series).map((s) => s.wall[0]).filter((w) => w != null);
  return { smoothing, xmode: $("x-axis").value, logY: $("log-y").checked, start: Math.min(...starts) };
}

function ensureToggle(tag) {
  if (document.querySelector(`[data-toggle="${CSS.escape(tag)}"]`)) return;
  const toggle = el("input", { type: "checkbox", checked: true, "data-toggle": tag });
  toggle.addEventListener("change", (event) => {
    if (event.target.checked) state.hidden.delete(tag); else state.hidden.add(tag);
    drawScalars();
  });
  $("toggles").appendChild(el("label", {}, toggle, ` ${tag}`));
}

function chartElement(name) {
  const id = `chart-${name.replace(/[^a-z0-9]+/gi, "-")}`;
  let box = document.getElementById(id);
  if (!box) {
    box = el("div", { class: "chart-box", id, "data-chart": name });
    const png = el("button", { type: "button", class: "button secondary small png" }, "PNG");
    png.addEventListener("click", () => window.Plotly.downloadImage(id, { format: "png", filename: `job-${page.job}-${id}` }));
    $("scalar-charts").appendChild(el("div", {}, box, " ", png));
  }
  return box;
}

function drawScalars() {
  const opts = options();
  const groups = {};
  Object.keys(state.series).sort().forEach((tag, index) => {
    ensureToggle(tag);
    if (state.hidden.has(tag) || !state.series[tag].value.length) return;
    const chart = chartOf(tag);
    groups[chart] = groups[chart] ?? [];
    groups[chart].push(...traces(state.series[tag], { ...opts, name: tag, color: COLORS[index % COLORS.length], yaxis: axisOf(chart, tag) }));
  });
  for (const [name, data] of Object.entries(groups)) {
    const element = chartElement(name);
    const axes = [...new Set(data.map((trace) => trace.yaxis))];
    const layout = chartLayout(name, { ...opts, secondAxis: axes.length > 1 });
    // Only the val series on a chart: it goes back on the left axis, alone.
    if (axes.length === 1) data.forEach((trace) => { trace.yaxis = "y"; });
    for (const axis of new Set(data.map((trace) => trace.yaxis))) {
      const values = data.filter((trace) => trace.yaxis === axis).flatMap((trace) => trace.y).filter(Number.isFinite);
      const [low, high] = [Math.min(...values), Math.max(...values)];
      const key = axis === "y2" ? "yaxis2" : "yaxis";
      if (low === high && !opts.logY) layout[key].range = low ? [0, 2 * low] : [-1, 1]; // a flat line, e.g. a constant learning rate
    }
    window.Plotly.react(element, data, layout, PLOT_CONFIG);
    element.dataset.points = String(data.reduce((n, trace) => n + (trace.meta === "raw" ? trace.y.length : 0), 0));
  }
}

async function pollScalars() {
  const { data } = await api(`${base}/scalars/?after=${state.after}`);
  let grew = false;
  for (const [tag, series] of Object.entries(data.series)) {
    if (!series.value.length) continue;
    state.series[tag] = state.series[tag] ?? { step: [], wall: [], value: [] };
    appendSeries(state.series[tag], series);
    grew = true;
  }
  state.after = data.last_id;
  if (grew) drawScalars();
}

// --- histograms ---------------------------------------------------------------------------
async function pollHistograms(force = false) {
  const select = $("histogram-tag");
  const { data: listing } = await api(`${base}/records/?kind=histogram&tags_only=1`);
  if (select.options.length !== listing.tags.length) {
    const current = select.value;
    replace(select, listing.tags.map((t) => el("option", {}, t)));
    if (listing.tags.includes(current)) select.value = current;
  }
  const tag = select.value;
  if (!tag) return;
  if (tag !== state.histogramTag || force || state.job.epoch !== state.histogramEpochs) {
    state.histogramTag = tag;
    state.histogramEpochs = state.job.epoch;
    const { data } = await api(`${base}/records/?kind=histogram&tag=${encodeURIComponent(tag)}`);
    drawHistograms(data.records);
  }
}

function drawHistograms(records) {
  const offset = $("histogram-mode").value === "offset";
  const last = records.length - 1;
  const data = records.map((record, i) => {
    const { counts, edges } = record.data;
    const peak = Math.max(...counts, 1);
    const centers = counts.map((_, k) => (edges[k] + edges[k + 1]) / 2);
    const shade = Math.round(200 - (160 * i) / Math.max(last, 1));
    return {
      x: centers,
      y: counts.map((c) => (offset ? c / peak + i * 0.6 : c)),
      name: interpolate(gettext("epoch %(epoch)s"), { epoch: record.epoch + 1 }, true), type: "scatter", mode: "lines", line: { shape: "hvh", color: `rgb(15, ${shade}, 110)` },
      fill: offset ? "none" : "tozeroy", opacity: offset ? 1 : 0.35,
    };
  });
  window.Plotly.react("histogram-chart", data, {
    margin: { t: 20, r: 10, b: 40, l: 50 }, height: 320, showlegend: records.length < 12,
    yaxis: { title: { text: offset ? gettext("epoch (offset)") : gettext("count") }, showticklabels: !offset },
    xaxis: { title: { text: plotlyText(state.histogramTag) } },
  }, PLOT_CONFIG);
}

// --- sample predictions -------------------------------------------------------------------
async function pollPredictions() {
  const { data } = await api(`${base}/records/?kind=predictions&after=${state.predictionsAfter}`);
  if (!data.records.length) return;
  state.predictions.push(...data.records);
  state.predictionsAfter = data.last_id;
  const slider = $("epoch-slider");
  const atEnd = Number(slider.value) === Number(slider.max) || state.predictions.length === data.records.length;
  slider.max = String(state.predictions.length);
  if (atEnd) slider.value = slider.max;
  drawPredictions();
}

function drawPredictions() {
  const index = Number($("epoch-slider").value) - 1;
  const record = state.predictions[index];
  if (!record) return;
  $("epoch-value").textContent = `${record.epoch + 1}`;
  replace($("predictions"), record.data.samples.map((s) => thumbnail(s, page.classes)));
}

// --- log ----------------------------------------------------------------------------------
async function pollLog() {
  const { data } = await api(`${base}/logs/?after=${state.logAfter}`);
  const lines = data.results;
  if (!lines.length) return;
  const log = $("log");
  const nearBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
  log.append(...lines.map((l) => el("div", { class: l.level }, `${new Date(l.created_at).toLocaleTimeString()} ${l.message}`)));
  state.logAfter = lines[lines.length - 1].id;
  if (nearBottom) log.scrollTop = log.scrollHeight;
}

async function poll() {
  try {
    const { data: job } = await api(`${base}/`);
    showJob(job);
    await pollScalars();
    await pollLog();
    if (job.epoch !== state.lastEpoch || ["succeeded", "failed", "cancelled"].includes(job.status)) {
      state.lastEpoch = job.epoch;
      await pollPredictions();
      await pollHistograms();
    }
    if (["succeeded", "failed", "cancelled"].includes(job.status)) {
      document.body.dataset.chartsReady = "true";
      return; // nothing more will come
    }
    connection(true);
  } catch (error) {
    console.error(error);
    connection(false);
  }
  setTimeout(poll, state.failures ? Math.min(10_000, POLL_MS * 2 ** state.failures) : POLL_MS);
}

// A poll that fails says so on the page, and the page keeps trying, a little slower each time.
function connection(ok) {
  state.failures = ok ? 0 : (state.failures ?? 0) + 1;
  const note = $("poll-status");
  note.hidden = ok;
  note.textContent = ok ? "" : gettext("Connection lost, retrying…");
  document.body.dataset.connection = ok ? "ok" : "lost";
}

["smoothing", "x-axis", "log-y"].forEach((id) => $(id).addEventListener("input", drawScalars));
$("epoch-slider").addEventListener("input", drawPredictions);
$("histogram-tag").addEventListener("change", () => pollHistograms(true));
$("histogram-mode").addEventListener("change", () => pollHistograms(true));
poll();

// Cancelling throws away the run's remaining epochs: ask first (the last checkpoint stays).
// The page carries the job's name, so a click before the first poll answers names it too.
$("cancel")?.addEventListener("click", (event) => {
  const name = state.job?.name ?? page.jobName;
  const question = name
    ? interpolate(gettext("Cancel “%(name)s”? It stops at its next training step."), { name }, true)
    : gettext("Cancel this job? It stops at its next training step.");
  if (!window.confirm(question)) event.preventDefault();
});
