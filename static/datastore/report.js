// The report's charts, drawn from the statistics endpoint with the locally served Plotly.
import { el, plotlyText, replace } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
import { api, datasetId } from "./api.js";

const layout = (title, x, y) => ({
  title: { text: title, font: { size: 14 } },
  margin: { t: 40, r: 10, b: 50, l: 50 },
  xaxis: { title: { text: x } },
  yaxis: { title: { text: y } },
  height: 320,
});
const config = { displaylogo: false, responsive: true };
// The splits by the names people read; the API's keys are "train", "val", "test" and
// "unassigned".
const SPLITS = { train: gettext("train"), val: gettext("val"), test: gettext("test"), unassigned: gettext("unassigned") };

function totals(stats) {
  const t = stats.totals;
  const splits = Object.entries(stats.splits).map(([k, v]) => `${SPLITS[k] ?? k} ${v}`).join(", ");
  const figure = (value, what) => el("div", {}, el("strong", {}, value), el("span", {}, what));
  replace(document.getElementById("totals"),
    figure(t.samples, gettext("images")), figure(t.labeled, gettext("labeled")),
    figure(t.with_problems, gettext("with problems")), figure(stats.classes.length, gettext("classes")),
    el("div", {}, el("span", { class: "muted small" }, splits || gettext("no splits"))));
}

async function draw() {
  const { data: stats } = await api(`/api/datasets/${datasetId()}/statistics/`);
  totals(stats);
  const detection = document.getElementById("chart-boxes") !== null;
  const names = stats.classes.map((c) => c.name);
  const histogram = layout(gettext("Class histogram"), gettext("class"), detection ? gettext("boxes") : gettext("images"));
  histogram.xaxis = { ...histogram.xaxis, type: "category", tickvals: names, ticktext: names.map(plotlyText) };
  window.Plotly.newPlot("chart-classes", [{
    type: "bar",
    x: names,
    y: stats.classes.map((c) => (detection ? c.annotation_count : c.image_count)),
    customdata: names.map(plotlyText),
    hovertemplate: "(%{customdata}, %{y})<extra></extra>",
    marker: { color: stats.classes.map((c) => c.color) },
  }], histogram, config);
  const biggest = Math.max(1, ...stats.sizes.map((s) => s.count));
  window.Plotly.newPlot("chart-sizes", [{
    type: "scatter",
    mode: "markers",
    x: stats.sizes.map((s) => s.width),
    y: stats.sizes.map((s) => s.height),
    text: stats.sizes.map((s) => interpolate(gettext("%(width)s×%(height)s: %(count)s images"), s, true)),
    hoverinfo: "text",
    marker: { size: stats.sizes.map((s) => 6 + 24 * Math.sqrt(s.count / biggest)), opacity: 0.6, color: "#0f766e" },
  }], layout(gettext("Image sizes"), gettext("width (px)"), gettext("height (px)")), config);
  if (detection) {
    const counts = Object.entries(stats.boxes_per_image).map(([boxes, images]) => [Number(boxes), images]);
    window.Plotly.newPlot("chart-boxes", [{
      type: "bar",
      x: counts.map(([boxes]) => boxes),
      y: counts.map(([, images]) => images),
      marker: { color: "#4363d8" },
    }], layout(gettext("Boxes per image"), gettext("boxes"), gettext("images")), config);
  }
  document.body.dataset.chartsReady = "true";
}

draw();
