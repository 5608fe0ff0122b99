// The zoo page's "Try on a photo" panel: sends the chosen photo to the architecture's try
// endpoint and lists the ImageNet top-5 with their probabilities. Every value from the server
// goes on the page as text (dom.js); nothing here parses markup.
import { api } from "../datastore/api.js";
import { el, replace } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";

const form = document.getElementById("try-form");

function percent(probability) {
  return `${(probability * 100).toFixed(1)}%`;
}

function showResults(list, answer) {
  replace(
    list,
    answer.top5.map((entry) =>
      el(
        "li",
        { class: "try-class", "data-index": String(entry.index) },
        el("span", { class: "probability" }, percent(entry.probability)),
        el("span", { class: "class-name" }, entry.name),
        el("div", { class: "bar", style: { width: percent(Math.max(entry.probability, 0.01)) } }),
      ),
    ),
  );
}

function showPreview(file) {
  const old = form.parentElement.querySelector(".try-preview");
  if (old) old.remove();
  const image = el("img", { class: "try-preview", alt: file.name, src: URL.createObjectURL(file) });
  form.after(image);
}

async function classify(event) {
  event.preventDefault();
  const status = document.getElementById("try-status");
  const list = document.getElementById("try-results");
  const option = document.getElementById("try-architecture").selectedOptions[0];
  const file = document.getElementById("try-image").files[0];
  if (!option || !file) return;
  const body = new FormData();
  body.append("image", file);
  status.textContent = interpolate(gettext("Classifying with %(model)s…"), { model: option.textContent }, true);
  replace(list);
  showPreview(file);
  try {
    const { data } = await api(option.dataset.url, { method: "POST", body });
    showResults(list, data);
    const answered = { model: option.textContent, weights: data.weights, ms: data.elapsed_ms };
    status.textContent = interpolate(gettext("%(model)s (%(weights)s), answered in %(ms)s ms:"), answered, true);
  } catch (error) {
    status.textContent = error.message;
  }
}

if (form) {
  form.addEventListener("submit", classify);
  document.querySelectorAll(".try-link").forEach((link) =>
    link.addEventListener("click", () => {
      document.getElementById("try-architecture").value = link.dataset.architecture;
    }),
  );
}
