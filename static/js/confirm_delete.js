// The one delete dialog. It fetches the object's delete preview (GET …/delete-preview/), says
// what goes with it ("Deletes 12 images, 30 labels, 1 version · 1.2 MB of files") or, when
// something blocks it, lists the blockers with links; it deletes only once confirmed. Every
// piece of server data goes on the page as text (js/dom.js), never as markup.
//
// Declarative use, on any page that loads this module:
//   <button data-delete-url="/api/versions/3/" data-preview-url="/api/versions/3/delete-preview/"
//           data-after="/datasets/1/versions/">Delete</button>
// (data-after: where to go once deleted; without it the page reloads.) From a script:
//   if (await confirmDelete({ previewUrl, deleteUrl })) { ... }
import { api, ApiError } from "../datastore/api.js";
import { el, replace } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

// makemessages finds ngettext() calls by their literal arguments, so each kind has its own.
function countText(key, count) {
  const forms = {
    samples: ngettext("%(count)s image", "%(count)s images", count),
    annotations: ngettext("%(count)s label", "%(count)s labels", count),
    versions: ngettext("%(count)s version", "%(count)s versions", count),
    label_exports: ngettext("%(count)s label export", "%(count)s label exports", count),
    datasets: ngettext("%(count)s dataset", "%(count)s datasets", count),
    jobs: ngettext("%(count)s training job", "%(count)s training jobs", count),
    exports: ngettext("%(count)s model export", "%(count)s model exports", count),
    weights: ngettext("%(count)s set of trained weights", "%(count)s sets of trained weights", count),
    reports: ngettext("%(count)s evaluation report", "%(count)s evaluation reports", count),
    log_lines: ngettext("%(count)s log line", "%(count)s log lines", count),
    deployments: ngettext("%(count)s deployment", "%(count)s deployments", count),
    traffic_records: ngettext("%(count)s traffic record", "%(count)s traffic records", count),
    members: ngettext("%(count)s membership", "%(count)s memberships", count),
    tokens: ngettext("%(count)s API token", "%(count)s API tokens", count),
  };
  return key in forms ? interpolate(forms[key], { count }, true) : `${count} ${key}`;
}

export function sizeText(bytes) {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const shown = unit === 0 ? String(value) : value.toFixed(value < 10 ? 1 : 0);
  return interpolate(gettext("%(size)s of files"), { size: `${shown} ${units[unit]}` }, true);
}

// "Deletes 12 images, 30 labels, 1 version · 1.2 MB of files" (counts of zero left out).
export function summaryText(summary) {
  const parts = Object.entries(summary.counts || {})
    .filter(([, count]) => count > 0)
    .map(([key, count]) => countText(key, count));
  const what = parts.length
    ? interpolate(gettext("Deletes %(what)s"), { what: parts.join(gettext(", ")) }, true)
    : gettext("Deletes nothing else.");
  return summary.bytes > 0 ? `${what} · ${sizeText(summary.bytes)}` : what;
}

function blockerList(blockers) {
  return el(
    "ul",
    { class: "delete-blockers" },
    blockers.map((b) =>
      el("li", {}, b.url ? el("a", { href: b.url }, b.name) : el("strong", {}, b.name), " — ", b.reason),
    ),
  );
}

function showBlockers(body, blockers, confirm) {
  replace(
    body,
    el("p", { class: "delete-refused" }, gettext("It cannot be deleted while these use it:")),
    blockerList(blockers),
  );
  confirm.remove(); // nothing to confirm (and .button would show a [hidden] one)
}

// Opens the dialog; resolves true once deleted, false when cancelled or refused.
export function confirmDelete({ previewUrl, deleteUrl, method = "DELETE", json, title }) {
  const body = el("div", { class: "delete-body" }, el("p", { class: "muted" }, gettext("Checking what goes with it…")));
  const cancel = el("button", { type: "button", class: "button secondary small", "data-role": "cancel" }, gettext("Cancel"));
  const confirm = el("button", { type: "button", class: "button danger small", "data-role": "confirm", disabled: true }, gettext("Delete"));
  const heading = el("h2", { class: "delete-title" }, title || gettext("Delete?"));
  const dialog = el(
    "dialog",
    { class: "confirm-delete", "aria-labelledby": "confirm-delete-title" },
    heading,
    body,
    el("div", { class: "delete-actions" }, cancel, confirm),
  );
  heading.id = "confirm-delete-title";
  document.body.append(dialog);
  dialog.showModal();

  return new Promise((resolve) => {
    let done = false;
    const finish = (deleted) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(deleted);
    };
    cancel.addEventListener("click", () => finish(false));
    dialog.addEventListener("cancel", () => finish(false)); // the Escape key

    api(previewUrl)
      .then(({ data }) => {
        if (!title) heading.textContent = interpolate(gettext("Delete %(name)s?"), { name: data.name }, true);
        if (data.blockers.length) {
          showBlockers(body, data.blockers, confirm);
          cancel.textContent = gettext("Close");
          return;
        }
        replace(
          body,
          el("p", { class: "delete-summary" }, summaryText(data)),
          el("p", { class: "muted small" }, gettext("This cannot be undone.")),
        );
        confirm.disabled = false;
        confirm.focus();
      })
      .catch((error) => replace(body, el("p", { class: "delete-error" }, error.message)));

    confirm.addEventListener("click", async () => {
      confirm.disabled = true;
      try {
        await api(deleteUrl, { method, json });
        finish(true);
      } catch (error) {
        const blockers = error instanceof ApiError ? error.body?.blockers : null;
        if (blockers?.length) showBlockers(body, blockers, confirm);
        else replace(body, el("p", { class: "delete-error" }, error.message));
        cancel.textContent = gettext("Close");
      }
    });
  });
}

function bind(button) {
  // Once: a page may reach this module by two URLs (a hashed one in its template, a plain one
  // through another module's import), and each copy runs.
  if (button.dataset.deleteBound) return;
  button.dataset.deleteBound = "1";
  button.addEventListener("click", async (event) => {
    event.preventDefault();
    const deleted = await confirmDelete({
      previewUrl: button.dataset.previewUrl,
      deleteUrl: button.dataset.deleteUrl,
      title: button.dataset.deleteTitle,
    });
    if (!deleted) return;
    if (button.dataset.after) window.location.assign(button.dataset.after);
    else window.location.reload();
  });
}

document.querySelectorAll("[data-delete-url][data-preview-url]").forEach(bind);
