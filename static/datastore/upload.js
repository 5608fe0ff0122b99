// Drag-and-drop upload of files, folders and zips: chunked, resumable, with live progress,
// then the import, whose progress is polled until it ends.
import { el, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";
import { statusLabel, statusWord } from "../js/statuses.js";
import { ApiError, api, csrfToken, datasetId } from "./api.js";

const CHUNK = 8 * 1024 * 1024;
const PARALLEL = 4;
const dataset = datasetId();
const resumeKey = `sampan-upload-${dataset}`;
const $ = (id) => document.getElementById(id);
let chosen = []; // [{name, file}]

function describe(entries) {
  const bytes = entries.reduce((sum, e) => sum + e.file.size, 0);
  const format = ngettext("%(count)s file, %(size)s MB", "%(count)s files, %(size)s MB", entries.length);
  return interpolate(format, { count: entries.length, size: (bytes / 1e6).toFixed(1) }, true);
}

function choose(entries) {
  chosen = entries.filter((e) => !e.name.split("/").some((part) => part.startsWith(".")));
  $("selection").textContent = chosen.length
    ? interpolate(gettext("Chosen: %(files)s."), { files: describe(chosen) }, true)
    : gettext("Nothing chosen yet.");
  $("start").disabled = chosen.length === 0;
}

async function readEntry(entry, prefix = "") {
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    return [{ name: prefix + file.name, file }];
  }
  const reader = entry.createReader();
  const children = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    children.push(...batch);
  }
  const nested = await Promise.all(children.map((c) => readEntry(c, `${prefix}${entry.name}/`)));
  return nested.flat();
}

async function dropped(event) {
  event.preventDefault();
  $("dropzone").classList.remove("over");
  const entries = [...event.dataTransfer.items].map((item) => item.webkitGetAsEntry()).filter(Boolean);
  choose((await Promise.all(entries.map((e) => readEntry(e)))).flat());
}

async function openSession() {
  const saved = localStorage.getItem(resumeKey);
  if (saved) {
    try {
      const { data } = await api(`/api/uploads/${saved}/`);
      if (data.status === "open") return data.id;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  const { data } = await api(`/api/datasets/${dataset}/uploads/`, { method: "POST", json: {} });
  localStorage.setItem(resumeKey, data.id);
  return data.id;
}

async function declare(session) {
  const byName = new Map();
  for (let i = 0; i < chosen.length; i += 5000) {
    const files = chosen.slice(i, i + 5000).map((e) => ({ name: e.name, size: e.file.size }));
    const { data } = await api(`/api/uploads/${session}/files/`, { method: "POST", json: { files } });
    data.forEach((f) => byName.set(f.name, f));
  }
  return byName;
}

// One chunk with XMLHttpRequest, whose upload events move the bar while the bytes leave.
function putChunk(url, blob, offset, onSent) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.setRequestHeader("Upload-Offset", String(offset));
    xhr.setRequestHeader("X-CSRFToken", csrfToken());
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => onSent(event.loaded);
    xhr.onload = () => {
      const body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new Error(gettext("The connection was interrupted.")));
    xhr.send(blob);
  });
}

async function sendFile(session, remote, file, onBytes) {
  let offset = remote.received;
  onBytes(offset);
  let failures = 0;
  while (offset < file.size) {
    const end = Math.min(offset + CHUNK, file.size);
    let sent = 0;
    const url = `/api/uploads/${session}/files/${remote.id}/`;
    try {
      const data = await putChunk(url, file.slice(offset, end), offset, (loaded) => {
        onBytes(loaded - sent);
        sent = loaded;
      });
      onBytes(data.received - offset - sent);
      offset = data.received;
      failures = 0;
    } catch (error) {
      onBytes(-sent);
      const current = error instanceof ApiError && error.status === 409 && error.body?.current;
      if (current && "received" in current) {
        const moved = current.received !== offset;
        onBytes(current.received - offset);
        offset = current.received; // resume where the server says the file ends
        if (moved) continue;
        // Not moved: another tab is writing this file right now. Wait for it, not in a loop.
        if (++failures > 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (++failures > 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** failures));
    }
  }
}

async function upload(session, remoteByName) {
  const total = chosen.reduce((sum, e) => sum + e.file.size, 0) || 1;
  let sent = 0;
  const show = () => {
    const percent = Math.min(100, Math.floor((100 * sent) / total));
    $("upload-progress").value = percent;
    const megabytes = { percent, sent: (sent / 1e6).toFixed(1), total: (total / 1e6).toFixed(1) };
    $("upload-text").textContent = interpolate(gettext("%(percent)s% · %(sent)s of %(total)s MB"), megabytes, true);
  };
  const queue = [...chosen];
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      await sendFile(session, remoteByName.get(entry.name), entry.file, (bytes) => {
        sent += bytes;
        show();
      });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  sent = total;
  show();
}

async function follow(job) {
  $("import-block").hidden = false;
  for (;;) {
    const { data } = await api(`/api/imports/${job}/`);
    $("import-progress").value = data.percent;
    $("import-stage").textContent = data.stage || statusWord(data.status);
    $("import-text").textContent = data.progress_total
      ? interpolate(gettext("%(percent)s% · %(done)s of %(total)s files"),
        { percent: data.percent, done: data.progress_done, total: data.progress_total }, true)
      : `${data.percent}%`;
    if (data.status === "succeeded" || data.status === "failed") return data;
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

// How each outcome looks: an import that succeeded but added nothing, or left files out, is
// not a success to the person who uploaded the files.
const TONES = { imported: "ok", partly_imported: "warning", nothing_imported: "failed", failed: "failed" };

function reasonList(reasons) {
  return reasons?.length ? el("ul", { class: "reasons" }, reasons.map((r) => el("li", {}, r))) : null;
}

function report(job) {
  const box = $("outcome");
  box.hidden = false;
  const outcome = job.outcome ?? "failed";
  box.className = `outcome ${TONES[outcome] ?? "failed"}`;
  box.dataset.outcome = outcome;
  if (outcome === "failed") {
    replace(box,
      el("p", {}, el("strong", {}, gettext("The import failed; the dataset is unchanged."))),
      el("p", { class: "reason" }, job.error),
      el("p", { class: "fix muted" }, job.error_fix));
    return;
  }
  const counts = (job.report && job.report.counts) || {};
  const added = outcome === "nothing_imported"
    ? gettext("Nothing was imported")
    : interpolate(ngettext("Imported %(count)s image", "Imported %(count)s images", job.samples_added), { count: job.samples_added }, true);
  const skipped = job.files_skipped ? ` · ${interpolate(gettext("%(count)s skipped"), { count: job.files_skipped }, true)}` : "";
  const errors = counts.error || 0;
  const warnings = counts.warning || 0;
  const problems = errors || warnings
    ? ` · ${interpolate(ngettext("%(count)s error", "%(count)s errors", errors), { count: errors }, true)}, `
      + interpolate(ngettext("%(count)s warning", "%(count)s warnings", warnings), { count: warnings }, true)
    : "";
  const note = job.format_note && outcome !== "nothing_imported" ? ` (${job.format_note})` : "";
  replace(box,
    el("p", {}, el("strong", {}, added), `${note}${skipped}${problems}`),
    reasonList(job.outcome_reasons),
    el("p", {},
      outcome === "nothing_imported" ? null : el("a", { class: "button small", href: `/datasets/${dataset}/` }, gettext("Open the gallery")), " ",
      el("a", { class: "button small secondary", href: `/datasets/${dataset}/report/?import=${job.id}` }, gettext("Read the report"))));
}

// "Recent imports", redrawn from the API after an import, in the template's shape.
const RECENT = 5;
// As the server writes it ("Dec 7, 14:58"): the page's language, a 24-hour clock.
const when = (iso) => new Date(iso).toLocaleString(document.documentElement.lang || [],
  { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

function recentImport(job) {
  const finished = job.outcome !== "pending";
  const label = finished ? job.outcome_display : statusLabel(job.status);
  return el("div", { class: `small recent-import outcome-${job.outcome}`, "data-job": job.id, "data-status": job.status, "data-outcome": job.outcome },
    el("p", {},
      el("span", { class: `badge outcome-${job.outcome}` }, label),
      ` ${when(job.created_at)} · ${interpolate(gettext("%(count)s added"), { count: job.samples_added }, true)}`,
      finished && [" · ", el("a", { href: `/datasets/${dataset}/report/?import=${job.id}` }, gettext("report"))]),
    reasonList(job.outcome_reasons));
}

async function refreshRecent() {
  const list = $("recent-imports");
  const { data } = await api(`${list.dataset.api}?page_size=${RECENT}`);
  replace(list, data.results.length ? data.results.map(recentImport) : el("p", { class: "muted small" }, gettext("None yet.")));
  list.dataset.refreshed = String(Number(list.dataset.refreshed || 0) + 1);
}

async function start() {
  $("start").disabled = true;
  $("upload-block").hidden = false;
  $("outcome").hidden = true;
  $("resume-note").hidden = true;
  try {
    const session = await openSession();
    await upload(session, await declare(session));
    const { data } = await api(`/api/uploads/${session}/import/`, {
      method: "POST",
      json: { format: $("format").value },
    });
    localStorage.removeItem(resumeKey);
    report(await follow(data.id));
  } catch (error) {
    report({ status: "failed", error: error.message, error_fix: gettext("Fix the problem and press the button again: finished files are not sent twice.") });
    $("start").disabled = false;
  }
  await refreshRecent().catch((error) => console.error(error));
}

// An upload cut off before its import (a closed tab, a refresh) resumes when the same files
// are chosen again: say so after a reload, or nobody knows it is there.
async function showUnfinished() {
  const saved = localStorage.getItem(resumeKey);
  if (!saved) return;
  let session;
  try {
    ({ data: session } = await api(`/api/uploads/${saved}/`));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  if (session?.status !== "open" || !session.files.length) {
    localStorage.removeItem(resumeKey);
    return;
  }
  const size = session.files.reduce((sum, f) => sum + f.size, 0);
  const received = session.files.reduce((sum, f) => sum + f.received, 0);
  const counts = { files: describe(session.files.map((f) => ({ name: f.name, file: { size: f.size } }))), received: (received / 1e6).toFixed(1) };
  const note = $("resume-note");
  note.textContent = interpolate(gettext("An unfinished upload is waiting: %(files)s, %(received)s MB received. Choose the same files again to send only the rest."), counts, true);
  note.hidden = false;
  note.dataset.upload = session.id;
  note.dataset.received = String(received);
  note.dataset.size = String(size);
}

if ($("dropzone")) {
  const zone = $("dropzone");
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", dropped);
  $("pick-files").addEventListener("change", (e) => choose([...e.target.files].map((file) => ({ name: file.name, file }))));
  $("pick-folder").addEventListener("change", (e) =>
    choose([...e.target.files].map((file) => ({ name: file.webkitRelativePath || file.name, file }))),
  );
  $("start").addEventListener("click", start);
  // An import started before this page was (re)loaded: keep showing its progress.
  const running = document.querySelector(".recent-import[data-status=queued], .recent-import[data-status=running]");
  if (running) follow(running.dataset.job).then(report).then(refreshRecent);
  showUnfinished().catch((error) => console.error(error));
}
