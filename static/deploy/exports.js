// The export panel: one click starts an export through the API, and the table follows every
// export until it finishes (progress, then size, parity, latency, accuracy and the download).
import { api as request } from "../datastore/api.js";
import { confirmDelete } from "../js/confirm_delete.js";
import { el, replace } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
import { statusLabel } from "../js/statuses.js";

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

const sci = (x) => (x === 0 ? "0" : x.toExponential(1));

// The verdict says what it judged and the bound it held it to: a float export's largest
// output difference (relative to the outputs' scale), an INT8 export's agreement on the
// answers (top-1 class, label set or boxes), since its raw outputs move by design.
function parityText(e) {
  const p = e.parity;
  if (!p) return "—";
  const rule = p.rule ?? { measure: "max_abs_diff", at_most: 1e-3 };
  const diff = interpolate(gettext("max |Δ| %(diff)s"), { diff: sci(p.max_abs_diff) }, true);
  const share = { top1_agreement: p.top1_agreement, label_set_agreement: e.details?.label_set_agreement, box_agreement: p.top1_agreement }[rule.measure];
  const judged = {
    max_abs_diff: () => interpolate(gettext("%(diff)s (tolerance %(bound)s × output scale)"), { diff, bound: sci(rule.at_most) }, true),
    top1_agreement: () => interpolate(gettext("top-1 agrees %(share)s (needs ≥ %(bound)s)"), { share: pct(share), bound: pct(rule.at_least) }, true),
    label_set_agreement: () => interpolate(gettext("label sets agree %(share)s (needs ≥ %(bound)s)"), { share: pct(share), bound: pct(rule.at_least) }, true),
    box_agreement: () => interpolate(gettext("boxes agree %(share)s (needs ≥ %(bound)s)"), { share: pct(share), bound: pct(rule.at_least) }, true),
  }[rule.measure]();
  const aside = rule.measure === "max_abs_diff" ? [] : [" · ", unbroken(diff)];
  const on = interpolate(gettext("on %(count)s %(source)s"), { count: p.samples, source: p.source_display || p.source }, true);
  const verdict = p.passed == null ? "" : `${p.passed ? "✓" : "✗"} `;
  return [verdict, ...keepTogether(judged, diff), ` ${on}`, ...aside];
}

// "max |Δ| 2.0e-6" is one token: a narrow column must not break it at its spaces.
const unbroken = (text) => el("span", { class: "nowrap" }, text);

function keepTogether(text, token) {
  const at = text.indexOf(token);
  if (at < 0) return [text];
  return [text.slice(0, at), unbroken(token), text.slice(at + token.length)];
}

// Every accuracy says how many images it counts.
function accuracyText(e) {
  const a = e.accuracy;
  if (!a) return "—";
  const on = a.samples ? ` ${interpolate(gettext("on %(count)s images"), { count: a.samples }, true)}` : "";
  if (!e.format.startsWith("int8")) return `${pct(a.export)}${on}`;
  const change = (100 * a.change).toFixed(1);
  const points = interpolate(gettext("%(change)s pts"), { change: `${change >= 0 ? "+" : ""}${change}` }, true);
  return `${pct(a.trained_model)} → ${pct(a.export)} (${points})${on}`;
}

function statusCell(e) {
  const badge = el("span", { class: `badge status-${e.status}` }, statusLabel(e.status));
  let detail = null;
  if (e.status === "running" || e.status === "queued") {
    detail = [" ", el("progress", { max: 100, value: e.progress ?? 0 }),
      el("span", { class: "small muted" }, ` ${e.stage || gettext("Waiting for a worker")}`)];
  } else if (e.status === "failed") {
    detail = el("div", { class: "small error" }, e.error.split("\n")[0]);
  }
  return el("td", { class: "export-status" }, badge, detail);
}

// An INT8 export is bought for speed, so one slower than the float32 package beside it says
// why instead of leaving the numbers to contradict the name.
function slowerNote(e, fastestFloat) {
  const mine = e.latency_ms?.batch_1;
  if (!e.format.startsWith("int8") || mine == null || !fastestFloat || mine <= fastestFloat.ms) return null;
  const text = interpolate(gettext("Slower on this device than the float32 export “%(format)s” (%(ms)s ms per image): each INT8 layer quantizes its input and dequantizes its output, which here costs more than the integer arithmetic saves. The INT8 file is smaller; where speed matters, deploy the float32 one."),
    { format: fastestFloat.name, ms: fastestFloat.ms.toFixed(2) }, true);
  return el("div", { class: "small muted int8-slower" }, text);
}

function fastestFloatOn(exports, device) {
  const floats = exports.filter((f) => !f.format.startsWith("int8") && f.status === "succeeded"
    && f.device === device && f.latency_ms?.batch_1 != null);
  if (!floats.length) return null;
  const best = floats.reduce((a, b) => (b.latency_ms.batch_1 < a.latency_ms.batch_1 ? b : a));
  return { name: best.format_display, ms: best.latency_ms.batch_1 };
}

function exportRow(e, exports) {
  const lat = e.latency_ms;
  // A ready model's export is timed on one page only (batch_32 is null).
  let latency = "—";
  // A row without a recorded device leaves the "on …" clause out rather than end on "on".
  if (lat && lat.batch_32 !== null) {
    const numbers = { one: lat.batch_1.toFixed(2), batch: lat.batch_32.toFixed(1), each: (lat.batch_32 / 32).toFixed(2), device: e.device };
    latency = e.device
      ? interpolate(gettext("%(one)s ms per image · %(batch)s ms per batch of 32 (%(each)s ms per image) on %(device)s"), numbers, true)
      : interpolate(gettext("%(one)s ms per image · %(batch)s ms per batch of 32 (%(each)s ms per image)"), numbers, true);
  } else if (lat) {
    const numbers = { one: lat.batch_1.toFixed(1), device: e.device };
    latency = e.device
      ? interpolate(gettext("%(one)s ms per image on %(device)s"), numbers, true)
      : interpolate(gettext("%(one)s ms per image"), numbers, true);
  }
  const download = e.download_url
    && el("a", { href: e.download_url, class: "button secondary small export-download", download: true }, gettext("Download"));
  return el("tr", { "data-export": e.id, "data-status": e.status, "data-format": e.format },
    el("td", {}, `v${e.version}`),
    el("td", {}, e.format_display),
    statusCell(e),
    el("td", { class: "export-size" }, fmtBytes(e.size_bytes)),
    el("td", { class: `export-parity ${e.parity && !e.parity.passed ? "error" : ""}` }, parityText(e)),
    el("td", { class: "export-latency" }, latency, slowerNote(e, fastestFloatOn(exports, e.device))),
    el("td", { class: "export-accuracy" }, accuracyText(e)),
    el("td", { class: "actions-cell" }, download, " ", deleteButton(e)));
}

// Members delete a finished export (the dialog names the deployments that still serve it).
function deleteButton(e) {
  if (!panel.dataset.canDelete || e.status === "queued" || e.status === "running") return null;
  const button = el("button", { type: "button", class: "button danger-outline small export-delete" }, gettext("Delete"));
  button.addEventListener("click", async () => {
    const url = `/api/model-exports/${e.id}/`;
    if (await confirmDelete({ previewUrl: `${url}delete-preview/`, deleteUrl: url })) refresh();
  });
  return button;
}

function render(exports) {
  if (!exports.length) {
    replace(body, el("tr", { class: "empty" }, el("td", { class: "muted", colspan: 8 }, gettext("No exports yet."))));
    return;
  }
  replace(body, exports.map((e) => exportRow(e, exports)));
}

let timer = null;
async function refresh() {
  clearTimeout(timer);
  const { data } = await request(api);
  const exports = data.results;
  render(exports);
  if (exports.some((e) => e.status === "queued" || e.status === "running")) {
    timer = setTimeout(refresh, POLL_MS);
  }
  panel.dataset.ready = "true";
}

// The button stays disabled while its request is in flight, so a double click asks once (and
// the API answers an identical export still in flight rather than queueing another).
form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = form.querySelector("button[type=submit]");
  if (button.disabled) return;
  button.disabled = true;
  errorBox.hidden = true;
  const format = form.elements.format.value;
  const given = form.elements.threshold.value;
  const threshold = given === "" ? null : Number(given);
  try {
    await request(api, { method: "POST", json: { format, threshold } });
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  } finally {
    button.disabled = false;
  }
  refresh();
});

// On the job page, the job may succeed (or be cancelled, keeping its last checkpoint) while
// the page is open: offer the form then.
document.addEventListener("job-status", (event) => {
  if (!event.detail.hasModel) return;
  document.getElementById("export-unavailable")?.remove();
  if (form) form.hidden = false;
  refresh();
});

refresh();
