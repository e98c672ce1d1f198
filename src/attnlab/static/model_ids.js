/** A layer's or head's own number. Weights handed in as a subset (BertViz's include_layers,
 * include_heads) keep the model's numbering: `ids` lists it by position (info.layer_ids,
 * trace.model.head_ids); without it, position i is number i. */
export function ownNumber(ids, i) {
  return Array.isArray(ids) && Number.isInteger(ids[i]) ? ids[i] : i;
}
