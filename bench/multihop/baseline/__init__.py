"""The question-guided ranking as it stood before relation knowledge (graphmem 5f0a644's
recall/question.py, path_rank.py and path_search.py, unchanged but for their imports), so
that bench.multihop reports the ranking beside the one it replaced, in the same run."""
