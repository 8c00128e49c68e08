// A tablet without control (body.view-only, set by the pairing corner) watches: every control
// that would change the game is disabled for real (disabled and aria-disabled, so it neither
// responds nor reads as usable), while what only shows something (a card's sheet, a tab, the
// screen buttons) keeps working; one quiet line says how to get control.
import { $ } from "./dom.js";

// Controls that change the table live in these regions; these ones only show something.
const REGIONS = "main, header.bar, dialog#sheet";
const CONTROLS = "button, input, select, textarea";
const VIEWS = [
  "[data-view]", ".screen", ".close", ".base-name", "button.card", "button.player", "button.tab",
  "#more-prompts", ".sell", "#undo-why",
].join(", ");
const MARK = "viewOnlyDisabled";

function controls() {
  const found = [];
  for (const region of document.querySelectorAll(REGIONS)) {
    for (const control of region.querySelectorAll(CONTROLS)) {
      if (!control.matches(VIEWS)) found.push(control);
    }
  }
  return found;
}

function apply() {
  const viewing = document.body.classList.contains("view-only");
  const line = $("#view-only-help");
  if (line) line.hidden = !viewing;
  if (viewing) {
    for (const control of controls()) {
      if (control.dataset[MARK]) continue;
      // disabled only while busy with a request (act) is not disabled for its own reason
      control.dataset[MARK] = control.disabled && !control.dataset.busy ? "was" : "1";
      control.disabled = true;
      control.setAttribute("aria-disabled", "true");
    }
    return;
  }
  for (const control of document.querySelectorAll(`[data-view-only-disabled]`)) {
    if (control.dataset[MARK] === "1") control.disabled = false;
    control.removeAttribute("aria-disabled");
    delete control.dataset[MARK];
  }
}

// Redraws replace controls, and the corner changes the body's class: both are watched.
export function installViewOnly() {
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      apply();
    });
  };
  new MutationObserver(soon).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["class"],
  });
  apply();
}
