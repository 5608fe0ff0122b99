// The evaluation report's threshold, saved into a deployment of the job's model.
import { api } from "../datastore/api.js";

const slider = document.getElementById("threshold");
const select = document.getElementById("threshold-deployment");
const status = document.getElementById("report-threshold-status");

document.getElementById("save-report-threshold").addEventListener("click", async () => {
  const option = select.selectedOptions[0];
  const threshold = Number(slider.value);
  try {
    const { data } = await api(option.dataset.url, { method: "PATCH", json: { threshold } });
    status.textContent = `Saved: ${data.name} now answers with threshold ${data.threshold.toFixed(2)}.`;
    status.classList.remove("error");
  } catch (error) {
    status.textContent = error.message;
    status.classList.add("error");
  }
});
