"""`attnlab mask`: mask (or drop) one word of a text in a real model and print, layer by layer,
how far the focus token's attention row and vector moved (models/masking.py).

    attnlab mask --model minilm "by the river bank" --focus bank --mask river [--how drop]

main.py registers it with one call, `add_mask_command(sub)`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from attnlab.errors import AttnlabError

__all__ = ["add_mask_command"]


def add_mask_command(sub: Any) -> None:
    p = sub.add_parser("mask", help="with --model: mask a word and see how the focus moves")
    p.add_argument(
        "sentence",
        help="any text up to the model's limit (MiniLM 512 tokens); best up to 128: each run "
        "is two passes, and MiniLM was fine-tuned on texts of up to 128 tokens",
    )
    p.add_argument(
        "--model", default="minilm",
        help="the real model to run: minilm, smollm2, or a Hugging Face-layout folder "
        "(default: minilm; smollm2 has no mask token: use --how drop)",
    )  # fmt: skip
    p.add_argument("--focus", help="the token to follow (default: the text's last word piece)")
    p.add_argument("--mask", required=True, help="the word (or token position) to mask")
    p.add_argument("--occurrence", type=int, default=1, help="which place of the word, from 1")
    p.add_argument(
        "--how", choices=("mask", "drop", "none"), default="mask",
        help="mask: the mask token in its place; drop: removed; none: change nothing",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print /api/model/mask's JSON")
    p.set_defaults(run=_mask)


def _mask(args: argparse.Namespace) -> int:
    from attnlab.encode.model_views_json import encode_masking
    from attnlab.encode.terminal_mask import render_masking
    from attnlab.models import load_model
    from attnlab.models.masking import Reruns, mask_of, mask_token

    model = load_model(args.model)
    if not isinstance(model, Reruns):
        raise AttnlabError(f"{args.model} cannot rerun edited tokens")
    mt = model.trace(args.sentence)
    focus = mt.focus_index(args.focus)
    target = int(args.mask) if args.mask.strip().isdigit() else args.mask
    m = mask_token(model, mt, focus=focus, word=target, occurrence=args.occurrence, how=args.how)
    mask = mask_of(model)
    name = mask[0] if mask else ""
    if args.json:
        print(json.dumps(encode_masking(m, mask_name=name).model_dump(mode="json"),
                         ensure_ascii=False))  # fmt: skip
        return 0
    sys.stdout.write(render_masking(m, mask_name=name))
    return 0
