// How numbers are written for people, the same rule as src/attnlab/numfmt.py:
// two decimals, trailing zeros dropped (0.46, 0, 2.3), minus zero written as 0, non-finite
// values by name (−∞ for a masked score). Also: reading the JSON form of a trace, where the
// non-finite numbers arrive as the strings "inf", "-inf" and "nan" (JSON has none of them).

const NON_FINITE = { inf: Infinity, "-inf": -Infinity, nan: NaN };

/**
 * A JSON number back to a float: the strings "inf", "-inf", "nan" become Infinity, -Infinity, NaN.
 * @param {number|string} x
 * @returns {number}
 */
export function decodeNumber(x) {
  if (typeof x === "number") return x;
  if (typeof x === "string" && Object.hasOwn(NON_FINITE, x)) return NON_FINITE[x];
  throw new TypeError(`expected a number or "inf"/"-inf"/"nan", got ${JSON.stringify(x)}`);
}

/**
 * Nested lists of JSON numbers (a vector or a matrix) back to floats.
 * @param {any} a
 * @returns {any}
 */
export function decodeArray(a) {
  return Array.isArray(a) ? a.map(decodeArray) : decodeNumber(a);
}

const ARRAYS = ["embeddings", "queries", "keys", "values", "raw_scores", "scores", "weights", "outputs"];

/**
 * The API's /api/lesson answer with every array and the divisor decoded to floats.
 * @param {Record<string, any>} data
 * @returns {Record<string, any>}
 */
export function decodeLesson(data) {
  const out = { ...data, divisor: decodeNumber(data.divisor) };
  for (const name of ARRAYS) {
    if (data[name] != null) out[name] = decodeArray(data[name]);
  }
  return out;
}

/**
 * `x` with `places` decimals, rounding exact ties to even as Python's format does
 * (toFixed rounds 0.125 to 0.13; Python writes 0.12).
 * @param {number} x finite
 * @param {number} places
 */
function fixed(x, places) {
  const sign = x < 0 ? "-" : "";
  const a = Math.abs(x);
  if (a >= 1e21) return sign + BigInt(a).toString() + (places > 0 ? "." + "0".repeat(places) : "");
  const twice = a * 2 ** (places + 1); // an odd integer exactly when a sits halfway between
  if (Number.isInteger(twice) && twice % 2 === 1 && a < 2 ** 40) {
    const low = Math.floor(a * 10 ** places); // exact: a * 10^places = twice * 5^places / 2
    const n = low % 2 === 0 ? low : low + 1;
    const digits = String(n).padStart(places + 1, "0");
    return sign + (places > 0 ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits);
  }
  return sign + a.toFixed(places);
}

/**
 * `x` rounded to `places` decimals with trailing zeros dropped: 0.460 -> "0.46".
 * @param {number} x
 * @param {number} [places]
 * @returns {string}
 */
export function num(x, places = 2) {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  let text = fixed(x, places);
  if (places > 0) text = text.replace(/0+$/, "").replace(/\.$/, "");
  return text === "-0" || text === "" ? "0" : text;
}

/**
 * A number that may span many powers of ten, to two significant digits, as Python's
 * f"{x:.2g}" writes it (words/training.py g2): 8e-05, 0.0049, 0.88, 19, 1.2e+02.
 * @param {number} x
 */
export function g2(x) {
  if (!Number.isFinite(x)) return num(x);
  if (x === 0) return "0";
  const [mant, e] = x.toExponential(1).split("e");
  const exp = Number(e);
  if (exp < -4 || exp >= 2) {
    const digits = String(Math.abs(exp)).padStart(2, "0");
    return `${mant.replace(/\.0$/, "")}e${exp < 0 ? "-" : "+"}${digits}`;
  }
  const text = x.toFixed(Math.max(0, 1 - exp));
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/**
 * A vector as the seed writes it: [2.3, 2.3, 0, 0].
 * @param {number[]} xs
 * @param {number} [places]
 */
export function vec(xs, places = 2) {
  return "[" + xs.map((x) => num(x, places)).join(", ") + "]";
}

/**
 * A weight as a share of the budget: 0.6854 -> "69%" (ties to even, like Python's round).
 * @param {number} w
 */
export function percent(w) {
  const v = 100 * w;
  let r = Math.round(v);
  if (v - Math.floor(v) === 0.5 && Math.floor(v) % 2 === 0) r = Math.floor(v);
  return `${r === 0 ? 0 : r}%`;
}
