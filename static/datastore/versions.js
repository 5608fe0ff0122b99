// Polls running exports and swaps in their download link when they finish.
import { api } from "./api.js";

async function poll(row) {
  for (;;) {
    const { data } = await api(`/api/exports/${row.dataset.export}/`);
    const label = data.status === "running" ? `Running ${data.percent}%` : data.status[0].toUpperCase() + data.status.slice(1);
    row.querySelector(".export-status").innerHTML = `<span class="badge status-${data.status}">${label}</span>`;
    if (data.status === "succeeded") {
      const link = document.createElement("a");
      link.href = data.download_url;
      link.textContent = `Download (${(data.size_bytes / 1e6).toFixed(1)} MB)`;
      row.querySelector(".export-link").replaceChildren(link);
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
