// The evaluation report's threshold, saved into a deployment of the job's model.
import { api } from "../datastore/api.js";
import { gettext, interpolate } from "../js/i18n.js";

const slider = document.getElementById("threshold");
const select = document.getElementById("threshold-deployment");
const status = document.getElementById("report-threshold-status");

document.getElementById("save-report-threshold").addEventListener("click", async () => {
  const option = select.selectedOptions[0];
  const threshold = Number(slider.value);
  try {
    const { data } = await api(option.dataset.url, { method: "PATCH", json: { threshold } });
    const saved = gettext("Saved: %(name)s now answers with threshold %(threshold)s.");
    status.textContent = interpolate(saved, { name: data.name, threshold: data.threshold.toFixed(2) }, true);
    status.classList.remove("error");
  } catch (error) {
    status.textContent = error.message;
    status.classList.add("error");
  }
});
