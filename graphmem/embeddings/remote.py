"""An OpenAI-compatible `/embeddings` route; the model is GRAPHMEM_EMBEDDING_MODEL."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem import admission
from graphmem.embeddings.errors import EmbedderUnavailable
from graphmem.embeddings.types import Vector
from graphmem.settings import Settings
from graphmem.tls import model_http_client

REMOTE_BATCH = 512


class RemoteEmbedder:
    engine = "remote"

    def __init__(self, settings: Settings) -> None:
        import openai

        self._openai = openai
        self.base_url = str(settings.embedding_base_url)
        self.model = settings.embedding_model
        self.name = f"remote:{self.model}"
        secret = settings.embedding_api_key or settings.llm_api_key
        self._client = openai.OpenAI(base_url=self.base_url,
                                     api_key=secret.get_secret_value() if secret else "unused",
                                     timeout=settings.embedding_timeout,
                                     max_retries=settings.llm_max_retries,
                                     http_client=model_http_client())

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        out: list[Vector] = []
        items = list(texts)
        for start in range(0, len(items), REMOTE_BATCH):
            out.extend(self._chunk(items[start:start + REMOTE_BATCH]))
        return out

    def _chunk(self, chunk: list[str]) -> list[Vector]:
        try:
            with admission.waiting():
                reply = self._client.embeddings.create(model=self.model, input=chunk)
        except self._openai.OpenAIError as e:
            detail = (getattr(e, "message", None) or str(e) or type(e).__name__)
            raise EmbedderUnavailable(
                f"embeddings endpoint {self.base_url} failed: {str(detail).splitlines()[0]}"
            ) from e
        ordered = sorted(reply.data, key=lambda d: d.index)
        if len(ordered) != len(chunk):
            raise EmbedderUnavailable(f"embeddings endpoint {self.base_url} returned"
                                      f" {len(ordered)} vectors for {len(chunk)} texts")
        return [[float(x) for x in d.embedding] for d in ordered]

    def close(self) -> None:
        self._client.close()
