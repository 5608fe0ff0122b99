// The export panel: one click starts an export through the API, and the table follows every
// export until it finishes (progress, then size, parity, latency, accuracy and the download).
import { api as request } from "../datastore/api.js";

const panel = document.getElementById("export-panel");
const api = panel.dataset.api;
const body = document.querySelector("#exports tbody");
const errorBox = document.getElementById("export-error");
const form = document.getElementById("export-form");
const POLL_MS = 1000;

const fmtBytes = (n) => {
  if (n == null) return "";
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i += 1; }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
};
const pct = (x) => (x == null ? "—" : `${(100 * x).toFixed(1)}%`);

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function parityText(e) {
  const p = e.parity;
  if (!p) return "—";
  const diff = `max |Δ| ${p.max_abs_diff === 0 ? "0" : p.max_abs_diff.toExponential(1)}`;
  const agree = e.format.startsWith("int8") ? `, top-1 agrees ${pct(p.top1_agreement)}` : "";
  return `${p.passed ? "✓" : "✗"} ${diff}${agree} on ${p.samples} ${p.source}`;
}

function accuracyText(e) {
  const a = e.accuracy;
  if (!a) return "—";
  if (!e.format.startsWith("int8")) return pct(a.export);
  const change = (100 * a.change).toFixed(1);
  return `${pct(a.trained_model)} → ${pct(a.export)} (${change >= 0 ? "+" : ""}${change} pts)`;
}

function statusCell(row, e) {
  const td = row.insertCell();
  td.className = "export-status";
  const badge = document.createElement("span");
  badge.className = `badge status-${e.status}`;
  badge.textContent = e.status;
  td.append(badge);
  if (e.status === "running" || e.status === "queued") {
    const bar = document.createElement("progress");
    bar.max = 100;
    bar.value = e.progress;
    const stage = document.createElement("span");
    stage.className = "small muted";
    stage.textContent = ` ${e.stage || "Waiting for a worker"}`;
    td.append(" ", bar, stage);
  } else if (e.status === "failed") {
    const reason = document.createElement("div");
    reason.className = "small error";
    reason.textContent = e.error.split("\n")[0];
    td.append(reason);
  }
}

function render(exports) {
  body.replaceChildren();
  if (!exports.length) {
    const row = body.insertRow();
    row.className = "empty";
    const td = cell(row, "No exports yet.", "muted");
    td.colSpan = 8;
    return;
  }
  for (const e of exports) {
    const row = body.insertRow();
    row.dataset.export = e.id;
    row.dataset.status = e.status;
    row.dataset.format = e.format;
    cell(row, `v${e.version}`);
    cell(row, e.format_display);
    statusCell(row, e);
    cell(row, fmtBytes(e.size_bytes), "export-size");
    cell(row, parityText(e), `export-parity ${e.parity && !e.parity.passed ? "error" : ""}`);
    const lat = e.latency_ms;
    cell(row, lat ? `${lat.batch_1.toFixed(2)} / ${lat.batch_32.toFixed(1)} ms on ${e.device}` : "—",
      "export-latency");
    cell(row, accuracyText(e), "export-accuracy");
    const actions = row.insertCell();
    actions.className = "actions-cell";
    if (e.download_url) {
      const link = document.createElement("a");
      link.href = e.download_url;
      link.className = "button secondary small export-download";
      link.textContent = "Download";
      link.setAttribute("download", "");
      actions.append(link);
    }
  }
}

let timer = null;
async function refresh() {
  clearTimeout(timer);
  const { data: exports } = await request(api);
  render(exports);
  if (exports.some((e) => e.status === "queued" || e.status === "running")) {
    timer = setTimeout(refresh, POLL_MS);
  }
  panel.dataset.ready = "true";
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const format = form.elements.format.value;
  const given = form.elements.threshold.value;
  const threshold = given === "" ? null : Number(given);
  try {
    await request(api, { method: "POST", json: { format, threshold } });
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  }
  refresh();
});

refresh();
