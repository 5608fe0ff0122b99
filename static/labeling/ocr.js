// OCR labeling: each text line is a polygon on the image and its transcription. Click four
// corners for a quadrilateral or drag a rectangle; edit the text, mark a line difficult or
// delete it in the side list; Save stores the image's lines (with the revision they were
// loaded at), and "Pre-label" replaces them with what PP-OCRv4 reads. Viewers only look.
import { ApiError, api } from "../datastore/api.js";
import { el, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";

const config = JSON.parse(document.getElementById("labeling-config").textContent);
const $ = (id) => document.getElementById(id);
const canvas = $("canvas");
const ctx = canvas.getContext("2d");
const DRAG = 4; // screen pixels a press must move to draw a rectangle rather than a corner
const PAGE = 100;

const view = { scale: 1, x: 0, y: 0 };
const state = {
  samples: [], index: -1, next: "", previous: "",
  sample: null, image: null, lines: [], revision: 0, labeled: false,
  corners: [], press: null, rect: null, selected: -1, dirty: false,
};
const progress = { labeled: Number($("progress").value), total: Number($("progress").max) };
// A link from a report (?sample=S&line=N) opens sample S with its line N selected.
const wanted = { sample: config.start, line: Number.parseInt(new URL(window.location.href).searchParams.get("line") ?? "", 10) };

function status(text, kind) {
  $("save-status").textContent = text;
  $("save-status").dataset.kind = kind;
}

function showProgress() {
  $("progress").value = progress.labeled;
  $("progress-text").textContent = interpolate(gettext("%(labeled)s of %(total)s labeled"), progress, true);
}

function markDirty() {
  state.dirty = true;
  status(gettext("Unsaved changes…"), "pending");
}

async function loadPage(url, keep = "first") {
  const { data } = await api(url);
  if (!data.results.length) return false;
  state.samples = data.results;
  state.next = data.next;
  state.previous = data.previous;
  state.index = keep === "last" ? data.results.length - 1 : 0;
  return true;
}

function listUrl(params) {
  return `/api/datasets/${config.dataset}/samples/?${new URLSearchParams({ page_size: PAGE, ...params })}`;
}

async function open(sample) {
  state.sample = sample;
  state.corners = [];
  state.rect = null;
  state.selected = -1;
  state.image = null;
  document.body.dataset.imageReady = "";
  $("sample-name").textContent = `${sample.original_name} · ${sample.width}×${sample.height}`;
  const { data } = await api(`/api/samples/${sample.id}/text-lines/`);
  if (state.sample !== sample) return;
  state.labeled = data.labeled; // a new image: nothing to count
  takeLines(data);
  if (sample.id === wanted.sample && wanted.line >= 0 && wanted.line < state.lines.length) select(wanted.line);
  wanted.line = -1; // only the page's first image
  const image = new Image();
  image.onload = () => {
    if (state.sample !== sample) return;
    state.image = image;
    fit();
    document.body.dataset.imageReady = String(sample.id);
  };
  image.src = sample.image_url;
  const url = new URL(window.location.href);
  url.searchParams.set("sample", sample.id);
  window.history.replaceState(null, "", url);
}

// The image's lines as the server has them (loaded, pre-labeled, or someone else's save).
function takeLines(data) {
  state.lines = data.lines.map((line) => ({ ...line, points: line.points.map((p) => [...p]) }));
  state.revision = data.revision;
  countLabeled(data.labeled);
  state.dirty = false;
  if (config.canEdit) status(gettext("All changes saved"), "saved");
  listLines();
  render();
}

async function move(step) {
  if (state.dirty && !(await save())) return;
  const target = state.index + step;
  if (target >= 0 && target < state.samples.length) state.index = target;
  else if (step > 0 && state.next) {
    if (!(await loadPage(state.next))) return;
  } else if (step < 0 && state.previous) {
    if (!(await loadPage(state.previous, "last"))) return;
  } else return;
  await open(state.samples[state.index]);
}

async function save() {
  const sample = state.sample;
  const body = {
    revision: state.revision,
    lines: state.lines.map(({ points, transcription, difficult }) => ({ points, transcription, difficult })),
  };
  status(gettext("Saving…"), "pending");
  try {
    const { data } = await api(`/api/samples/${sample.id}/text-lines/`, { method: "PUT", json: body });
    countLabeled(data.labeled);
    state.revision = data.revision;
    state.dirty = false;
    status(gettext("All changes saved"), "saved");
    return true;
  } catch (error) {
    return refused(error, gettext("Someone else changed this image; their lines are shown."));
  }
}

function countLabeled(labeled) {
  if (labeled !== state.labeled) progress.labeled += labeled ? 1 : -1;
  state.labeled = labeled;
  showProgress();
}

function refused(error, conflictText) {
  if (error instanceof ApiError && error.status === 409 && error.body?.code === "stale_revision") {
    takeLines(error.body.current);
    status(conflictText, "conflict");
  } else {
    status(interpolate(gettext("Not saved: %(reason)s"), { reason: error.message }, true), "error");
  }
  return false;
}

async function prelabel() {
  const button = $("prelabel");
  button.disabled = true;
  status(gettext("Reading the image with PP-OCRv4…"), "pending");
  try {
    const { data } = await api(`/api/samples/${state.sample.id}/text-lines/prelabel/`, {
      method: "POST",
      json: { revision: state.revision },
    });
    takeLines(data);
    status(interpolate(ngettext("PP-OCRv4 found %(count)s line; correct it and save.", "PP-OCRv4 found %(count)s lines; correct them and save.", data.lines.length), { count: data.lines.length }, true), "saved");
  } catch (error) {
    refused(error, gettext("Someone else changed this image; their lines are shown."));
  } finally {
    button.disabled = false;
  }
}

// The whole dataset, in the worker: follow the job, then show this image's lines again.
async function prelabelAll() {
  const button = $("prelabel-all");
  const note = $("prelabel-all-status");
  button.disabled = true;
  try {
    let { data: job } = await api(`/api/datasets/${config.dataset}/prelabel/`, { method: "POST" });
    while (job.status === "queued" || job.status === "running") {
      note.textContent = interpolate(gettext("Pre-labeling the unlabeled images: %(percent)s%"), { percent: job.percent }, true);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      ({ data: job } = await api(`/api/prelabel-jobs/${job.id}/`));
    }
    if (job.status === "succeeded") {
      note.textContent = interpolate(ngettext("PP-OCRv4 labeled %(count)s image.", "PP-OCRv4 labeled %(count)s images.", job.samples_labeled), { count: job.samples_labeled }, true);
      progress.labeled += job.samples_labeled;
      showProgress();
      if (!state.dirty) await open(state.sample);
    } else {
      note.textContent = job.error;
    }
  } catch (error) {
    note.textContent = error.message;
  } finally {
    button.disabled = false;
  }
}

// The side list: one row per line, its text in an input (a value, never markup).
function listLines() {
  $("line-count").textContent = interpolate(ngettext("%(count)s text line", "%(count)s text lines", state.lines.length), { count: state.lines.length }, true);
  replace($("line-list"), state.lines.map((line, index) => lineRow(line, index)));
}

function lineRow(line, index) {
  const text = el("input", {
    type: "text", value: line.transcription, maxlength: "500", disabled: !config.canEdit,
    "aria-label": interpolate(gettext("Text of line %(number)s"), { number: index + 1 }, true),
    class: "line-text",
  });
  text.addEventListener("input", () => {
    line.transcription = text.value;
    markDirty();
  });
  text.addEventListener("focus", () => select(index, false));
  const difficult = el("input", { type: "checkbox", checked: line.difficult, disabled: !config.canEdit, class: "line-difficult" });
  difficult.addEventListener("change", () => {
    line.difficult = difficult.checked;
    markDirty();
    render();
  });
  const remove = config.canEdit && el("button", { type: "button", class: "button small secondary line-delete", title: gettext("Delete this line") }, "×");
  if (remove) remove.addEventListener("click", () => {
    state.lines.splice(index, 1);
    state.selected = -1;
    markDirty();
    listLines();
    render();
  });
  return el("li", { class: index === state.selected ? "selected" : null, "data-index": String(index) },
    el("span", { class: "line-number" }, String(index + 1)), text,
    el("label", { title: gettext("Too hard to read: training and evaluation ignore it") }, difficult, gettext("difficult")),
    remove);
}

function select(index, focus = true) {
  state.selected = index;
  [...$("line-list").children].forEach((row, i) => row.classList.toggle("selected", i === index));
  if (focus && index >= 0) $("line-list").children[index]?.querySelector(".line-text")?.focus();
  render();
}

function addLine(points) {
  state.lines.push({ points, transcription: "", difficult: false });
  markDirty();
  listLines();
  select(state.lines.length - 1);
}

// Drawing: image pixels <-> screen pixels.
function fit() {
  const rect = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(rect.width * ratio);
  canvas.height = Math.round(rect.height * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  if (state.sample) {
    const { width, height } = state.sample;
    view.scale = Math.min(rect.width / width, rect.height / height) * 0.96;
    view.x = (rect.width - width * view.scale) / 2;
    view.y = (rect.height - height * view.scale) / 2;
  }
  render();
}

const toScreen = ([x, y]) => [view.x + x * view.scale, view.y + y * view.scale];

function toImage(event) {
  const rect = canvas.getBoundingClientRect();
  const x = (event.clientX - rect.left - view.x) / view.scale;
  const y = (event.clientY - rect.top - view.y) / view.scale;
  const { width, height } = state.sample;
  return [Math.round(Math.min(Math.max(x, 0), width) * 10) / 10, Math.round(Math.min(Math.max(y, 0), height) * 10) / 10];
}

function path(points, close = true) {
  ctx.beginPath();
  points.forEach((point, i) => (i ? ctx.lineTo(...toScreen(point)) : ctx.moveTo(...toScreen(point))));
  if (close) ctx.closePath();
}

function render() {
  const rect = canvas.getBoundingClientRect();
  ctx.clearRect(0, 0, rect.width, rect.height);
  if (!state.sample) return;
  if (state.image) ctx.drawImage(state.image, view.x, view.y, state.sample.width * view.scale, state.sample.height * view.scale);
  ctx.font = "12px sans-serif";
  state.lines.forEach((line, index) => {
    const selected = index === state.selected;
    ctx.setLineDash(line.difficult ? [5, 4] : []);
    ctx.strokeStyle = line.difficult ? "#f59e0b" : selected ? "#4363d8" : "#16a34a";
    ctx.lineWidth = selected ? 3 : 2;
    path(line.points);
    ctx.stroke();
    if (selected) {
      ctx.fillStyle = "rgba(67, 99, 216, 0.18)";
      ctx.fill();
    }
    const [x, y] = toScreen(line.points[0]);
    ctx.setLineDash([]);
    ctx.fillStyle = ctx.strokeStyle;
    ctx.fillRect(x - 1, y - 15, 18, 14);
    ctx.fillStyle = "#fff";
    ctx.fillText(String(index + 1), x + 2, y - 4);
  });
  ctx.setLineDash([4, 3]);
  ctx.strokeStyle = "#e6194b";
  ctx.lineWidth = 2;
  if (state.rect) {
    path(state.rect);
    ctx.stroke();
  }
  if (state.corners.length) {
    path([...state.corners, ...(state.hover ? [state.hover] : [])], false);
    ctx.stroke();
    ctx.fillStyle = "#e6194b";
    state.corners.forEach((point) => {
      const [x, y] = toScreen(point);
      ctx.fillRect(x - 3, y - 3, 6, 6);
    });
  }
  ctx.setLineDash([]);
}

function rectangle(a, b) {
  const [x0, x1] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
  const [y0, y1] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
  return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
}

function inside(point, polygon) {
  let hit = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

canvas.addEventListener("mousedown", (event) => {
  if (!config.canEdit || !state.sample || event.button !== 0) return;
  state.press = { at: toImage(event), x: event.clientX, y: event.clientY };
});

canvas.addEventListener("mousemove", (event) => {
  if (!state.sample) return;
  const point = toImage(event);
  if (state.press && Math.hypot(event.clientX - state.press.x, event.clientY - state.press.y) > DRAG) {
    state.corners = [];
    state.rect = rectangle(state.press.at, point);
  }
  state.hover = state.corners.length ? point : null;
  render();
});

canvas.addEventListener("mouseup", (event) => {
  if (!state.press) return;
  const point = toImage(event);
  const press = state.press;
  state.press = null;
  if (state.rect) {
    const [[x0, y0], , [x1, y1]] = state.rect;
    state.rect = null;
    if (x1 - x0 >= 2 && y1 - y0 >= 2) addLine(rectangle([x0, y0], [x1, y1]));
    else render();
    return;
  }
  if (!state.corners.length) {
    const hit = state.lines.findIndex((line) => inside(press.at, line.points));
    if (hit >= 0) return select(hit);
  }
  state.corners.push(point);
  if (state.corners.length === 4) {
    const corners = state.corners;
    state.corners = [];
    state.hover = null;
    addLine(corners);
  } else render();
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    state.corners = [];
    state.rect = null;
    state.press = null;
    select(-1);
  }
});

window.addEventListener("beforeunload", (event) => {
  if (state.dirty) event.preventDefault();
});
window.addEventListener("resize", fit);
$("prev").addEventListener("click", () => move(-1));
$("next").addEventListener("click", () => move(1));
if (config.canEdit) {
  $("save").addEventListener("click", save);
  $("prelabel").addEventListener("click", prelabel);
  $("prelabel-all").addEventListener("click", prelabelAll);
}

(async () => {
  const found = await loadPage(listUrl(config.start ? { start: config.start } : {}));
  if (!found) {
    status(gettext("This dataset has no images yet: import some first."), "done");
    return;
  }
  showProgress();
  await open(state.samples[state.index]);
})();
window.labelingView = view; // the browser tests read it to click image pixels
