// Gallery multi-select (shift-click selects a range), bulk class assignment and bulk delete;
// a detection sample's boxes and an OCR sample's text lines drawn over its thumbnail.
import { drawShapes } from "../js/boxes.js";
import { confirmDelete } from "../js/confirm_delete.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";
import { api, datasetId } from "./api.js";

const bar = document.getElementById("bulk-bar");
const tiles = [...document.querySelectorAll("#gallery .tile")];
let last = null;

function selected() {
  return tiles.filter((t) => t.querySelector(".pick")?.checked).map((t) => Number(t.dataset.sample));
}

function refresh() {
  const ids = selected();
  tiles.forEach((t) => t.classList.toggle("selected", Boolean(t.querySelector(".pick")?.checked)));
  if (!bar) return;
  bar.hidden = ids.length === 0;
  document.getElementById("bulk-count").textContent = interpolate(gettext("%(count)s selected"), { count: ids.length }, true);
}

tiles.forEach((tile, index) => {
  const box = tile.querySelector(".pick");
  if (!box) return;
  box.addEventListener("click", (event) => {
    if (event.shiftKey && last !== null) {
      const [from, to] = [Math.min(last, index), Math.max(last, index)];
      tiles.slice(from, to + 1).forEach((t) => (t.querySelector(".pick").checked = box.checked));
    }
    last = index;
    refresh();
  });
});

if (bar) {
  bar.querySelectorAll("button[data-mode]").forEach((button) =>
    button.addEventListener("click", async () => {
      const json = {
        sample_ids: selected(),
        class_id: Number(document.getElementById("bulk-class").value),
        mode: button.dataset.mode,
      };
      button.disabled = true;
      try {
        await api(`/api/datasets/${datasetId()}/labels/bulk/`, { method: "POST", json });
        window.location.reload();
      } catch (error) {
        document.getElementById("bulk-count").textContent = error.message;
        button.disabled = false;
      }
    }),
  );
  document.getElementById("bulk-delete").addEventListener("click", async () => {
    const ids = selected();
    const url = `/api/datasets/${datasetId()}/samples/`;
    const deleted = await confirmDelete({
      previewUrl: `${url}delete-preview/?ids=${ids.join(",")}`,
      deleteUrl: `${url}bulk-delete/`,
      method: "POST",
      json: { ids },
      title: interpolate(ngettext("Delete %(count)s image?", "Delete %(count)s images?", ids.length), { count: ids.length }, true),
    });
    if (deleted) window.location.reload(); // the counts and the page position are the server's
  });
  document.getElementById("bulk-clear").addEventListener("click", () => {
    tiles.forEach((t) => t.querySelector(".pick") && (t.querySelector(".pick").checked = false));
    refresh();
  });
}

// A transparent canvas over the thumbnail, as large as the thumbnail's own pixels and fitted
// the same way (object-fit: contain), so the shapes land where the image shows them.
const shapes = JSON.parse(document.getElementById("thumbnail-shapes")?.textContent || "{}");

function overlay(tile, { width, shapes: drawn }) {
  const image = tile.querySelector("a img");
  const draw = () => {
    if (!image.naturalWidth) return; // not an image the browser can show: nothing to draw on
    const canvas = document.createElement("canvas");
    canvas.className = "tile-shapes";
    canvas.setAttribute("aria-hidden", "true");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    // Lines 1.5 screen pixels wide, whatever the thumbnail is shrunk by on screen.
    const shown = Math.min(image.clientWidth / canvas.width, image.clientHeight / canvas.height) || 1;
    drawShapes(canvas.getContext("2d"), drawn, canvas.width / width, 1.5 / shown);
    image.after(canvas);
    tile.dataset.shapes = String(drawn.length);
  };
  if (image.complete) draw(); else image.addEventListener("load", draw, { once: true });
}

tiles.forEach((tile) => {
  const drawn = shapes[tile.dataset.sample];
  if (drawn) overlay(tile, drawn);
});
