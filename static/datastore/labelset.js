// The label-set editor: rename, recolor, reorder, add; merge and delete after a preview.
import { api, datasetId } from "./api.js";

const dataset = datasetId();
const canEdit = JSON.parse(document.getElementById("can-edit").textContent);
const $ = (id) => document.getElementById(id);
let classes = [];
let pending = null;

function fail(error) {
  $("class-error").hidden = false;
  $("class-error").textContent = error.message;
}

async function load() {
  ({ data: classes } = await api(`/api/datasets/${dataset}/classes/`));
  render();
}

function row(c, index) {
  const tr = document.createElement("tr");
  tr.dataset.classId = c.id;
  tr.innerHTML = `<td class="mono">${index < 9 ? index + 1 : index === 9 ? 0 : ""}</td>
    <td><input type="color" value="${c.color}" ${canEdit ? "" : "disabled"} aria-label="Color"></td>
    <td><input class="class-name" value="" ${canEdit ? "" : "disabled"} aria-label="Name"></td>
    <td class="actions-cell">${canEdit ? '<button class="link up" title="Move up">↑</button> <button class="link down" title="Move down">↓</button>' : ""}</td>`;
  tr.querySelector(".class-name").value = c.name;
  const save = async () => {
    const name = tr.querySelector(".class-name").value;
    const color = tr.querySelector("input[type=color]").value;
    try {
      await api(`/api/classes/${c.id}/`, { method: "PATCH", json: { name, color } });
      $("class-error").hidden = true;
      await load();
    } catch (error) {
      fail(error);
    }
  };
  tr.querySelector(".class-name").addEventListener("change", save);
  tr.querySelector("input[type=color]").addEventListener("change", save);
  tr.querySelector(".up")?.addEventListener("click", () => move(index, -1));
  tr.querySelector(".down")?.addEventListener("click", () => move(index, 1));
  return tr;
}

function render() {
  const body = $("classes").querySelector("tbody");
  body.replaceChildren(...classes.map(row));
  if (!canEdit) return;
  const options = classes.map((c) => `<option value="${c.id}"></option>`).join("");
  for (const select of document.querySelectorAll("#change-class select[name=source], #change-class select[name=target]")) {
    select.innerHTML = options;
    [...select.options].forEach((option, i) => (option.textContent = classes[i].name));
  }
  if (classes.length > 1) document.querySelector("#change-class select[name=target]").selectedIndex = 1;
}

async function move(index, step) {
  const order = classes.map((c) => c.id);
  const other = index + step;
  if (other < 0 || other >= order.length) return;
  [order[index], order[other]] = [order[other], order[index]];
  ({ data: classes } = await api(`/api/datasets/${dataset}/classes/order/`, { method: "POST", json: { class_ids: order } }));
  render();
}

async function change(preview) {
  const form = new FormData($("change-class"));
  const json = { operation: form.get("operation"), source: Number(form.get("source")), preview };
  if (json.operation === "merge") json.target = Number(form.get("target"));
  const { data } = await api(`/api/datasets/${dataset}/classes/changes/`, { method: "POST", json });
  return data;
}

if (canEdit) {
  $("add-class").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api(`/api/datasets/${dataset}/classes/`, { method: "POST", json: { name: event.target.name.value } });
      event.target.reset();
      await load();
    } catch (error) {
      fail(error);
    }
  });
  $("change-class").operation.addEventListener("change", (event) => {
    $("target-row").hidden = event.target.value !== "merge";
  });
  $("change-class").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      pending = await change(true);
      $("preview").hidden = false;
      $("preview-text").textContent = pending.summary;
    } catch (error) {
      fail(error);
    }
  });
  $("apply").addEventListener("click", async () => {
    try {
      const done = await change(false);
      $("preview-text").textContent = `Done. ${done.summary}`;
      $("apply").hidden = true;
      await load();
      setTimeout(() => {
        $("preview").hidden = true;
        $("apply").hidden = false;
      }, 2500);
    } catch (error) {
      fail(error);
    }
  });
  $("cancel").addEventListener("click", () => ($("preview").hidden = true));
}

load();
