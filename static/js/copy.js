// Copy buttons: <button data-copy-target="element-id">. Falls back to selecting the text
// where the clipboard API is unavailable (plain http on a LAN host is not a secure context).
import { gettext } from "./i18n.js";

for (const button of document.querySelectorAll("[data-copy-target]")) {
  button.addEventListener("click", async () => {
    const target = document.getElementById(button.dataset.copyTarget);
    const text = target.textContent.trim();
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = gettext("Copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(target);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = gettext("Press Ctrl+C");
    }
  });
}
