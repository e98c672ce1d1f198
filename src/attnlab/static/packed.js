// Packed arrays from the API (encode/packed.py): {dtype, shape, data, scale}, data the base64
// of the array's little-endian bytes. "float32" holds the values themselves (a masked score is
// -Infinity); "uint16" holds codes, value = code × scale (weights in [0, 1], off by at most
// scale / 2). Pure: no DOM (Node's tests import it).

/** The bytes of a base64 string. @param {string} b64 */
function bytes(b64) {
  const text = atob(b64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * A packed array as one flat Float32Array (row-major) and its shape; a uint16 one also gives
 * its codes (value = code × scale).
 * @param {{dtype: string, shape: number[], data: string, scale: number | null}} p
 * @returns {{values: Float32Array, shape: number[], codes?: Uint16Array}}
 */
export function unpack(p) {
  const raw = bytes(p.data);
  if (p.dtype === "float32") return { values: new Float32Array(raw.buffer, 0, raw.length / 4), shape: p.shape };
  if (p.dtype !== "uint16") throw new TypeError(`unknown packed dtype ${p.dtype}`);
  const codes = new Uint16Array(raw.buffer, 0, raw.length / 2);
  const values = new Float32Array(codes.length);
  for (let i = 0; i < codes.length; i++) values[i] = codes[i] * p.scale;
  return { values, shape: p.shape, codes };
}

/**
 * A uint16 array's values in full double precision (code × scale, as encode/packed.py's unpack
 * gives them): what a file of its numbers holds, not the float32 the pictures read.
 */
function exactValues(p) {
  const { codes } = unpack(p);
  if (!codes) return unpack(p).values;
  const values = new Float64Array(codes.length);
  for (let i = 0; i < codes.length; i++) values[i] = codes[i] * p.scale;
  return values;
}

/**
 * A packed array as nested plain arrays (rows of rows), the shape the layouts read; `exact`
 * gives a uint16 array's values in double precision (the exports' numbers).
 */
export function nested(p, { exact = false } = {}) {
  const { shape } = p;
  const values = exact ? exactValues(p) : unpack(p).values;
  const build = (offset, dim) => {
    if (dim === shape.length - 1) return Array.from(values.subarray(offset, offset + shape[dim]));
    const stride = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
    return Array.from({ length: shape[dim] }, (_, i) => build(offset + i * stride, dim + 1));
  };
  return shape.length === 0 ? values[0] : build(0, 0);
}

/** An array the API sent: nested lists as they are, a packed object unpacked to nested lists. */
export const asNested = (x, options = {}) => (x == null || Array.isArray(x) ? x : nested(x, options));

const ARRAYS = ["embeddings", "queries", "keys", "values", "raw_scores", "scores", "weights", "outputs"];

/** A /api/model/trace answer with its packed arrays as nested lists (what format.decodeLesson gives a lesson). */
export function decodeModelTrace(data) {
  const out = { ...data, divisor: typeof data.divisor === "string" ? { inf: Infinity, "-inf": -Infinity, nan: NaN }[data.divisor] : data.divisor };
  for (const name of ARRAYS) if (data[name] != null) out[name] = asNested(data[name]);
  return out;
}
