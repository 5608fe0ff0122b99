// Classification labeling: number keys or clicks assign classes, arrows move, several
// images can be selected in the strip and labeled at once. Changes autosave and undo.
import { el } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
import { LabelingSession, bindDeleteCurrent, isTyping, progressText } from "./session.js";

const config = JSON.parse(document.getElementById("labeling-config").textContent);
const $ = (id) => document.getElementById(id);
config.total = Number($("progress").max);
config.labeled = Number($("progress").value);
const picked = new Set(); // sample ids selected in the strip
let anchor = null;

const session = new LabelingSession(config, { onShow: show, onStatus: status });

function status(text, kind) {
  $("save-status").textContent = text;
  $("save-status").dataset.kind = kind;
  $("progress").value = session.labeled;
  $("progress-text").textContent = progressText(session);
}

function show(sample) {
  const image = $("image");
  if (image.dataset.sample !== String(sample.id)) {
    image.style.visibility = "hidden"; // never show the last image under this one's name
    image.dataset.sample = sample.id;
    image.onload = () => (image.style.visibility = "visible");
    image.src = sample.image_url;
  }
  $("image").alt = sample.original_name;
  $("sample-name").textContent = `${sample.original_name} · ${sample.width}×${sample.height}`;
  $("sample-name").title = sample.original_name; // the line ends in an ellipsis when it is long
  document.querySelectorAll("#classes button").forEach((button) => {
    button.classList.toggle("on", sample.class_ids.includes(Number(button.dataset.classId)));
  });
  drawStrip();
  status($("save-status").textContent, $("save-status").dataset.kind);
}

function drawStrip() {
  const items = session.samples.map((sample, index) => {
    const classes = [
      index === session.index ? "current" : "",
      sample.labeled ? "labeled" : "",
      picked.has(sample.id) ? "picked" : "",
    ].join(" ");
    const li = el("li", { class: classes, "data-sample": sample.id, title: sample.original_name },
      el("img", { src: sample.thumbnail_url, alt: "" }));
    li.addEventListener("click", (event) => pick(event, index));
    return li;
  });
  $("strip").replaceChildren(...items);
  $("strip").querySelector(".current")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  $("selection-note").hidden = picked.size === 0;
  $("selection-note").textContent = interpolate(gettext("%(count)s images selected: a class applies to all of them."), { count: picked.size }, true);
}

function pick(event, index) {
  const sample = session.samples[index];
  if (event.shiftKey && anchor !== null) {
    const [from, to] = [Math.min(anchor, index), Math.max(anchor, index)];
    session.samples.slice(from, to + 1).forEach((s) => picked.add(s.id));
  } else if (event.ctrlKey || event.metaKey) {
    if (picked.has(sample.id)) picked.delete(sample.id);
    else picked.add(sample.id);
    anchor = index;
  } else {
    picked.clear();
    anchor = index;
    session.flush().then(() => {
      session.index = index;
      session.show();
    });
    return;
  }
  drawStrip();
}

function labelsWith(sample, classId) {
  let ids;
  if (config.multiLabel) {
    ids = sample.class_ids.includes(classId)
      ? sample.class_ids.filter((c) => c !== classId)
      : [...sample.class_ids, classId];
  } else {
    ids = [classId];
  }
  return { class_ids: ids, boxes: [], labeled: ids.length > 0 };
}

async function assign(classId) {
  if (!config.canEdit || !session.current) return;
  if (picked.size) {
    const targets = session.samples.filter((s) => picked.has(s.id));
    await session.changeMany(targets.map((s) => ({
      id: s.id,
      before: { class_ids: [...s.class_ids], boxes: [], labeled: s.labeled },
      after: config.multiLabel ? { class_ids: [...new Set([...s.class_ids, classId])], boxes: [], labeled: true } : { class_ids: [classId], boxes: [], labeled: true },
    })));
    picked.clear();
    drawStrip();
    return;
  }
  session.change(session.current, labelsWith(session.current, classId));
  if (!config.multiLabel && $("advance")?.checked) await session.move(1);
}

function clearLabels() {
  if (config.canEdit && session.current) session.change(session.current, { class_ids: [], boxes: [], labeled: false });
}

function buildClassButtons() {
  $("classes").replaceChildren(...config.classes.map((c, i) => {
    const key = i < 9 ? String(i + 1) : i === 9 ? "0" : "";
    const button = el("button", { type: "button", class: "class-button", "data-class-id": c.id, style: { "--chip": c.color } },
      el("kbd", {}, key), el("span", {}, c.name));
    button.addEventListener("click", () => assign(c.id));
    return el("li", {}, button);
  }));
}

document.addEventListener("keydown", (event) => {
  if (isTyping(event)) return;
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && event.key.toLowerCase() === "z") {
    event.preventDefault();
    if (event.shiftKey) session.redo();
    else session.undo();
  } else if (ctrl && event.key.toLowerCase() === "y") {
    event.preventDefault();
    session.redo();
  } else if (ctrl) {
    return;
  } else if (/^[0-9]$/.test(event.key)) {
    const index = event.key === "0" ? 9 : Number(event.key) - 1;
    if (config.classes[index]) assign(config.classes[index].id);
  } else if (event.key === "ArrowRight") {
    event.preventDefault();
    session.move(1);
  } else if (event.key === "ArrowLeft") {
    event.preventDefault();
    session.move(-1);
  } else if (event.key.toLowerCase() === "n") {
    session.claimNext();
  } else if (event.key === "Backspace" || event.key === "Delete") {
    clearLabels();
  }
});

$("prev").addEventListener("click", () => session.move(-1));
$("next").addEventListener("click", () => session.move(1));
$("next-unlabeled").addEventListener("click", () => session.claimNext());
$("undo").addEventListener("click", () => session.undo());
$("redo").addEventListener("click", () => session.redo());
window.addEventListener("beforeunload", (event) => {
  if (session.timers.size || session.inflight.size) {
    session.flush();
    event.preventDefault();
  }
});

buildClassButtons();
bindDeleteCurrent(session);
session.start().then(() => (document.body.dataset.ready = "true"));
window.labelingSession = session; // for the browser tests and the curious
