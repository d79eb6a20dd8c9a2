"""The embedders' one error: callers decide how to degrade and say so in the log."""

from graphmem.errors import GraphMemError


class EmbedderUnavailable(GraphMemError):
    """The embedding model could not be loaded or the embeddings endpoint failed."""
