"""`attnlab serve`: the web app (web/app.py) under uvicorn, with what the terminal is told.

The command prints where the lesson is, warns when the host can be reached from the network,
opens a browser if asked, and serves a model folder beside the known models (loaded here first,
so a bad folder is named before the server starts; the page and the known models are served all
the same, as a folder is input from outside like any request). How the app runs under uvicorn
is the web's (`uvicorn_config`); importing this module needs the server extra.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys
import threading
import webbrowser

import uvicorn

from attnlab.atlas.file import read_atlas
from attnlab.errors import AttnlabError
from attnlab.models.kept import SERVED, refuse_folder, serve_folder, served_name
from attnlab.models.registry import model_folder
from attnlab.web.app import create_app, uvicorn_config
from attnlab.web.server_options import LOOPBACK_HOSTS, ServerOptions

__all__ = ["check_port", "is_loopback", "serve", "serve_url"]


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


def check_port(host: str, port: int) -> None:
    """Refuse a port something already listens on, before any address is printed: bind it
    as uvicorn will (SO_REUSEADDR) and let it go. A host this machine cannot bind or resolve
    is left to uvicorn's own message; port 0 (any free port) needs no check."""
    if port == 0:
        return
    try:
        found = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)  # fmt: skip
    except (OSError, UnicodeError):
        return
    for family, kind, proto, _, address in found:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise AttnlabError(
                        f"port {port} on {host} is already in use (another attnlab serve?): "
                        f"stop it, or choose another port with --port, e.g. --port {port + 1}",
                        field="port",
                    ) from None
                return  # another reason (an address not this machine's): uvicorn says it


def _serve_folders(models: tuple[str, ...]) -> tuple[str, ...]:
    """Register each folder now (a bad one is named before serving) and say the name it is
    asked for by: its own, or its own with a number when another folder has that name."""
    served: list[str] = []
    for model in models:
        try:
            again = served_name(model)
            name = serve_folder(model)
        except AttnlabError as exc:
            refuse_folder(model, str(exc))  # a page asking for it is told why
            print(
                f"attnlab: not serving the model at {model!r}: {exc}\n"
                "attnlab: serving the lesson and the known models without it",
                file=sys.stderr,
            )
            continue
        if again is not None:
            print(f"attnlab: the model at {model!r} is served once, as {name!r}")
            continue
        own = model_folder(model)[0]
        holder = f"the model at {SERVED[own]!r}" if own in SERVED else "a known model"
        why = f" ({own!r} is taken: {holder})" if name != own else ""
        print(f"attnlab: serving the model at {model!r} as {name!r}{why}")
        served.append(model)
    return tuple(served)


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    options: ServerOptions | None = None,
    models: tuple[str, ...] = (),
    atlases: tuple[str, ...] = (),
) -> None:
    """Run the app under uvicorn until interrupted; `models` are folders (or GGUFs) to serve
    beside the known models, each loaded before the server starts (a bad one is named and left
    out); `atlases` are atlas files for the Head atlas tab (likewise). A port already in use is
    refused before anything is loaded or printed."""
    check_port(host, port)
    options = ServerOptions(host=host) if options is None else options
    url = serve_url(host, port)
    folders = _serve_folders(models)
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
