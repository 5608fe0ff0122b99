// An OCR deployment's try-it answer: each text line the model read, outlined on the image
// with its text and confidence, and listed in reading order. Lines under the threshold are
// left out, as the endpoint leaves them out. Server text goes on the page with textContent
// (dom.js) and on the canvas with fillText; nothing parses markup.
import { colourOf, drawDetections } from "../js/boxes.js";
import { el, replace } from "../js/dom.js";
import { gettext, interpolate, ngettext } from "../js/i18n.js";

const percent = (score) => `${(100 * score).toFixed(0)}%`;

// Draws the lines scoring at least `least` on `canvas` over `image`, lists them in `list`;
// answers how many were shown.
export function drawLines(canvas, image, lines, least, list) {
  const shown = lines.filter((line) => line.score >= least);
  drawDetections(canvas, image, shown.map((line, i) => ({
    polygon: line.polygon, colour: colourOf(i), label: `${i + 1} ${line.text} ${percent(line.score)}`,
  })), { maxSide: 720 });
  replace(list, shown.map((line, i) => el("li", { class: "read-line", "data-score": line.score },
    el("span", { class: "swatch", style: { "--swatch": colourOf(i) } }),
    el("span", { class: "line-text", lang: "" }, line.text),
    el("span", { class: "probability" }, percent(line.score)))));
  return shown.length;
}

// The answer's summary line: how many lines reach the threshold.
export function linesSummary(lines, least, version) {
  const kept = lines.filter((line) => line.score >= least).length;
  const read = ngettext("%(kept)s of %(count)s line reaches %(threshold)s (model v%(version)s)",
    "%(kept)s of %(count)s lines reach %(threshold)s (model v%(version)s)", lines.length);
  return interpolate(read, { kept, count: lines.length, threshold: least.toFixed(2), version }, true);
}

export const NO_LINES = gettext("No text found in this image.");
