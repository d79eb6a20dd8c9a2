"""A small OpenAI-compatible HTTP server for the tests: scripted replies, counted calls.

It serves `POST /v1/chat/completions` and `POST /v1/embeddings` on a loopback port from a
thread, so the real `openai` client runs its real HTTP code path (retries included) against
it. Replies are scripted per input: the message between the extraction prompt's fences, or
the recall question, or the label of a relation to describe. Every request is recorded, so
tests can count model calls by kind (`extract`, `answer`, `describe`, `embeddings`) and read
exactly what the model was shown.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from graphmem.recall.answer import SYSTEM as ANSWER_SYSTEM
from graphmem.recall.relation_description import SYSTEM as DESCRIBE_SYSTEM
from graphmem.remember.extract import SYSTEM as EXTRACT_SYSTEM


@dataclass(frozen=True)
class Reply:
    """One scripted HTTP answer: a chat content, or an error status; `tool_calls` (a tool's
    name and its arguments, each) makes a chat answer the model's calls of tools."""

    content: str = ""
    status: int = 200
    headers: tuple[tuple[str, str], ...] = (("retry-after-ms", "1"),)
    tool_calls: tuple[tuple[str, dict[str, Any]], ...] = ()


@dataclass
class Request:
    route: str
    kind: str
    body: dict[str, Any]
    input: str

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][-1]["content"])

    @property
    def response_format(self) -> str:
        fmt = self.body.get("response_format")
        return str(fmt["type"]) if fmt else "none"


@dataclass
class _State:
    scripts: dict[tuple[str, str], deque[Reply]] = field(default_factory=dict)
    failures: dict[str, deque[Reply]] = field(default_factory=lambda: defaultdict(deque))
    requests: list[Request] = field(default_factory=list)
    json_schema: bool = True
    embedding_dims: int = 384
    held: threading.Event | None = None
    turns: deque[Reply] = field(default_factory=deque)  # an agent's chat turns, in order


def facts_reply(*facts: dict[str, Any]) -> str:
    return json.dumps({"facts": list(facts)})


def _kind(body: dict[str, Any]) -> str:
    system = str(body.get("messages", [{}])[0].get("content", ""))
    if system == EXTRACT_SYSTEM:
        return "extract"
    if system == ANSWER_SYSTEM:
        return "answer"
    if system == DESCRIBE_SYSTEM:
        return "describe"
    return "chat"


def _input(kind: str, user: str) -> str:
    """The message an extraction prompt fences, or the question of an answer prompt."""
    if kind == "extract" and "<<<\n" in user:
        return user.rsplit("<<<\n", 1)[1].rsplit("\n>>>", 1)[0]
    if kind == "answer" and user.startswith("Question: "):
        return user.split("\n", 1)[0][len("Question: "):]
    if kind == "describe" and user.startswith("Relation label: "):
        return user.split("\n", 1)[0][len("Relation label: "):]
    return user


def _default(kind: str, user: str) -> str:
    if kind == "extract":
        return facts_reply()
    if kind == "describe":  # a description that adds no words: the label's own reading stays
        return json.dumps({"description": "", "forward": [], "inverse": [], "tail_nouns": [],
                           "head_nouns": []})
    facts = [line for line in user.split("Facts:\n", 1)[-1].split("\n\n")[0].splitlines()
             if line.startswith("#")]
    return f"Answer from {len(facts)} facts."


def _vector(text: str, dims: int) -> list[float]:
    """A deterministic unit vector per text (for mechanics, not for meaning)."""
    seed = hashlib.sha256(text.encode()).digest()
    raw = [((seed[i % len(seed)] * (i + 1)) % 251) / 125.0 - 1.0 for i in range(dims)]
    norm = math.sqrt(sum(x * x for x in raw)) or 1.0
    return [x / norm for x in raw]


class LLMServer:
    """Start once per session; `reset()` between tests."""

    def __init__(self) -> None:
        self._state = _State()
        self._lock = threading.Lock()
        self._arrived = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # ---- scripting --------------------------------------------------------------------------
    def reset(self) -> None:
        with self._lock:
            self._state = _State()

    def script(self, kind: str, text: str, *replies: str | Reply) -> None:
        """Replies for requests of `kind` whose input is exactly `text`, in order; the last
        one repeats."""
        queue = deque(r if isinstance(r, Reply) else Reply(r) for r in replies)
        with self._lock:
            self._state.scripts[(kind, text)] = queue

    def turns(self, *replies: Reply) -> None:
        """An agent loop's model turns: each chat request that is none of graphmem's own
        (extraction, answer, description) takes the next, whatever its messages."""
        with self._lock:
            self._state.turns.extend(replies)

    def extraction(self, text: str, *facts: dict[str, Any]) -> None:
        self.script("extract", text, facts_reply(*facts))

    def fail(self, route: str, status: int, times: int = 1, message: str = "scripted") -> None:
        """The next `times` requests to `route` (chat or embeddings) answer `status`."""
        body = json.dumps({"error": {"message": message, "type": "server_error"}})
        with self._lock:
            for _ in range(times):
                self._state.failures[route].append(Reply(body, status))

    def without_json_schema(self) -> None:
        """Behave like an endpoint without structured output (400 on json_schema)."""
        with self._lock:
            self._state.json_schema = False

    def hold(self) -> tuple[threading.Event, threading.Event]:
        """Hold every chat reply until the second event is set; the first is set when a
        request arrives, so a test knows a call is waiting on the model."""
        arrived, release = threading.Event(), threading.Event()
        with self._lock:
            self._state.held = release
        self._arrived = arrived
        return arrived, release

    def embedding_dims(self, dims: int) -> None:
        with self._lock:
            self._state.embedding_dims = dims

    # ---- counters ---------------------------------------------------------------------------
    @property
    def requests(self) -> list[Request]:
        with self._lock:
            return list(self._state.requests)

    def count(self, kind: str) -> int:
        return sum(1 for r in self.requests if r.kind == kind)

    def last(self, kind: str) -> Request:
        return [r for r in self.requests if r.kind == kind][-1]

    # ---- serving ----------------------------------------------------------------------------
    def _chat(self, body: dict[str, Any]) -> Reply:
        kind = _kind(body)
        user = str(body["messages"][-1]["content"])
        text = _input(kind, user)
        with self._lock:
            self._state.requests.append(Request("chat", kind, body, text))
            if self._state.failures["chat"]:
                return self._state.failures["chat"].popleft()
            fmt = (body.get("response_format") or {}).get("type")
            if fmt == "json_schema" and not self._state.json_schema:
                message = "response_format json_schema is not supported by this server"
                return Reply(json.dumps({"error": {"message": message}}), 400)
            queue = self._state.scripts.get((kind, text))
            reply = (queue.popleft() if len(queue) > 1 else queue[0]) if queue else None
            if reply is None and kind == "chat" and self._state.turns:
                reply = self._state.turns.popleft()
            held = self._state.held
        if held is not None:
            self._arrived.set()
            held.wait(60)
        reply = reply or Reply(_default(kind, user))
        if reply.status != 200:
            return reply
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": f"call_{len(self.requests)}_{n}", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(arguments)}}
                for n, (name, arguments) in enumerate(reply.tool_calls)]
        return Reply(json.dumps({
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion",
            "created": int(time.time()), "model": body.get("model", "test"),
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }))

    def _embeddings(self, body: dict[str, Any]) -> Reply:
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        with self._lock:
            self._state.requests.append(Request("embeddings", "embeddings", body, ""))
            if self._state.failures["embeddings"]:
                return self._state.failures["embeddings"].popleft()
            dims = self._state.embedding_dims
        data = [{"object": "embedding", "index": i, "embedding": _vector(str(t), dims)}
                for i, t in enumerate(texts)]
        return Reply(json.dumps({"object": "list", "data": data, "model": body.get("model"),
                                 "usage": {"prompt_tokens": 1, "total_tokens": 1}}))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.endswith("/chat/completions"):
                    reply = server._chat(body)
                elif self.path.endswith("/embeddings"):
                    reply = server._embeddings(body)
                else:
                    reply = Reply(json.dumps({"error": {"message": "no such route"}}), 404)
                payload = reply.content.encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for name, value in reply.headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        return Handler


def closed_port_url() -> str:
    """A loopback URL nothing listens on (a dead endpoint)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
