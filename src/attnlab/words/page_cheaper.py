"""The Cheaper attention section's fixed words, by key (lab.cheaper.*): titles, help, buttons.

The sentences that carry numbers (badges, the tiles told one by one) are written by
cheaper_words.py from each run; these are the labels around them. page.py merges them into
PAGE_WORDS.
"""

from __future__ import annotations

from collections.abc import Mapping

CHEAPER_WORDS: Mapping[str, str] = {
    "lab.cheaper.title": "Cheaper attention",
    "lab.cheaper.intro": (
        "The n × n matrix is why long texts are expensive. Each card runs a cheaper form on the "
        "sentence above, beside the exact formula, and its badge says whether it is the same "
        "arithmetic (exact) or an approximation, with the difference measured now."
    ),
    "lab.cheaper.online.title": "FlashAttention: the softmax in tiles",
    "lab.cheaper.online.help": (
        "The focus row is computed a few keys at a time, keeping only a running maximum m, a "
        "running sum ℓ and a running output O. When a tile brings a larger score, what came "
        "before is shrunk by exp(m_old − m_new). The end is the same row, never stored whole."
    ),
    "lab.cheaper.tile": "Keys per tile",
    "lab.cheaper.prev": "Previous tile",
    "lab.cheaper.next": "Next tile",
    "lab.cheaper.canvas": "The focus row, tile by tile",
    "lab.cheaper.legend": (
        "Bars: exp(s − m) for each key read so far, this tile's keys in violet, earlier tiles' "
        "in grey (already rescaled to the new m); dashed boxes: keys not read yet. At the end "
        "the bars are divided by ℓ, and the orange outlines are the Softmax step's weights."
    ),
    "lab.cheaper.heads.title": "Fewer keys and values to cache",
    "lab.cheaper.heads.help": (
        "Multi-query attention lets both heads read one key/value head; DeepSeek-V2's latent "
        "attention caches a short latent c and folds W_UK into W_Q, so the scores come from c."
    ),
    "lab.cheaper.windows.title": "Sliding windows and attention sinks",
    "lab.cheaper.windows.help": (
        "Under a causal mask, a window keeps only the last keys; StreamingLLM also keeps the "
        "first tokens (sinks). The attention the focus row gave the other keys is thrown away."
    ),
    "lab.cheaper.linear.title": "Linear attention",
    "lab.cheaper.linear.help": (
        "φ(q)·φ(k) with φ = elu + 1 replaces exp(q·k/√dₖ): no n × n matrix is needed, but the "
        "rows are only an approximation of the softmax's."
    ),
    "lab.cheaper.price.title": "The price against n",
    "lab.cheaper.price.help": (
        "One head, d = 64: the peak memory and the time of the n × n form, of FlashAttention's "
        "tiles (the same outputs) and of linear attention (another row), at n = 256 to 4,096. "
        "Each form runs three times at each size in a process of its own: about five seconds "
        "on a quiet machine, up to forty on a busy one."
    ),
    "lab.cheaper.price.measuring": (
        "Measuring the three forms at five sizes, the largest last: {seconds} s so far"
    ),
    "lab.cheaper.price.measure": "Measure the price",
    "lab.cheaper.price.n": "n (tokens)",
    "lab.cheaper.price.memory": "peak memory",
    "lab.cheaper.price.time": "time",
    "lab.cheaper.price.exact": "n × n matrix",
    "lab.cheaper.price.tiled": "tiles (FlashAttention)",
    "lab.cheaper.price.linear": "linear attention",
    "lab.cheaper.models.title": "Real models: the key/value cache",
    "lab.cheaper.models.help": (
        "What each real model caches per token per layer while it writes, in each form, computed "
        "from its own sizes (16-bit numbers): SmolLM2 and MiniLM from their configs, Gemma 3 270M "
        "from its GGUF file's header, DeepSeek-V2 from its paper. The same numbers as "
        "`attnlab cheaper cache`."
    ),
    "lab.cheaper.models.model": "Model",
    "lab.cheaper.models.form": "Form",
    "lab.cheaper.models.numbers": "Numbers",
    "lab.cheaper.models.bytes": "Bytes",
    "lab.cheaper.models.layers": "layers",
    "lab.cheaper.models.check": "Check the KV cache on SmolLM2",
    "lab.cheaper.models.running": (
        "SmolLM2 is decoding a short text one token at a time on its cache, then reading it in "
        "one pass, to compare the two (about ten seconds; longer on a busy machine): {seconds} s"
    ),
    "lab.cheaper.models.windows": (
        "What a sliding window costs in next-token loss and perplexity on a long text (the "
        "README's table) is computed by `attnlab cheaper windows` in the terminal: it runs "
        "SmolLM2 over the text once per window and sink count, minutes of work this page does "
        "not start."
    ),
    "lab.cheaper.exact_row": "Softmax (exact)",
    "lab.cheaper.exact_row_keys": "Softmax over keys (exact)",
    "lab.cheaper.linear_row": "Linear",
    "lab.cheaper.waiting": "Computing…",
    "lab.cheaper.hidden": "Make your guess first: these cards show the weights.",
    "lab.cheaper.no_host": "These cards are computed by the server or the notebook's kernel.",
    "lab.cheaper.key": "Key",
    "lab.cheaper.form": "Form",
    "lab.cheaper.numbers": "Numbers per token per layer",
}
