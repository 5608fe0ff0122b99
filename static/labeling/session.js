// What both labeling pages share: the strip of samples and moving through it, claiming the
// next unlabeled sample, autosave with revisions, undo/redo, and the progress counter.
import { ApiError, api } from "../datastore/api.js";
import { confirmDelete } from "../js/confirm_delete.js";
import { gettext, interpolate } from "../js/i18n.js";

const PAGE = 40;

export class LabelingSession {
  constructor(config, { onShow, onStatus }) {
    this.config = config;
    this.onShow = onShow; // (sample) => void: draw the current sample
    this.onStatus = onStatus; // (text, kind) => void
    this.samples = []; // the loaded window, in id order
    this.index = -1;
    this.next = "";
    this.previous = "";
    this.undoStack = [];
    this.redoStack = [];
    this.timers = new Map(); // sample id -> pending autosave timer
    this.inflight = new Map(); // sample id -> promise of the save in progress
    this.pendingSamples = new Map(); // sample id -> sample with an autosave scheduled
    this.labeled = config.labeled;
    this.total = config.total;
  }

  get current() {
    return this.samples[this.index] ?? null;
  }

  async load(url, keep = "first") {
    const { data } = await api(url);
    if (!data.results.length && this.samples.length) {
      if (keep === "last") this.previous = "";
      else this.next = "";
      return false; // nothing that way: stay where we are
    }
    this.samples = data.results;
    this.next = data.next;
    this.previous = data.previous;
    this.index = this.samples.length ? (keep === "last" ? this.samples.length - 1 : 0) : -1;
    return true;
  }

  listUrl(params) {
    const query = new URLSearchParams({ page_size: PAGE, ...params });
    return `/api/datasets/${this.config.dataset}/samples/?${query}`;
  }

  async start() {
    if (this.config.start) await this.open(this.config.start);
    else if (!(await this.claimNext())) await this.load(this.listUrl({}));
    this.show();
  }

  async open(sampleId) {
    await this.load(this.listUrl({ start: sampleId }));
    await this.prependPrevious();
    this.show();
  }

  // Opening at a sample shows the page before it too, so the strip has context both ways.
  async prependPrevious() {
    if (!this.previous) return;
    const { data } = await api(this.previous);
    this.samples = [...data.results, ...this.samples];
    this.index += data.results.length;
    this.previous = data.previous;
  }

  async claimNext() {
    this.flush();
    const after = this.current ? this.current.id : 0;
    const { status, data } = await api(`/api/datasets/${this.config.dataset}/claim/`, {
      method: "POST",
      json: { after },
    });
    if (status === 204) {
      this.onStatus(gettext("Everything is labeled."), "done");
      return false;
    }
    await this.load(this.listUrl({ start: data.id }));
    await this.prependPrevious();
    this.show();
    return true;
  }

  async move(step) {
    // Save what changed on the image being left, without waiting: a fast labeler's next key
    // must land on the next image, not on this one.
    this.flush();
    const target = this.index + step;
    if (target >= 0 && target < this.samples.length) this.index = target;
    else if (step > 0 && this.next) {
      if (!(await this.load(this.next, "first"))) return;
    } else if (step < 0 && this.previous) {
      if (!(await this.load(this.previous, "last"))) return;
    } else return;
    this.show();
  }

  show() {
    if (this.current) this.onShow(this.current);
    this.updateUrl();
  }

  updateUrl() {
    if (!this.current) return;
    const url = new URL(window.location.href);
    url.searchParams.set("sample", this.current.id);
    window.history.replaceState(null, "", url);
  }

  find(sampleId) {
    return this.samples.find((s) => s.id === sampleId) ?? null;
  }

  // Record a change of a sample's labels (an undoable step), then autosave it.
  change(sample, after, { record = true } = {}) {
    const before = { class_ids: [...sample.class_ids], boxes: sample.boxes.map((b) => ({ ...b })), labeled: sample.labeled };
    if (record) {
      this.undoStack.push([{ id: sample.id, before, after }]);
      this.redoStack = [];
    }
    this.apply(sample, after);
  }

  async changeMany(steps) {
    this.undoStack.push(steps);
    this.redoStack = [];
    for (const step of steps) this.apply(await this.resolve(step.id), step.after);
  }

  // A sample of an undo step may have scrolled out of the loaded window: fetch it again.
  async resolve(sampleId) {
    return this.find(sampleId) ?? (await api(`/api/samples/${sampleId}/`)).data;
  }

  apply(sample, labels) {
    const wasLabeled = sample.labeled;
    sample.class_ids = [...labels.class_ids];
    sample.boxes = labels.boxes.map((b) => ({ ...b }));
    sample.labeled = labels.labeled ?? (sample.class_ids.length > 0 || sample.boxes.length > 0);
    if (wasLabeled !== undefined && wasLabeled !== sample.labeled) this.labeled += sample.labeled ? 1 : -1;
    this.schedule(sample);
    if (this.current && this.current.id === sample.id) this.onShow(sample);
  }

  async undo() {
    const steps = this.undoStack.pop();
    if (!steps) return;
    this.redoStack.push(steps);
    for (const step of steps) this.apply(await this.resolve(step.id), step.before);
  }

  async redo() {
    const steps = this.redoStack.pop();
    if (!steps) return;
    this.undoStack.push(steps);
    for (const step of steps) this.apply(await this.resolve(step.id), step.after);
  }

  schedule(sample, delay = 300) {
    clearTimeout(this.timers.get(sample.id));
    this.pendingSamples.set(sample.id, sample);
    this.onStatus(gettext("Unsaved changes…"), "pending");
    this.timers.set(sample.id, setTimeout(() => this.save(sample), delay));
  }

  async flush() {
    const pending = [...this.timers.keys()];
    for (const id of pending) {
      clearTimeout(this.timers.get(id));
      this.timers.delete(id);
      const sample = this.pendingSamples.get(id);
      if (sample) this.save(sample);
    }
    await Promise.all([...this.inflight.values()]);
  }

  async save(sample) {
    this.timers.delete(sample.id);
    this.pendingSamples.delete(sample.id);
    const previous = this.inflight.get(sample.id);
    if (previous) await previous; // one save per sample at a time, in order
    const body = {
      revision: sample.revision,
      class_ids: sample.class_ids,
      boxes: sample.boxes.map(({ class_id, x, y, w, h }) => ({ class_id, x, y, w, h })),
      labeled: sample.labeled,
    };
    const request = api(`/api/samples/${sample.id}/labels/`, { method: "PUT", json: body })
      .then(({ data }) => {
        sample.revision = data.revision;
        if (!this.timers.size) this.onStatus(gettext("All changes saved"), "saved");
      })
      .catch((error) => {
        if (error instanceof ApiError && error.status === 409 && error.body?.current) {
          Object.assign(sample, error.body.current); // someone else saved: show their labels
          this.onStatus(gettext("Someone else changed this image; their labels are shown."), "conflict");
          if (this.current && this.current.id === sample.id) this.onShow(sample);
        } else {
          this.onStatus(interpolate(gettext("Not saved: %(reason)s"), { reason: error.message }, true), "error");
        }
      })
      .finally(() => this.inflight.delete(sample.id));
    this.inflight.set(sample.id, request);
    return request;
  }
}

export function progressText(session) {
  const percent = session.total ? Math.round((100 * session.labeled) / session.total) : 0;
  return interpolate(gettext("%(labeled)s of %(total)s labeled (%(percent)s%)"), { labeled: session.labeled, total: session.total, percent }, true);
}

// Also true while a dialog is open (the delete dialog): its keys are not labeling shortcuts.
export function isTyping(event) {
  const tag = event.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || Boolean(event.target.closest?.("dialog[open]"));
}

// The page's "Delete this image" button: the dialog for the image shown; once it is deleted the
// page opens at the image after it (the gallery's `start` begins at the first id from there).
export function bindDeleteCurrent(session) {
  const button = document.getElementById("delete-sample");
  if (!button) return;
  button.addEventListener("click", async () => {
    const sample = session.current;
    if (!sample) return;
    session.flush();
    const url = `/api/samples/${sample.id}/`;
    if (await confirmDelete({ previewUrl: `${url}delete-preview/`, deleteUrl: url })) {
      window.location.reload();
    }
  });
}
