"""A witness outside the host receives every checkpoint line: POSTed to an HTTP endpoint
(here a local one), or appended to a file; a witness that is down is logged, and the local
line stands."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from graphmem.mirror.checkpoints import witness

from support.api_support import free_port

pytestmark = pytest.mark.races

LINE = '{"at":"2026-12-06T00:00:00+00:00","hash":"ab","key_id":"k","seq":7}\n'


@pytest.fixture
def endpoint() -> Iterator[tuple[str, list[bytes]]]:
    """An HTTP witness on loopback that keeps what it is sent."""
    received: list[bytes] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            received.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/anchor", received
    server.shutdown()
    thread.join(10)


def test_an_http_witness_receives_each_line(endpoint: tuple[str, list[bytes]]) -> None:
    url, received = endpoint
    witness(url, LINE)
    assert received == [LINE.encode()]


def test_a_witness_that_is_down_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="graphmem.mirror.checkpoints"):
        witness(f"http://127.0.0.1:{free_port()}/anchor", LINE)
    assert "the audit witness http://127.0.0.1" in caplog.text
