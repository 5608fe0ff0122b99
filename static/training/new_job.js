// The job form: the advanced panel follows the chosen model, preset and starting weights (the
// fine-tuning recipe when they are pretrained), the weights list offers only weights that fit
// the chosen model, each version proposes the model that suits its images, and a multi-label
// version shows its own settings.
const data = JSON.parse(document.getElementById("form-data").textContent);
const form = document.getElementById("new-job");
const FIELDS = [
  "epochs", "batch_size", "learning_rate", "optimizer", "schedule", "weight_decay", "input_size", "seed",
  "device", "patience", "augment_flip", "augment_crop", "augment_color", "early_stopping",
  "freeze_epochs", "backbone_lr_scale", "label_smoothing",
];

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
  document.getElementById("fine-tune-settings").dataset.pretrained = String(pretrained());
}

function filterWeights() {
  const select = form.elements.weights;
  for (const option of select.options) {
    const value = option.value;
    const fits = value === "scratch"
      || value === `shipped:${architecture()}`
      || (value.startsWith("saved:") && data.weights_arch[value] === architecture());
    option.hidden = !fits;
    option.disabled = !fits;
  }
  if (select.selectedOptions[0]?.disabled) select.value = "scratch";
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
  const multi = data.multi_label_versions.includes(Number(form.elements.dataset_version.value));
  document.getElementById("multi-label-settings").hidden = !multi;
  for (const [name, value] of Object.entries(data.multi_label_defaults)) {
    const field = form.elements[name];
    field.disabled = !multi;
    if (multi && field.value === "") field.value = String(value);
  }
  form.elements.label_smoothing.disabled = multi;
  document.getElementById("label-smoothing-row").hidden = multi;
  document.body.dataset.task = multi ? "multi_label" : "classification";
}

form.elements.architecture.addEventListener("change", () => { filterWeights(); fillFromPreset(); });
form.elements.weights.addEventListener("change", fillFromPreset);
form.elements.dataset_version.addEventListener("change", () => { showTaskFields(); propose(); });
form.querySelectorAll('input[name="preset"]').forEach((radio) => radio.addEventListener("change", fillFromPreset));
filterWeights();
showTaskFields();
if (!form.querySelector(".errorlist")) fillFromPreset();
document.getElementById("suggestion").textContent = data.suggestions[form.elements.dataset_version.value]?.reason ?? "";
