"""Talking to the kernel of the notebook a JupyterLab page shows (conftest.py's `jupyterlab`
serves it), for the notebook tests; a module and not conftest.py's because a test module cannot
import from a conftest.py (see playwright_expect.py)."""

from __future__ import annotations

from typing import Any

__all__ = ["kernel_print"]


def kernel_print(page: Any, code: str) -> str:
    """Run `code` in the notebook's kernel and return what it printed."""
    return str(
        page.evaluate(
            """async (code) => {
              const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
              let out = "";
              const future = kernel.requestExecute({ code, store_history: false });
              future.onIOPub = (msg) => {
                if (msg.header.msg_type === "stream") out += msg.content.text;
                const c = msg.content;
                if (msg.header.msg_type === "error") out += c.ename + ": " + c.evalue;
              };
              await future.done;
              return out;
            }""",
            code,
        )
    ).strip()
