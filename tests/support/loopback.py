"""HTTP calls to the servers the tests start on loopback, all sharing one SSL context.

httpx builds an SSL context for every client it makes, a one-shot `httpx.post` included, by
reading the system's CA bundle (about 30 ms of CPU each time). The tests speak plain HTTP to
loopback, so one context made once serves every call; over thousands of calls that is
minutes of the suite's time on two cores.
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx

TLS = ssl.create_default_context()


def request(method: str, url: str, **kwargs: Any) -> httpx.Response:
    return httpx.request(method, url, verify=TLS, **kwargs)


def get(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(url, verify=TLS, **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.post(url, verify=TLS, **kwargs)


def client(**kwargs: Any) -> httpx.Client:
    return httpx.Client(verify=TLS, **kwargs)


def async_client(**kwargs: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(verify=TLS, **kwargs)


def options(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.options(url, verify=TLS, **kwargs)
