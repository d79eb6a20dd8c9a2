"""One TLS context per process for the clients of model endpoints.

An OpenAI client builds its HTTP client with a new SSL context, reading the CA bundle each
time (about 30 ms of CPU). A process that builds several (one chat and one embedding client
per Runtime) shares one context, made as httpx makes its own (the same CAs, SSL_CERT_FILE
and SSL_CERT_DIR honoured).
"""

from __future__ import annotations

import functools
import ssl
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    import openai


@functools.cache
def context() -> ssl.SSLContext:
    return httpx.create_ssl_context()


def model_http_client() -> openai.DefaultHttpxClient:
    """The HTTP client an OpenAI client would build by default, on the shared context."""
    import openai

    return openai.DefaultHttpxClient(verify=context())
