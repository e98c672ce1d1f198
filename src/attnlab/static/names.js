// The names of a sentence's tokens, by words/grammar.py's token_names rule: a token that occurs
// more than once carries its occurrence as a subscript (b₁, b₂ in "a b b"), so the page's table
// headers and picture labels name the same places as the narration. Pure.

const SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉";

/**
 * @param {string[]} tokens
 * @returns {string[]}
 */
export function tokenNames(tokens) {
  const counts = new Map();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const seen = new Map();
  return tokens.map((t) => {
    if (counts.get(t) === 1) return t;
    const k = (seen.get(t) ?? 0) + 1;
    seen.set(t, k);
    return t + String(k).replace(/\d/g, (d) => SUBSCRIPTS[Number(d)]);
  });
}

/**
 * A token as a chip, a row label or a header writes it: itself, or, when it shows nothing (a
 * space, a newline, a tab: a byte-level tokenizer's "\n" token), quoted and escaped as the
 * next-token table writes every token (JSON: " ", "\n"), so no chip is empty and a newline
 * reads the same everywhere.
 * @param {string} token
 * @returns {string}
 */
export function visibleToken(token) {
  return token.trim() === "" ? JSON.stringify(token) : token;
}
