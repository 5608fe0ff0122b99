// Polls running exports and swaps in their download link when they finish.
import { el, replace } from "../js/dom.js";
import { gettext, interpolate } from "../js/i18n.js";
import { statusLabel } from "../js/statuses.js";
import { api } from "./api.js";

async function poll(row) {
  for (;;) {
    const { data } = await api(`/api/label-exports/${row.dataset.export}/`);
    const label = data.status === "running"
      ? interpolate(gettext("Running %(percent)s%"), { percent: data.percent }, true)
      : statusLabel(data.status);
    replace(row.querySelector(".export-status"), el("span", { class: `badge status-${data.status}` }, label));
    if (data.status === "succeeded") {
      const link = el("a", { href: data.download_url }, interpolate(gettext("Download (%(size)s MB)"), { size: (data.size_bytes / 1e6).toFixed(1) }, true));
      replace(row.querySelector(".export-link"), link);
      return;
    }
    if (data.status === "failed") {
      row.querySelector(".export-status").append(` ${data.error}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

document.querySelectorAll("tr[data-export]").forEach((row) => {
  if (row.dataset.status === "queued" || row.dataset.status === "running") poll(row);
});
