// The job form: the advanced panel follows the chosen model and preset, the weights list
// offers only weights that fit the chosen model, and a multi-label version shows its settings.
const data = JSON.parse(document.getElementById("form-data").textContent);
const form = document.getElementById("new-job");
const FIELDS = ["epochs", "batch_size", "learning_rate", "optimizer", "schedule", "weight_decay", "input_size", "seed", "device", "patience", "augment_flip", "augment_crop", "augment_color", "early_stopping"];

function architecture() {
  return form.elements.architecture.value;
}

function preset() {
  return form.querySelector('input[name="preset"]:checked')?.value ?? "balanced";
}

function fillFromPreset() {
  const values = data.presets[architecture()]?.[preset()];
  if (!values) return;
  for (const name of FIELDS) {
    const field = form.elements[name];
    if (!field) continue;
    if (field.type === "checkbox") field.checked = Boolean(values[name]);
    else field.value = String(values[name]);
  }
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

// Multi-label fields are sent only for a multi-label version (a single-label job refuses them).
function showTaskFields() {
  const multi = data.multi_label_versions.includes(Number(form.elements.dataset_version.value));
  const box = document.getElementById("multi-label-settings");
  box.hidden = !multi;
  for (const [name, value] of Object.entries(data.multi_label_defaults)) {
    const field = form.elements[name];
    field.disabled = !multi;
    if (multi && field.value === "") field.value = String(value);
  }
  document.body.dataset.task = multi ? "multi_label" : "classification";
}

form.elements.architecture.addEventListener("change", () => { fillFromPreset(); filterWeights(); });
form.elements.dataset_version.addEventListener("change", showTaskFields);
form.querySelectorAll('input[name="preset"]').forEach((radio) => radio.addEventListener("change", fillFromPreset));
filterWeights();
showTaskFields();
if (!form.querySelector(".errorlist")) fillFromPreset();
