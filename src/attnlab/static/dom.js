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

/** Where fillWords puts the words of each marker: data-words is the text, the others an attribute. */
const MARKERS = [["data-words", null], ["data-words-label", "aria-label"], ["data-words-placeholder", "placeholder"], ["data-words-title", "title"]];

/**
 * Put the page's words into every element under `root` (and `root` itself) marked with a key:
 * data-words="key" as its text, data-words-label, -placeholder and -title as its aria-label,
 * placeholder and title.
 * @param {Element} root
 * @param {Record<string, string> | null | undefined} words
 */
export function fillWords(root, words) {
  for (const [marker, attribute] of MARKERS) {
    const nodes = [...(root.matches(`[${marker}]`) ? [root] : []), ...root.querySelectorAll(`[${marker}]`)];
    for (const node of nodes) {
      const text = words?.[node.getAttribute(marker) ?? ""];
      if (typeof text !== "string") continue;
      if (attribute) node.setAttribute(attribute, text);
      else node.textContent = text;
    }
  }
}
