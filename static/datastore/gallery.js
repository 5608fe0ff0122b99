// Gallery multi-select (shift-click selects a range), bulk class assignment and bulk delete.
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
