// Detection labeling on a canvas: drag to draw a box, drag a box to move it, drag a handle to
// resize it; zoom with the wheel, pan with space or the right button. Changes autosave and undo.
import { el } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
import { LabelingSession, bindDeleteCurrent, isTyping, progressText } from "./session.js";

const config = JSON.parse(document.getElementById("labeling-config").textContent);
const $ = (id) => document.getElementById(id);
config.total = Number($("progress").max);
config.labeled = Number($("progress").value);
const canvas = $("canvas");
const ctx = canvas.getContext("2d");
const colors = new Map(config.classes.map((c) => [c.id, c.color]));
const names = new Map(config.classes.map((c) => [c.id, c.name]));
const HANDLE = 7; // half the size of a resize handle, in screen pixels
const MIN_SIDE = 2; // boxes smaller than this (image pixels) are taken for a stray click

const view = { scale: 1, x: 0, y: 0, fitted: true };
const state = { image: null, sample: null, selected: -1, draft: null, drag: null, space: false };
let currentClass = config.classes[0]?.id ?? null;

const session = new LabelingSession(config, { onShow: show, onStatus: status });

function status(text, kind) {
  $("save-status").textContent = text;
  $("save-status").dataset.kind = kind;
  $("progress").value = session.labeled;
  $("progress-text").textContent = progressText(session);
}

function boxes() {
  return state.draft ?? state.sample?.boxes ?? [];
}

function show(sample) {
  const changedImage = !state.sample || state.sample.id !== sample.id;
  if (changedImage && state.sample) session.lastShown = state.sample; // for "copy previous"
  state.sample = sample;
  if (changedImage) {
    state.selected = -1;
    state.image = null;
    const image = new Image();
    image.onload = () => {
      if (state.sample !== sample) return;
      state.image = image;
      fit();
      document.body.dataset.imageReady = String(sample.id);
    };
    image.src = sample.image_url;
    document.body.dataset.imageReady = "";
  }
  $("sample-name").textContent = `${sample.original_name} · ${sample.width}×${sample.height}`;
  $("sample-name").title = sample.original_name; // the line ends in an ellipsis when it is long
  render();
  listBoxes();
}

function resize() {
  const rect = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(rect.width * ratio);
  canvas.height = Math.round(rect.height * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  if (view.fitted) fit();
  else render();
}

function fit() {
  if (!state.sample) return;
  const rect = canvas.getBoundingClientRect();
  const { width, height } = state.sample;
  view.scale = Math.min(rect.width / width, rect.height / height) * 0.96;
  view.x = (rect.width - width * view.scale) / 2;
  view.y = (rect.height - height * view.scale) / 2;
  view.fitted = true;
  render();
}

function zoom(factor, at) {
  const rect = canvas.getBoundingClientRect();
  const point = at ?? { x: rect.width / 2, y: rect.height / 2 };
  const scale = Math.min(40, Math.max(0.05, view.scale * factor));
  view.x = point.x - ((point.x - view.x) * scale) / view.scale;
  view.y = point.y - ((point.y - view.y) * scale) / view.scale;
  view.scale = scale;
  view.fitted = false;
  render();
}

const toScreen = (x, y) => ({ x: view.x + x * view.scale, y: view.y + y * view.scale });
const toImage = (x, y) => ({ x: (x - view.x) / view.scale, y: (y - view.y) / view.scale });

function handles(box) {
  const a = toScreen(box.x, box.y);
  const b = toScreen(box.x + box.w, box.y + box.h);
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  return { nw: [a.x, a.y], n: [mx, a.y], ne: [b.x, a.y], e: [b.x, my], se: [b.x, b.y], s: [mx, b.y], sw: [a.x, b.y], w: [a.x, my] };
}

function render() {
  const rect = canvas.getBoundingClientRect();
  ctx.clearRect(0, 0, rect.width, rect.height);
  if (!state.sample) return;
  if (state.image) {
    ctx.imageSmoothingEnabled = view.scale < 2;
    ctx.drawImage(state.image, view.x, view.y, state.sample.width * view.scale, state.sample.height * view.scale);
  }
  ctx.font = "12px system-ui, sans-serif";
  boxes().forEach((box, index) => {
    const color = colors.get(box.class_id) ?? "#ffffff";
    const a = toScreen(box.x, box.y);
    const selected = index === state.selected;
    ctx.lineWidth = selected ? 3 : 2;
    ctx.strokeStyle = color;
    ctx.fillStyle = `${color}22`;
    ctx.fillRect(a.x, a.y, box.w * view.scale, box.h * view.scale);
    ctx.strokeRect(a.x, a.y, box.w * view.scale, box.h * view.scale);
    const label = names.get(box.class_id) ?? "?";
    const width = ctx.measureText(label).width + 8;
    ctx.fillStyle = color;
    ctx.fillRect(a.x - 1, a.y - 16, width, 16);
    ctx.fillStyle = "#000";
    ctx.fillText(label, a.x + 3, a.y - 4);
    if (selected) {
      ctx.fillStyle = "#fff";
      ctx.strokeStyle = "#0f172a";
      ctx.lineWidth = 1;
      for (const [hx, hy] of Object.values(handles(box))) {
        ctx.fillRect(hx - HANDLE / 2 - 1, hy - HANDLE / 2 - 1, HANDLE + 2, HANDLE + 2);
        ctx.strokeRect(hx - HANDLE / 2 - 1, hy - HANDLE / 2 - 1, HANDLE + 2, HANDLE + 2);
      }
    }
  });
  document.body.dataset.noObjectsMark = "";
  if (state.sample.labeled && !boxes().length) drawNoObjectsMark();
  $("zoom-text").textContent = `${Math.round(view.scale * 100)}%`;
}

// A labeled image without boxes says so on the image: "no objects" is a label, not a gap.
function drawNoObjectsMark() {
  const text = gettext("No objects");
  ctx.font = "600 15px system-ui, sans-serif";
  const width = ctx.measureText(text).width + 20;
  const x = Math.max(view.x + 8, 8);
  const y = Math.max(view.y + 8, 8);
  ctx.fillStyle = "rgba(15, 118, 110, 0.9)";
  ctx.fillRect(x, y, width, 26);
  ctx.fillStyle = "#fff";
  ctx.fillText(text, x + 10, y + 18);
  document.body.dataset.noObjectsMark = String(state.sample.id);
}

function clampBox(box) {
  const { width, height } = state.sample;
  let x0 = Math.max(0, Math.min(box.x, box.x + box.w));
  let y0 = Math.max(0, Math.min(box.y, box.y + box.h));
  const x1 = Math.min(width, Math.max(box.x, box.x + box.w));
  const y1 = Math.min(height, Math.max(box.y, box.y + box.h));
  x0 = Math.min(x0, x1);
  y0 = Math.min(y0, y1);
  const r = (v) => Math.round(v * 100) / 100;
  return { class_id: box.class_id, x: r(x0), y: r(y0), w: r(x1 - x0), h: r(y1 - y0) };
}

function commit(next, selected = state.selected) {
  if (!config.canEdit) return;
  state.selected = selected;
  session.change(state.sample, { class_ids: [], boxes: next, labeled: next.length > 0 || undefined });
  listBoxes();
}

function hit(point) {
  const current = boxes();
  if (state.selected >= 0 && current[state.selected]) {
    for (const [name, [hx, hy]] of Object.entries(handles(current[state.selected]))) {
      if (Math.abs(point.x - hx) <= HANDLE && Math.abs(point.y - hy) <= HANDLE) return { kind: "resize", index: state.selected, handle: name };
    }
  }
  const p = toImage(point.x, point.y);
  for (let i = current.length - 1; i >= 0; i--) {
    const b = current[i];
    if (p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h) return { kind: "move", index: i };
  }
  return null;
}

function pointer(event) {
  const rect = canvas.getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}

canvas.addEventListener("pointerdown", (event) => {
  if (!state.sample) return;
  canvas.focus({ preventScroll: true });
  canvas.setPointerCapture(event.pointerId);
  const point = pointer(event);
  if (event.button === 1 || event.button === 2 || state.space) {
    state.drag = { kind: "pan", start: point, x: view.x, y: view.y };
    return;
  }
  if (!config.canEdit) return;
  const target = hit(point);
  const start = toImage(point.x, point.y);
  const original = state.sample.boxes.map((b) => ({ ...b }));
  if (target) {
    state.selected = target.index;
    state.drag = { ...target, start, original };
  } else if (currentClass !== null) {
    state.selected = -1;
    state.drag = { kind: "draw", start, original };
  }
  render();
  listBoxes();
});

canvas.addEventListener("pointermove", (event) => {
  const drag = state.drag;
  if (!drag) {
    const target = state.sample && hit(pointer(event));
    canvas.style.cursor = state.space ? "grab" : target?.kind === "resize" ? "nwse-resize" : target ? "move" : "crosshair";
    return;
  }
  const point = pointer(event);
  if (drag.kind === "pan") {
    view.x = drag.x + point.x - drag.start.x;
    view.y = drag.y + point.y - drag.start.y;
    view.fitted = false;
    render();
    return;
  }
  const p = toImage(point.x, point.y);
  const dx = p.x - drag.start.x;
  const dy = p.y - drag.start.y;
  const next = drag.original.map((b) => ({ ...b }));
  if (drag.kind === "draw") {
    next.push({ class_id: currentClass, x: drag.start.x, y: drag.start.y, w: dx, h: dy });
    state.selected = next.length - 1;
  } else if (drag.kind === "move") {
    const b = next[drag.index];
    b.x = Math.min(Math.max(0, b.x + dx), state.sample.width - b.w);
    b.y = Math.min(Math.max(0, b.y + dy), state.sample.height - b.h);
  } else {
    const b = next[drag.index];
    if (drag.handle.includes("w")) [b.x, b.w] = [b.x + dx, b.w - dx];
    if (drag.handle.includes("e")) b.w += dx;
    if (drag.handle.includes("n")) [b.y, b.h] = [b.y + dy, b.h - dy];
    if (drag.handle.includes("s")) b.h += dy;
  }
  state.draft = next;
  render();
});

function endDrag() {
  const drag = state.drag;
  state.drag = null;
  if (!drag || drag.kind === "pan" || !state.draft) {
    state.draft = null;
    return;
  }
  const next = state.draft.map(clampBox);
  state.draft = null;
  const changed = next[state.selected];
  if (drag.kind === "draw" && (!changed || changed.w < MIN_SIDE || changed.h < MIN_SIDE)) {
    state.selected = -1;
    render();
    return;
  }
  // A new box is not left selected: the class keys choose the class of the next box only.
  const selected = drag.kind === "draw" ? -1 : state.selected;
  commit(next.filter((b) => b.w >= MIN_SIDE / 2 && b.h >= MIN_SIDE / 2), selected);
}

canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);
canvas.addEventListener("contextmenu", (event) => event.preventDefault());
canvas.addEventListener("wheel", (event) => {
  event.preventDefault();
  zoom(Math.exp(-event.deltaY / 500), pointer(event));
}, { passive: false });

function listBoxes() {
  const items = (state.sample?.boxes ?? []).map((box, index) => {
    const options = config.classes.map((c) => el("option", { value: c.id, selected: c.id === box.class_id }, c.name));
    const select = el("select", { "aria-label": interpolate(gettext("Class of box %(number)s"), { number: index + 1 }, true), disabled: !config.canEdit }, options);
    const remove = el("button", { type: "button", class: "link", title: gettext("Delete box") }, "✕");
    const li = el("li", { class: index === state.selected ? "selected" : "" },
      el("span", { class: "chip", style: { "--chip": colors.get(box.class_id) } }), select,
      el("span", { class: "muted small" }, `${Math.round(box.w)}×${Math.round(box.h)}`), remove);
    select.addEventListener("change", (event) => setClass(index, Number(event.target.value)));
    remove.addEventListener("click", () => deleteBox(index));
    li.addEventListener("mouseenter", () => {
      state.selected = index;
      render();
    });
    return li;
  });
  $("box-list").replaceChildren(...items);
  document.querySelectorAll("#classes button").forEach((b) => b.classList.toggle("on", Number(b.dataset.classId) === currentClass));
}

function setClass(index, classId) {
  const next = state.sample.boxes.map((b) => ({ ...b }));
  next[index].class_id = classId;
  commit(next, index);
}

function deleteBox(index) {
  if (index < 0) return;
  commit(state.sample.boxes.filter((_, i) => i !== index), -1);
}

// The class of the boxes drawn next; it changes no box already drawn (see applyClass).
function chooseClass(classId) {
  currentClass = classId;
  listBoxes();
  render();
}

// The chosen class onto the selected box (click a box, or point at it in the list, first).
function applyClass() {
  if (state.selected >= 0 && state.sample.boxes[state.selected] && currentClass !== null) {
    setClass(state.selected, currentClass);
  }
}

function toggleFocus() {
  const on = document.body.classList.toggle("labeling-focus");
  $("focus").setAttribute("aria-pressed", String(on));
  $("focus").textContent = on ? gettext("Leave focus") : gettext("Focus");
}

function markEmpty() {
  if (!config.canEdit) return;
  state.selected = -1;
  session.change(state.sample, { class_ids: [], boxes: [], labeled: true });
}

async function copyPrevious() {
  const previous = session.samples[session.index - 1] ?? session.lastShown;
  if (!previous || !previous.boxes.length || !config.canEdit) return;
  const copies = previous.boxes.map((b) => clampBox({ ...b })).filter((b) => b.w > 0 && b.h > 0);
  commit([...state.sample.boxes.map((b) => ({ ...b })), ...copies], -1);
}

document.addEventListener("keydown", (event) => {
  if (isTyping(event) || !state.sample) return;
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && key.toLowerCase() === "z") {
    event.preventDefault();
    if (event.shiftKey) session.redo();
    else session.undo();
  } else if (ctrl && key.toLowerCase() === "y") {
    event.preventDefault();
    session.redo();
  } else if (ctrl) {
    return;
  } else if (/^[0-9]$/.test(key)) {
    const cls = config.classes[key === "0" ? 9 : Number(key) - 1];
    if (cls) chooseClass(cls.id);
  } else if (key === "Delete" || key === "Backspace") {
    event.preventDefault();
    deleteBox(state.selected);
  } else if (key === "Escape") {
    state.selected = -1;
    render();
    listBoxes();
  } else if (key === " ") {
    event.preventDefault();
    state.space = true;
  } else if (key === "ArrowRight" || key === "ArrowLeft") {
    event.preventDefault();
    session.move(key === "ArrowRight" ? 1 : -1);
  } else if (key.toLowerCase() === "n") {
    session.claimNext();
  } else if (key.toLowerCase() === "c") {
    copyPrevious();
  } else if (key.toLowerCase() === "e") {
    markEmpty();
  } else if (key.toLowerCase() === "a") {
    applyClass();
  } else if (key.toLowerCase() === "m") {
    toggleFocus();
  } else if (key === "+" || key === "=") {
    zoom(1.25);
  } else if (key === "-") {
    zoom(0.8);
  } else if (key.toLowerCase() === "f") {
    fit();
  }
});
document.addEventListener("keyup", (event) => {
  if (event.key === " ") state.space = false;
});

function buildClassButtons() {
  $("classes").replaceChildren(...config.classes.map((c, i) => {
    const key = i < 9 ? String(i + 1) : i === 9 ? "0" : "";
    const button = el("button", { type: "button", class: "class-button", "data-class-id": c.id, style: { "--chip": c.color } },
      el("kbd", {}, key), el("span", {}, c.name));
    button.addEventListener("click", () => chooseClass(c.id));
    return el("li", {}, button);
  }));
}

$("prev").addEventListener("click", () => session.move(-1));
$("next").addEventListener("click", () => session.move(1));
$("next-unlabeled").addEventListener("click", () => session.claimNext());
$("undo").addEventListener("click", () => session.undo());
$("redo").addEventListener("click", () => session.redo());
$("copy-previous").addEventListener("click", copyPrevious);
$("no-objects").addEventListener("click", markEmpty);
$("apply-class").addEventListener("click", applyClass);
$("focus").addEventListener("click", toggleFocus);
new ResizeObserver(resize).observe($("canvas-box"));

buildClassButtons();
bindDeleteCurrent(session);
session.start().then(() => (document.body.dataset.ready = "true"));
window.labelingSession = session;
window.labelingView = view;
