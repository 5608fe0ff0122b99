// Comparing jobs: their curves overlaid, a sortable hyperparameter table, and a
// parallel-coordinates plot of hyperparameters against the outcome.
import { api } from "../datastore/api.js";
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext } from "../js/i18n.js";
import { statusWord } from "../js/statuses.js";
import { COLORS, PLOT_CONFIG, chartLayout, makeSortable, traces } from "./scalars.js";

const page = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
const TAGS = ["train/loss", "val/loss", "train/acc", "val/acc", "val/mAP", "val/micro_f1", "val/macro_f1"];
const COLUMNS = [
  [gettext("Job"), (r) => `#${r.id} ${r.name}`, (r) => r.id], [gettext("Status"), (r) => statusWord(r.status), (r) => r.status],
  [gettext("Model"), (r) => r.architecture], [gettext("Preset"), (r) => r.preset],
  [gettext("Epochs"), (r) => r.config.epochs], [gettext("Batch"), (r) => r.config.batch_size],
  [gettext("Learning rate"), (r) => r.config.learning_rate], [gettext("Optimizer"), (r) => r.config.optimizer],
  [gettext("Schedule"), (r) => r.config.schedule], [gettext("Weight decay"), (r) => r.config.weight_decay],
  [gettext("Val. accuracy"), (r) => (r.val_accuracy == null ? "" : r.val_accuracy.toFixed(4))],
  [gettext("Val. mAP"), (r) => (r.val_map == null ? "" : r.val_map.toFixed(4))],
  [gettext("Val. loss"), (r) => (r.val_loss == null ? "" : r.val_loss.toFixed(4))], [gettext("Seconds"), (r) => r.seconds ?? ""],
];
let rows = [];
const curves = {};

function drawTable() {
  const table = $("hyperparameters");
  replace(table.tHead, el("tr", {}, COLUMNS.map(([h]) => el("th", {}, h))));
  replace(table.tBodies[0], rows.map((r) => el("tr", {},
    COLUMNS.map(([, cell, value]) => el("td", { "data-value": value ? value(r) : cell(r) }, cell(r))))));
  makeSortable(table);
}

// Hyperparameters against the outcome: one band per job across an axis per hyperparameter,
// coloured by validation accuracy (mAP for a multi-label job). Parallel categories, not Plotly's parcoords: parcoords draws
// with WebGL through regl, which compiles its shaders with Function(), and the
// Content-Security-Policy runs no eval (parcoords then shows only "WebGL is not supported").
function drawParallel() {
  const score = (r) => r.val_accuracy ?? r.val_map;
  const finished = rows.filter((r) => score(r) != null);
  const use = finished.length ? finished : rows;
  const accuracy = (r) => (score(r) == null ? 0 : Number(score(r).toFixed(4)));
  const axis = (label, value) => {
    const values = use.map(value);
    const categories = [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { label, values, categoryarray: categories, ticktext: categories.map((c) => plotlyText(c)) };
  };
  window.Plotly.react("parallel", [{
    type: "parcats",
    line: { color: use.map(accuracy), colorscale: "Viridis", showscale: true, shape: "hspline" },
    hoveron: "color",
    hoverinfo: "count",
    arrangement: "freeform",
    dimensions: [
      axis(gettext("learning rate"), (r) => r.config.learning_rate),
      axis(gettext("batch size"), (r) => r.config.batch_size),
      axis(gettext("epochs"), (r) => r.config.epochs),
      axis(gettext("weight decay"), (r) => r.config.weight_decay),
      axis(gettext("optimizer"), (r) => r.config.optimizer),
      axis(use.some((r) => r.val_map != null) ? gettext("val. accuracy or mAP") : gettext("val. accuracy"), accuracy),
    ],
  }], { height: 360, margin: { t: 50, r: 40, b: 20, l: 60 } }, PLOT_CONFIG);
}

function drawCurves() {
  const smoothing = Number($("smoothing").value);
  $("smoothing-value").textContent = smoothing.toFixed(2);
  const opts = { smoothing, xmode: $("x-axis").value, logY: $("log-y").checked };
  const holder = $("compare-charts");
  for (const tag of TAGS) {
    const data = [];
    rows.forEach((row, index) => {
      const series = curves[row.id]?.[tag];
      if (series?.value.length) {
        data.push(...traces(series, { ...opts, start: series.wall[0], name: `#${row.id}`, group: `#${row.id}`, color: COLORS[index % COLORS.length] }));
      }
    });
    if (!data.length) continue;
    const id = `compare-${tag.replace("/", "-")}`;
    if (!document.getElementById(id)) holder.append(el("div", { class: "chart-box", id }));
    window.Plotly.react(id, data, chartLayout(tag, opts), PLOT_CONFIG);
  }
}

async function main() {
  if (!page.jobs.length) return;
  const { data } = await api(`/api/workspaces/${page.workspace}/jobs/compare/?ids=${page.jobs.join(",")}`);
  rows = data.jobs;
  drawTable();
  drawParallel();
  await Promise.all(rows.map(async (row) => {
    const { data: scalars } = await api(`/api/jobs/${row.id}/scalars/?tags=${TAGS.join(",")}`);
    curves[row.id] = scalars.series;
  }));
  drawCurves();
  ["smoothing", "x-axis", "log-y"].forEach((id) => $(id).addEventListener("input", drawCurves));
  document.body.dataset.compareReady = "true";
}

main();
