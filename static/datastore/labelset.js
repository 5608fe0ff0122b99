// The label-set editor: rename, recolor, reorder, add; merge and delete after a preview.
import { el, replace } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
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
  classes = (await api(`/api/datasets/${dataset}/classes/`)).data.results;
  render();
}

function row(c, index) {
  const tr = el("tr", { "data-class-id": c.id });
  const disabled = !canEdit;
  const name = el("input", { class: "class-name", value: c.name, disabled, "aria-label": gettext("Name") });
  const color = el("input", { type: "color", value: c.color, disabled, "aria-label": gettext("Color") });
  const moves = canEdit && [
    el("button", { class: "link up", title: gettext("Move up") }, "↑"), " ",
    el("button", { class: "link down", title: gettext("Move down") }, "↓"),
  ];
  tr.append(
    el("td", { class: "mono" }, index < 9 ? index + 1 : index === 9 ? 0 : ""),
    el("td", {}, color),
    el("td", {}, name),
    el("td", { class: "actions-cell" }, moves),
  );
  const save = async () => {
    try {
      await api(`/api/classes/${c.id}/`, { method: "PATCH", json: { name: name.value, color: color.value } });
      $("class-error").hidden = true;
      await load();
    } catch (error) {
      fail(error);
    }
  };
  name.addEventListener("change", save);
  color.addEventListener("change", save);
  tr.querySelector(".up")?.addEventListener("click", () => move(index, -1));
  tr.querySelector(".down")?.addEventListener("click", () => move(index, 1));
  return tr;
}

function render() {
  const body = $("classes").querySelector("tbody");
  body.replaceChildren(...classes.map(row));
  if (!canEdit) return;
  for (const select of document.querySelectorAll("#change-class select[name=source], #change-class select[name=target]")) {
    replace(select, classes.map((c) => el("option", { value: c.id }, c.name)));
  }
  if (classes.length > 1) document.querySelector("#change-class select[name=target]").selectedIndex = 1;
}

async function move(index, step) {
  const order = classes.map((c) => c.id);
  const other = index + step;
  if (other < 0 || other >= order.length) return;
  [order[index], order[other]] = [order[other], order[index]];
  const { data } = await api(`/api/datasets/${dataset}/classes/order/`, { method: "POST", json: { class_ids: order } });
  classes = data.results;
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
      $("preview-text").textContent = interpolate(gettext("Done. %(summary)s"), { summary: done.summary }, true);
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
