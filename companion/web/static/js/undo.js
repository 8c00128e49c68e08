// Undo that talks: a toast naming what was undone, with Redo (which also stays beside Undo
// until the next change); and after a correction that takes something off the table, a toast
// with Undo.
import { say } from "./api.js";

let send = null;
let current = () => null;

// send(line, button) submits a tape line; payload() is the state the screen shows now.
export function installUndo(sendLine, payload) {
  send = sendLine;
  current = payload;
}

export async function undo(button) {
  const before = current();
  const text = before && before.undo;
  if (!(await send({ input: "undo" }, button))) return;
  say(`Undid: ${text || "the last change"}`, "info", { label: "Redo", run: redo });
}

export async function redo(button) {
  const now = current();
  if (!now || !now.redo) {
    say("Nothing to redo: the table changed since the undo", "error");
    return;
  }
  const text = now.redo.text;
  if (await send(now.redo.line, button)) say(`Redid: ${text}`);
}

// After a correction that removed something: say it, and offer to take it back.
export function offerUndo(text) {
  say(text, "info", { label: "Undo", run: undo });
}
