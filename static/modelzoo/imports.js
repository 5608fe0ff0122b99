// The zoo page's "Recent imports": while an import is queued or running, its stage follows the
// API, and the page reloads once it ends, so its weights (or its reason) show in place.
import { api } from "../datastore/api.js";
import { gettext } from "../js/i18n.js";

const POLL_MS = 1500;

async function follow(item) {
  const stage = item.querySelector(".stage");
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const { data } = await api(`/api/weight-imports/${item.dataset.import}/`);
    if (data.status === "succeeded" || data.status === "failed") {
      window.location.reload();
      return;
    }
    if (stage) stage.textContent = data.stage || gettext("Waiting for a worker");
  }
}

document
  .querySelectorAll(".weight-import[data-status=queued], .weight-import[data-status=running]")
  .forEach((item) => follow(item));
