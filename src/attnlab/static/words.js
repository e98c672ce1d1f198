// The page's fixed words, looked up by key: words/page.py's PAGE_WORDS, which every host puts in
// its model as "words" (the web page from /api/presets). A template's {name} is filled with a
// value the API sent; nothing here writes a sentence of its own.
//
// Pure (no DOM): fillWords, which puts the words into elements marked data-words, is dom.js's.

/**
 * The words at `key` with each {name} filled from `values`; "" while the words have not come.
 * @param {Record<string, string> | null | undefined} words
 * @param {string} key
 * @param {Record<string, string | number>} [values]
 */
export function say(words, key, values = {}) {
  const template = words?.[key];
  if (typeof template !== "string") return "";
  return template.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
