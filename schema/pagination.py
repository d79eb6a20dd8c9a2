"""The default page size every connection uses (the validation limits count a page field's
selection this many times when `first` is not given)."""

from __future__ import annotations

from graphmem.model.paging import DEFAULT_PAGE

__all__ = ["DEFAULT_PAGE"]
