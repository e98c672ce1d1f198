// The page's two element builders, shared by the lesson (lesson.js), the lab (lab_*.js) and the
// Real model view (model*.js): h for HTML elements and s for SVG ones, in the hyperscript
// style h(tag, attrs, children).
//
// Text goes in as text nodes or textContent, never as markup: nothing here parses a string.

export const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A DOM element with attributes and children (strings become text nodes, never markup).
 * An attribute that is false, null or undefined is left out; true sets it empty.
 * @param {string} tag
 * @param {Record<string, string | boolean | number | null | undefined>} [attrs]
 * @param {(Node | string)[]} [children]
 */
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) node.append(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}

/**
 * An SVG element with attributes and, when given, its text.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 */
export function s(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Put the page's words into every element under `root` marked data-words="key" (as text).
 * @param {Element} root
 * @param {Record<string, string> | null | undefined} words
 */
export function fillWords(root, words) {
  for (const node of root.querySelectorAll("[data-words]")) {
    const text = words?.[node.getAttribute("data-words") ?? ""];
    if (typeof text === "string") node.textContent = text;
  }
}
