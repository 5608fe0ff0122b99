// The zoo page's "Read the text in an image" panel: sends the image to a ready OCR pipeline's
// try endpoint, outlines each line it reads on a canvas over the image, numbered in reading
// order, and lists the lines with their text and score. Server values go on the page as text
// (dom.js) or canvas text; nothing parses markup.
import { api } from "../datastore/api.js";
import { colourOf, drawDetections, loadImage } from "../js/boxes.js";
import { el, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";

const form = document.getElementById("read-form");

function percent(score) {
  return `${(score * 100).toFixed(0)}%`;
}

async function read(event) {
  event.preventDefault();
  const status = document.getElementById("read-status");
  const list = document.getElementById("read-lines");
  const canvas = document.getElementById("read-canvas");
  const option = document.getElementById("read-model").selectedOptions[0];
  const file = document.getElementById("read-image").files[0];
  if (!option || !file) return;
  const body = new FormData();
  body.append("image", file);
  status.textContent = interpolate(gettext("Reading with %(model)s…"), { model: option.textContent }, true);
  replace(list);
  canvas.hidden = true;
  document.body.dataset.read = "";
  try {
    const [{ data }, image] = await Promise.all([api(option.dataset.url, { method: "POST", body }), loadImage(file)]);
    canvas.hidden = false;
    drawDetections(canvas, image, data.lines.map((line, i) => ({ polygon: line.polygon, colour: colourOf(i), label: String(i + 1) })), { maxSide: 720 });
    replace(list, data.lines.map((line, i) => el("li", { class: "read-line", "data-score": line.score },
      el("span", { class: "swatch", style: { "--swatch": colourOf(i) } }),
      el("span", { class: "line-text", lang: "" }, line.text),
      el("span", { class: "probability" }, percent(line.score)))));
    const read = ngettext("%(count)s line read in %(ms)s ms:", "%(count)s lines read in %(ms)s ms:", data.lines.length);
    status.textContent = interpolate(read, { count: data.lines.length, ms: data.elapsed_ms }, true);
    document.body.dataset.read = String(data.lines.length);
  } catch (error) {
    status.textContent = error.message;
  }
}

if (form) {
  form.addEventListener("submit", read);
  document.querySelectorAll(".try-reader-link").forEach((link) =>
    link.addEventListener("click", () => { document.getElementById("read-model").value = link.dataset.ready; }));
}
