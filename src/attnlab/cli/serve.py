"""`attnlab serve`: the web app (web/app.py) under uvicorn, with what the terminal is told.

The command prints where the lesson is, warns when the host can be reached from the network,
opens a browser if asked, and serves a model folder beside the known models (loaded here first,
so a bad folder is named before the server starts; the page and the known models are served all
the same, as a folder is input from outside like any request). How the app runs under uvicorn
is the web's (`uvicorn_config`); importing this module needs the server extra.
"""

from __future__ import annotations

import ipaddress
import sys
import threading
import webbrowser

import uvicorn

from attnlab.atlas.file import read_atlas
from attnlab.errors import AttnlabError
from attnlab.models.kept import serve_folder
from attnlab.web.app import create_app, uvicorn_config
from attnlab.web.server_options import LOOPBACK_HOSTS, ServerOptions

__all__ = ["is_loopback", "serve", "serve_url"]


def serve_url(host: str, port: int) -> str:
    """The address to open: an IPv6 host in brackets ("http://[::]:8000/")."""
    try:
        bracket = ipaddress.ip_address(host.strip("[]")).version == 6
    except ValueError:
        bracket = False
    return f"http://[{host.strip('[]')}]:{port}/" if bracket else f"http://{host}:{port}/"


def is_loopback(host: str) -> bool:
    """True if `host` is reachable from this machine only."""
    if host.lower() in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    options: ServerOptions | None = None,
    model: str | None = None,
    atlases: tuple[str, ...] = (),
) -> None:
    """Run the app under uvicorn until interrupted; `model` is a folder (or GGUF) to serve
    beside the known models, loaded before the server starts; `atlases` are atlas files for
    the Head atlas tab (a file that is not an atlas is named and left out)."""
    options = ServerOptions(host=host) if options is None else options
    url = serve_url(host, port)
    folders: tuple[str, ...] = ()
    if model is not None:
        try:
            name = serve_folder(model)  # here too: a bad folder is named before serving
        except AttnlabError as exc:
            print(
                f"attnlab: not serving the model at {model!r}: {exc}\n"
                "attnlab: serving the lesson and the known models without it",
                file=sys.stderr,
            )
        else:
            print(f"attnlab: serving the model at {model!r} as {name!r}")
            folders = (model,)
    kept = []
    for path in atlases:
        try:
            read_atlas(path)
        except AttnlabError as exc:
            print(f"attnlab: not serving the atlas {path!r}: {exc}", file=sys.stderr)
        else:
            print(f"attnlab: serving the atlas {path!r} in the Head atlas tab")
            kept.append(path)
    print(f"attnlab: the lesson is at {url} (Ctrl+C to stop)")
    if not is_loopback(host):
        print(
            f"attnlab: warning: listening on {host}, not on this machine only: anyone on your "
            "network who can reach this machine can open the page and use its API"
        )
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    app = create_app(options, folders, tuple(kept))
    uvicorn.Server(uvicorn_config(app, host=host, port=port)).run()
