// The zoo page's "Find regions in an image" panel: sends the image to a ready detector's try
// endpoint, draws the boxes it answers on a canvas over the image and lists them. Every value
// from the server goes on the page as text (dom.js) or canvas text; nothing parses markup.
import { api } from "../datastore/api.js";
import { colourOf, drawDetections, loadImage } from "../js/boxes.js";
import { el, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";

const form = document.getElementById("detect-form");

function percent(score) {
  return `${(score * 100).toFixed(0)}%`;
}

async function detect(event) {
  event.preventDefault();
  const status = document.getElementById("detect-status");
  const list = document.getElementById("detect-results");
  const canvas = document.getElementById("detect-canvas");
  const option = document.getElementById("detect-model").selectedOptions[0];
  const file = document.getElementById("detect-image").files[0];
  if (!option || !file) return;
  const body = new FormData();
  body.append("image", file);
  status.textContent = interpolate(gettext("Looking for regions with %(model)s…"), { model: option.textContent }, true);
  replace(list);
  document.body.dataset.detected = "";
  try {
    const [{ data }, image] = await Promise.all([api(option.dataset.url, { method: "POST", body }), loadImage(file)]);
    canvas.hidden = false;
    const boxes = data.boxes.map((b) => ({ box: b.box, colour: colourOf(b.index), label: `${b.class} ${percent(b.score)}` }));
    drawDetections(canvas, image, boxes);
    replace(list, data.boxes.map((b) => el("li", { class: "detected-box", "data-class": b.class },
      el("span", { class: "swatch", style: { "--swatch": colourOf(b.index) } }),
      el("span", { class: "class-name" }, b.class),
      el("span", { class: "probability" }, percent(b.score)))));
    const found = ngettext("%(count)s region scoring over %(threshold)s, found in %(ms)s ms:", "%(count)s regions scoring over %(threshold)s, found in %(ms)s ms:", data.boxes.length);
    status.textContent = interpolate(found, { count: data.boxes.length, threshold: data.score_threshold, ms: data.elapsed_ms }, true);
    document.body.dataset.detected = String(data.boxes.length);
  } catch (error) {
    status.textContent = error.message;
  }
}

if (form) {
  form.addEventListener("submit", detect);
  document.querySelectorAll(".try-detector-link").forEach((link) =>
    link.addEventListener("click", () => { document.getElementById("detect-model").value = link.dataset.ready; }));
}
