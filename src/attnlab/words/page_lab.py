"""The lab's fixed words: its help texts, card titles, labels and the templates of its readouts.

Part of the page's words (page.py's PAGE_WORDS, served with /api/presets), kept apart because the
lab has the most of them. A `{name}` is filled by the page with a value the API sent, written by
numfmt's rule; page.py's TEMPLATE_VALUES says what each name stands for.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["LAB_WORDS"]

_LABELS = {
    "lab.title": "Break the lookup on purpose",
    "lab.loading": "Loading…",
    "lab.dim": "dim {number}",
    "lab.axis.title": "Softmax axis",
    "lab.one.title": "One matrix for Q, K and V",
    "lab.one.help": (
        "A common mistake: treating a token's query, key and value as one vector. Here one "
        "matrix (the real head's W_Q) makes all three, Q = K = V = X·W_Q, beside the real head's "
        "three matrices. With Q = K a token's score against itself is |\u2060q|\u2060², so the "
        "diagonal tends to win."
    ),
    "lab.one.table": "{sentence}: one matrix against three",
    "lab.one.caption": "{sentence}: the weights of {token}'s row",
    "lab.one.real": "real head (3 matrices)",
    "lab.one.one": "Q = K = V (1 matrix)",
    "lab.one.self": "{token}'s own score",
    "lab.one.key": "key",
    "lab.one.sentence": "Sentence",
    "lab.one.waiting": "Computing…",
    "lab.one.hidden": "Make your guess first: this card shows the weights.",
    "lab.one.no_host": "This card is computed by the server or the notebook's kernel.",
    "lab.axis.output": "{token}'s output",
    "lab.axis.across": "softmax across",
    "lab.axis.keys_row": "keys (correct)",
    "lab.axis.queries_row": "queries (mistake)",
    "lab.axis.moved": "{token}'s output moved by {distance}.",
    "lab.causal.title": "Causal mask",
    "lab.positions.title": "Word order: shuffle and positions",
    "lab.positions.label": "Positions",
    "lab.positions.token_at": "{token} ({position})",
    "lab.positions.token_column": "token (position)",
    "lab.positions.encodings": "Position encodings added to the embeddings",
    "lab.positions.rotation": "The rotation of each query",
    "lab.positions.angle_first": "angle, dims 1–2",
    "lab.positions.angle_second": "angle, dims 3–4",
    "lab.positions.q_before": "q before",
    "lab.positions.q_after": "q after rotation",
    "lab.positions.radians": "{angle} rad",
    "lab.positions.turned": "turned {angle} rad",
    "lab.positions.dials": (
        "Each query's first two numbers before (grey) and after (violet) the rotation"
    ),
    "lab.positions.dials_caption": (
        "Dims 1–2 of each query: grey before, violet after RoPE turns it by its position's "
        "angle (dashed arc). The length stays the same."
    ),
    "lab.shuffle.button": "Shuffle tokens",
    "lab.shuffle.same": "{token}: the same output as before",
    "lab.shuffle.moved": "{token}: its output moved by {distance}",
    "lab.shuffle.tiny": "{token}: its output moved by less than 0.01",
    "lab.shuffle.unchanged": "unchanged",
    "lab.shuffle.changed": "changed",
    "lab.shuffle.order": "Shuffled order: {shuffled} (was {tokens}).",
    "lab.shuffle.list": "Each token's output after the shuffle",
    "lab.reading.title": "Read the matrix",
    "lab.reading.transpose": "Transpose",
    "lab.heads.title": "Two heads",
    "lab.heads.label": "Heads",
    "lab.heads.one": "One head, “{name}”: {blurb}",
    "lab.heads.head": "Head {number} ({name}):",
    "lab.heads.dim": "h{number} {dim}",
    "lab.heads.second_table": "Head 2 weights",
    "lab.heads.second_caption": "Head 2's weights (head 1's are the lesson's table above)",
    "lab.heads.concat": "Concatenated outputs",
    "lab.predict.title": "Predict, then reveal",
    "lab.predict.label": "Predict first",
    "lab.predict.guess": "Guess {token}",
    "lab.predict.guesses": "Your guess",
    "lab.predict.again": "Guess again",
    "lab.now.title": "The weights now",
    "lab.now.table": "Weights with sums",
    "lab.now.row_sum": "row sum",
    "lab.now.bits": "bits",
    "lab.now.largest": "largest",
    "lab.now.column_sum": "column sum",
    "lab.now.to_softmax": "Go to the Softmax step",
    "lab.now.before_cell": "no weight yet: the softmax comes at step {number}",
    "lab.edit.title": "Edit vectors",
    "lab.edit.which": "Which vectors",
    "lab.edit.reset": "Reset",
    "lab.edit.token": "token",
    "lab.edit.role.embeddings": "Embeddings x",
    "lab.edit.role.queries": "Queries q (head 1)",
    "lab.edit.role.keys": "Keys k (head 1)",
    "lab.edit.role.values": "Values v (head 1)",
    "lab.edit.noun.embeddings": "embedding",
    "lab.edit.noun.queries": "query",
    "lab.edit.noun.keys": "key",
    "lab.edit.noun.values": "value",
    "lab.edit.field": "{token} {noun}, {dim}",
    "lab.edit.table": "{noun} numbers",
    "lab.edit.drag": "Drag sideways or type a number",
    "lab.edit.preset": "The preset's numbers.",
    "lab.edit.edited_one": "1 vector edited; Reset puts the preset back.",
    "lab.edit.edited_many": "{count} vectors edited; Reset puts the preset back.",
    "lab.edit.refused": "Refused: {error}",
    "lab.edit.field_error": "{field}: {error}",
    "lab.edit.empty": "Type a number here, such as 0.5 or -1.",
    "lab.edit.nan": "NaN is not a number attention can use; type a finite number.",
    "lab.edit.not_number": "“{text}” is not a number; type one such as 0.5 or -1.",
    "lab.edit.beyond": "{text} is beyond ±{limit}; keep each number between −{limit} and {limit}.",
    "lab.temperature.title": "Temperature and saturation",
    "lab.temperature.label": "Temperature",
    "lab.temperature.back": "Back to √dₖ",
    "lab.temperature.mark_unscaled": "= No √dₖ",
    "lab.temperature.mark_sqrt": "{t} = √dₖ",
    "lab.temperature.mark_uniform": "→ Uniform",
    "lab.temperature.uniform": "T = ∞: Uniform, the limit where every weight is 1/n",
    "lab.temperature.unscaled": "T = 1: No √dₖ, the raw dot products",
    "lab.temperature.sqrt": "T = {t} = √dₖ: the real formula",
    "lab.temperature.sharper": "T = {t}, sharper than √dₖ",
    "lab.temperature.flatter": "T = {t}, flatter than √dₖ",
    "lab.temperature.sliding": "T = {t}…",
    "lab.temperature.saturation": (
        "{token}'s row: entropy {entropy} bits (at most {max_entropy}), largest weight "
        "{max_weight}. Softmax Jacobian size {jacobian} (Frobenius norm), largest entry "
        "{jacobian_max}: the gradient the softmax passes back, which falls toward 0 as the row "
        "saturates."
    ),
    "lab.temperature.columns": (
        "With the softmax down the columns, each column is the budget: see the column sums on "
        "the right."
    ),
    "lab.temperature.plots_failed": "The temperature plots could not be drawn: {error}",
    "lab.temperature.axis": "temperature T",
    "lab.temperature.sqrt_mark": "√dₖ",
    "lab.temperature.now_mark": "now",
    "lab.temperature.weights_plot": (
        "{token}'s weight on each key as the temperature goes from {t_min} to {t_max}"
    ),
    "lab.temperature.weights_axis": "{token}'s weights",
    "lab.temperature.entropy_plot": "The entropy of {token}'s row against the temperature",
    "lab.temperature.entropy_axis": "entropy (bits)",
    "lab.temperature.entropy_series": "entropy",
    "lab.temperature.entropy_caption": "0 bits: all on one key. The top: spread evenly.",
    "lab.temperature.jacobian_plot": (
        "The size of the softmax Jacobian of {token}'s row against the temperature"
    ),
    "lab.temperature.jacobian_axis": "Jacobian size (Frobenius)",
    "lab.temperature.jacobian_series": "Jacobian size",
    "lab.temperature.jacobian_caption": "Near 0 the softmax passes almost no gradient back.",
    "lab.cost.title": "Cost",
    "lab.cost.measure": "Measure the cost",
    "lab.cost.again": "Measure again",
    "lab.cost.progress": "Measuring progress",
    "lab.cost.measuring": "Measuring n = 4 to {max_n}… ({number} of {count})",
    "lab.cost.failed": "The measurement failed: {error}",
    "lab.cost.measured": (
        "Measured {count} sizes, n = {min_n} to {max_n}, d = {d}. Dots: measured; dashed: the "
        "fit a + c·n². Times jump when the machine is busy; memory is the steadier line."
    ),
    "lab.cost.n_axis": "tokens n",
    "lab.cost.fit": "fit a + c·n²",
    "lab.cost.measured_series": "measured {what}",
    "lab.cost.plot": "{what} against n, measured, with the n² fit",
    "lab.cost.time": "time per head",
    "lab.cost.memory": "memory",
    "lab.cost.kv_plot": "One more token: recomputing n × n against one row on a key/value cache",
    "lab.cost.kv_time": "time for one more token",
    "lab.cost.kv_recompute": "recompute the n × n matrix",
    "lab.cost.kv_cached": "one new row against n cached keys",
    "lab.cost.kv_table": "One more token, measured",
    "lab.cost.kv_n": "n",
    "lab.cost.kv_col_recompute": "n × n",
    "lab.cost.kv_col_cached": "one row",
    "lab.cost.kv_ratio": "measured ratio",
    "lab.cost.kv_flop_ratio": "FLOP ratio",
    "lab.cost.kv_times": "{ratio}×",
    "lab.cost.kv_caption": (
        "A decoder writing token n + 1 needs only that token's row. With the keys and values of "
        "the n tokens before it kept, that is one query against n cached keys: about {cached} "
        "FLOPs instead of {recompute}. Both lines are measured here, at d = {d}."
    ),
}

_HELP = {
    "lab.intro": (
        "Each control changes one piece of softmax(QKᵀ/√dₖ)V. The picture and the table above "
        "follow every change except two, which show in their own cards: Shuffle tokens (the "
        "Word order card) and a second head (the Two heads card). The line above the picture "
        "lists what is changed, each with its undo; the link in the address bar keeps it all."
    ),
    "lab.axis.keys": "Keys (correct)",
    "lab.axis.queries": "Queries (mistake)",
    "lab.axis.help": (
        "The softmax must run across the keys, so each query's row is a budget of 1. Run it "
        "down the queries instead and the numbers still look plausible."
    ),
    "lab.axis.now": (
        "Right now every row sums to 1 ({row_sums}). Pick Queries (mistake) to see what the "
        "wrong axis does."
    ),
    "lab.axis.wrong": "Columns now sum to 1 ({column_sums}); rows do not ({row_sums}).",
    "lab.causal.help": (
        "A decoder may not look ahead: each token attends only to itself and the tokens before "
        "it. The hidden scores become −∞, their weights 0."
    ),
    "lab.causal.on": (
        "The upper triangle is greyed: weight 0. Each row still sums to 1: {row_sums}."
    ),
    "lab.causal.off": "Off: every token may look at every other, even those after it.",
    "lab.positions.help": (
        "Attention alone never reads where a token stands. Shuffle the tokens, each with its "
        "own embedding, and check each one's output; then add positions and shuffle again."
    ),
    "lab.positions.none": "None",
    "lab.positions.sinusoidal": "Sinusoidal",
    "lab.positions.rope": "Rotary (RoPE)",
    "lab.positions.rope_note": (
        "Keys turn by the same angles. A rotation keeps each vector's length, so only the angle "
        "between a query and a key, which depends on how far apart they stand, changes their "
        "score."
    ),
    "lab.shuffle.none": "Not shuffled yet.",
    "lab.reading.help": (
        "Click any cell of the Attention weights table, the picture's matrix or the table on "
        "the right: row i is the query, column j the key."
    ),
    "lab.heads.help": (
        "A second hand-set head attends by sentence structure instead of meaning. Real models "
        "run many heads side by side and join their outputs."
    ),
    "lab.predict.help": (
        "Before the Softmax step, guess which token the followed word will attend to most. The "
        "weights stay hidden until you guess."
    ),
    "lab.predict.off": "Off: the weights show from the start.",
    "lab.predict.ask": (
        "Which token will {token} attend to most? Look at the queries and keys, or the scores, "
        "then click your guess (here, or a token in the picture)."
    ),
    "lab.now.help": (
        "Every control changes these numbers: each row with its sum, its entropy in bits (0 "
        "when all on one key, 2 when spread over four) and its largest weight; the column sums "
        "below."
    ),
    "lab.now.before": (
        "No weights yet: as in the lesson's table, they come at step {number}, Softmax. Step "
        "there, or go straight to it."
    ),
    "lab.now.keys": (
        "Each row sums to 1: a query's budget over the keys. The column sums are whatever they "
        "happen to be."
    ),
    "lab.now.queries": (
        "Softmax down the columns: now each column sums to 1 and the rows do not, so a query no "
        "longer spends a budget of 1."
    ),
    "lab.edit.help": (
        "Change any number (drag it sideways, type it, or use the up and down arrow keys) and "
        "every step recomputes through the API. Numbers must lie between −100 and 100."
    ),
    "lab.temperature.help": (
        "The softmax divides every score by a temperature T. The real formula uses T = √dₖ = 2. "
        "Lower T sharpens each row toward one key; higher T flattens it toward the uniform row."
    ),
    "lab.cost.help": (
        "With n tokens the score matrix QKᵀ has n² entries, so time and memory grow like n²·d. "
        "Measure one head (d = 64, random vectors) on this machine, from n = 4 to 2048; it takes "
        "a few seconds."
    ),
}

LAB_WORDS: Mapping[str, str] = {**_HELP, **_LABELS}
"""The lab's words by a dotted key (lab.card.what)."""
