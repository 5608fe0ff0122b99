// How a job's status reads on a page. The API's value ("running") stays what data-status
// attributes, classes and requests carry; people read these words, in their language.
import { gettext } from "./i18n.js";

// The status as a badge or a heading says it: "Running".
export function statusLabel(status) {
  const labels = {
    queued: gettext("Queued"),
    running: gettext("Running"),
    succeeded: gettext("Succeeded"),
    failed: gettext("Failed"),
    cancelled: gettext("Cancelled"),
  };
  return labels[status] ?? status[0].toUpperCase() + status.slice(1);
}

// The status as a word in a table cell or a line of text: "running".
export function statusWord(status) {
  const words = {
    queued: gettext("queued"),
    running: gettext("running"),
    succeeded: gettext("succeeded"),
    failed: gettext("failed"),
    cancelled: gettext("cancelled"),
  };
  return words[status] ?? status;
}
