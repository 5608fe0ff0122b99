// The job form: the advanced panel follows the chosen model and preset, and the weights list
// offers only weights that fit the chosen model.
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

form.elements.architecture.addEventListener("change", () => { fillFromPreset(); filterWeights(); });
form.querySelectorAll('input[name="preset"]').forEach((radio) => radio.addEventListener("change", fillFromPreset));
filterWeights();
if (!form.querySelector(".errorlist")) fillFromPreset();
