// The job form: the advanced panel follows the chosen model, preset and starting weights (the
// fine-tuning recipe when they are pretrained), the weights list offers only weights that fit
// the chosen model, each version proposes the model that suits its images and offers only the
// models of its task, a multi-label or detection version shows its own settings, and a version
// that cannot train says why.
import { el, replace } from "../js/dom.js";
import { gettext } from "../js/i18n.js";

const data = JSON.parse(document.getElementById("form-data").textContent);
const form = document.getElementById("new-job");
const FIELDS = [
  "epochs", "batch_size", "learning_rate", "optimizer", "schedule", "weight_decay", "input_size", "seed",
  "device", "patience", "augment_flip", "augment_crop", "augment_color", "early_stopping",
  "freeze_epochs", "backbone_lr_scale", "label_smoothing", "augment_expand", "multi_scale",
];
// The architectures a version's task trains (modelzoo.catalog.TRAINS_ON).
const TRAINS_ON = { classification: "classification", multi_label: "classification", detection: "detection", ocr: "ocr" };

function versionTask() {
  return data.version_tasks[form.elements.dataset_version.value] ?? "classification";
}

function architecture() {
  return form.elements.architecture.value;
}

function preset() {
  return form.querySelector('input[name="preset"]:checked')?.value ?? "balanced";
}

function pretrained() {
  return form.elements.weights.value !== "scratch";
}

function fillFromPreset() {
  const table = pretrained() ? data.fine_tune_presets : data.presets;
  const values = table[architecture()]?.[preset()];
  if (!values) return;
  for (const name of FIELDS) {
    const field = form.elements[name];
    if (!field || !(name in values) || field.disabled) continue;
    if (field.type === "checkbox") field.checked = Boolean(values[name]);
    else field.value = String(values[name]);
  }
  // What the preset turns off for a version this small (multi-scale training, say).
  const limits = data.dataset_limits[form.elements.dataset_version.value] ?? {};
  for (const [name, value] of Object.entries(limits)) {
    const field = form.elements[name];
    if (field && !field.disabled && field.type === "checkbox") field.checked = Boolean(value);
  }
  document.getElementById("fine-tune-settings").dataset.pretrained = String(pretrained());
}

// Only the models of the version's task are offered (a classifier cannot learn boxes); a model
// of its task that it cannot train (a ready detector of other classes) is shown disabled, and
// the form says why.
function filterArchitectures() {
  const select = form.elements.architecture;
  const wanted = TRAINS_ON[versionTask()];
  const refused = data.architecture_problems[form.elements.dataset_version.value] ?? {};
  const reasons = [];
  for (const option of select.options) {
    const fits = data.architecture_tasks[option.value] === wanted;
    const reason = fits ? refused[option.value] : undefined;
    option.hidden = !fits;
    option.disabled = !fits || reason !== undefined;
    option.title = reason ?? "";
    if (reason !== undefined) reasons.push(el("li", {}, `${option.textContent}: ${reason}`));
  }
  if (select.selectedOptions[0]?.disabled) {
    const first = [...select.options].find((o) => !o.disabled);
    if (first) select.value = first.value;
  }
  const box = document.getElementById("architecture-problems");
  box.hidden = reasons.length === 0;
  replace(box, reasons.length ? [el("p", {}, gettext("Not available for this version:")), el("ul", {}, reasons)] : []);
}

// A version nothing can train says why, and the job cannot be started from it.
// An OCR version shows why the chosen parts cannot train (a version trains when one part can).
function showProblems() {
  const version = form.elements.dataset_version.value;
  const byPart = data.part_problems[version];
  const parts = versionTask() === "ocr" && byPart ? form.elements.parts.value.split(",") : [];
  const problems = byPart ? parts.flatMap((part) => byPart[part] ?? []) : (data.problems[version] ?? []);
  const box = document.getElementById("version-problems");
  box.hidden = problems.length === 0;
  replace(box, problems.length ? [el("p", {}, gettext("This version cannot train yet:")), el("ul", {}, problems.map((p) => el("li", {}, p)))] : []);
  document.getElementById("start").disabled = problems.length > 0;
}

function filterWeights() {
  const select = form.elements.weights;
  for (const option of select.options) {
    const value = option.value;
    // A model that only fine-tunes (the OCR recognizer) has no random start to offer.
    const fits = (value === "scratch" && !data.fine_tune_only.includes(architecture()))
      || value === `shipped:${architecture()}`
      || (value.startsWith("saved:") && data.weights_arch[value] === architecture());
    option.hidden = !fits;
    option.disabled = !fits;
  }
  if (select.selectedOptions[0]?.disabled) select.value = [...select.options].find((o) => !o.disabled)?.value ?? "scratch";
}

// The model that suits the version's images: a pretrained network for photos, a small one for
// digits. It is a proposal: the person may pick another model afterwards.
function propose() {
  const proposal = data.suggestions[form.elements.dataset_version.value];
  const note = document.getElementById("suggestion");
  note.textContent = proposal ? proposal.reason : "";
  if (!proposal) return;
  const select = form.elements.architecture;
  if ([...select.options].some((o) => o.value === proposal.architecture)) select.value = proposal.architecture;
  filterWeights();
  const weights = form.elements.weights;
  if ([...weights.options].some((o) => o.value === proposal.weights && !o.disabled)) weights.value = proposal.weights;
  fillFromPreset();
}

// Multi-label fields are sent only for a multi-label version, and single-label ones (label
// smoothing) only for a single-label one: each job refuses the other's.
function showTaskFields() {
  const task = versionTask();
  const multi = task === "multi_label";
  const detection = task === "detection";
  document.getElementById("multi-label-settings").hidden = !multi;
  for (const [name, value] of Object.entries(data.multi_label_defaults)) {
    const field = form.elements[name];
    field.disabled = !multi;
    if (multi && field.value === "") field.value = String(value);
  }
  document.getElementById("detection-settings").hidden = !detection;
  for (const name of ["augment_expand", "multi_scale"]) form.elements[name].disabled = !detection;
  const ocr = task === "ocr";
  document.getElementById("ocr-settings").hidden = !ocr;
  for (const [name, value] of Object.entries(data.ocr_defaults)) {
    const field = form.elements[name];
    field.disabled = !ocr;
    if (ocr && field.value === "") field.value = Array.isArray(value) ? value.join(",") : String(value);
  }
  const smoothing = task === "classification";
  form.elements.label_smoothing.disabled = !smoothing;
  document.getElementById("label-smoothing-row").hidden = !smoothing;
  document.body.dataset.task = task;
  filterArchitectures();
  showProblems();
}

form.elements.architecture.addEventListener("change", () => { filterWeights(); fillFromPreset(); });
form.elements.weights.addEventListener("change", fillFromPreset);
form.elements.parts.addEventListener("change", showProblems);
form.elements.dataset_version.addEventListener("change", () => { showTaskFields(); propose(); });
form.querySelectorAll('input[name="preset"]').forEach((radio) => radio.addEventListener("change", fillFromPreset));
showTaskFields();
filterWeights();
if (!form.querySelector(".errorlist")) fillFromPreset();
document.getElementById("suggestion").textContent = data.suggestions[form.elements.dataset_version.value]?.reason ?? "";
