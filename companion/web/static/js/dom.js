// A tiny element builder: h("div.panel#id", {attrs or on* handlers}, ...children).
export function h(spec, props, ...children) {
  const tag = spec.match(/^[a-z0-9]*/i)[0];
  const el = document.createElement(tag || "div");
  const classes = [];
  for (const [, mark, name] of spec.slice(tag.length).matchAll(/([.#])([^.#]+)/g)) {
    if (mark === "#") el.id = name;
    else classes.push(name);
  }
  if (classes.length) el.className = classes.join(" ");
  if (props && (typeof props !== "object" || props instanceof Node || Array.isArray(props))) {
    children.unshift(props);
    props = null;
  }
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

// Replace an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

// "1 treasure", "3 treasures": a count with its noun, never "treasure(s)".
export const plural = (count, noun, many = `${noun}s`) => `${count} ${Math.abs(count) === 1 ? noun : many}`;
