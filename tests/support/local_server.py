"""The one local HTTP server of the test fakes: 127.0.0.1, an ephemeral port, a daemon thread,
and a stop that always comes (leaving the block, :meth:`LocalServer.stop`, or by itself after
``lifetime`` seconds, so a test that hangs never leaves a server behind).

Every fake (``fake_openreview``, ``fake_graph_api``, ``arxiv_server``, ``fault_server``) gives
it a request handler class and reads :attr:`LocalServer.base_url`; none starts or stops a
server itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

LOOPBACK = "127.0.0.1"
LIFETIME = 300.0  # seconds: the default time after which a server stops by itself


class LocalServer:
    """``handler`` served on 127.0.0.1 in a daemon thread; a context manager."""

    def __init__(
        self,
        handler: type[BaseHTTPRequestHandler],
        lifetime: float = LIFETIME,
        server_class: type[ThreadingHTTPServer] = ThreadingHTTPServer,
    ) -> None:
        self.httpd = server_class((LOOPBACK, 0), handler)
        self.httpd.daemon_threads = True
        self.lifetime = lifetime
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._timer = threading.Timer(lifetime, self.stop)
        self._timer.daemon = True
        self._stopped = threading.Event()

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (no trailing slash)."""
        return f"http://{LOOPBACK}:{self.port}"

    def start(self) -> LocalServer:
        self._thread.start()
        self._timer.start()
        return self

    def stop(self, wait: bool = True) -> None:
        """Stop serving (once); ``wait``: return only when the server is closed."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self._timer.cancel()
        # shutdown() blocks until serve_forever returns: never on the serving thread itself
        closer = threading.Thread(target=self._close, daemon=True)
        closer.start()
        if wait and threading.current_thread() is not self._thread:
            closer.join(timeout=10)

    def stopped(self, timeout: float) -> bool:
        """Whether the server has stopped serving, waiting at most ``timeout`` seconds."""
        self._thread.join(timeout=timeout)
        return not self._thread.is_alive()

    def _close(self) -> None:
        if self._thread.is_alive():
            self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


@contextmanager
def serving(
    handler: type[BaseHTTPRequestHandler], lifetime: float = LIFETIME
) -> Iterator[LocalServer]:
    """``with serving(Handler) as server:``: ``server.base_url`` answers inside the block."""
    with LocalServer(handler, lifetime) as server:
        yield server
