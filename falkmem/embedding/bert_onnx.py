"""A BERT sentence-embedding graph built with ``onnx``'s own helpers, without torch.

sentence-transformers runs all-MiniLM-L6-v2 as three modules (``modules.json``): the BERT
encoder, mean pooling over the real tokens, L2 normalisation. :func:`build_sentence_bert`
writes the same computation as one ONNX graph, with the operators ``torch.onnx`` used for it
before (opset 17: ``MatMul`` + ``Add`` for every linear layer, ``LayerNormalization``, the
exact erf GELU, an additive attention mask), from the weights in ``model.safetensors`` (read
with numpy) and the sizes in ``config.json``; ONNX Runtime gives the old export's vectors bit
for bit. Its inputs are the tokenizer's ``input_ids``,
``attention_mask`` and ``token_type_ids``; its output ``sentence_embedding`` is one unit
vector per text.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from ..errors import ConfigError

OPSET = 17
"""``LayerNormalization`` needs 17; ``Gelu`` (20) is not used, so older runtimes load the graph."""

IR_VERSION = 8
"""The oldest IR version opset 17 allows, as ``torch.onnx`` wrote it: any ONNX Runtime >= 1.13 loads it."""

_MASKED = float(np.finfo(np.float32).min)
"""Added to the attention scores of padding, as transformers does: softmax gives them weight 0."""


def build_sentence_bert(model_dir: Path) -> onnx.ModelProto:
    """The sentence-embedding graph of the BERT model in ``model_dir``.

    Args:
        model_dir: a sentence-transformers folder: ``config.json``, ``model.safetensors``,
            ``modules.json`` and ``1_Pooling/config.json`` (mean pooling, then Normalize).

    Raises:
        ConfigError: the folder is not a BERT model with mean pooling and normalisation, or a
            weight is missing or has another shape than its config says.
    """
    from safetensors.numpy import load_file

    config = json.loads((model_dir / "config.json").read_text())
    _check_pipeline(model_dir, config)
    weights = load_file(str(model_dir / "model.safetensors"))
    return _Builder(config, weights).build()


def _check_pipeline(model_dir: Path, config: dict[str, Any]) -> None:
    """Only what the graph implements: BERT, exact GELU, absolute positions, mean + normalise."""
    problems = []
    if config.get("model_type") != "bert":
        problems.append(f"model_type {config.get('model_type')!r} (not 'bert')")
    if config.get("hidden_act") != "gelu":
        problems.append(f"hidden_act {config.get('hidden_act')!r} (not 'gelu')")
    if config.get("position_embedding_type", "absolute") != "absolute":
        problems.append(f"position_embedding_type {config.get('position_embedding_type')!r}")
    modules = json.loads((model_dir / "modules.json").read_text())
    kinds = [m["type"].rsplit(".", 1)[-1] for m in modules]
    if kinds != ["Transformer", "Pooling", "Normalize"]:
        problems.append(f"modules {kinds} (not Transformer, Pooling, Normalize)")
    else:
        pooling = json.loads((model_dir / modules[1]["path"] / "config.json").read_text())
        on = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v)
        if on != ["pooling_mode_mean_tokens"]:
            problems.append(f"pooling {on} (not mean tokens)")
    if problems:
        raise ConfigError(f"cannot build an ONNX graph for {model_dir}: " + "; ".join(problems))


class _Builder:
    """Appends nodes and initializers; every node output gets a fresh name."""

    def __init__(self, config: dict[str, Any], weights: dict[str, np.ndarray[Any, Any]]) -> None:
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        if self.hidden % self.heads:
            raise ConfigError(f"hidden_size {self.hidden} is not a multiple of {self.heads} heads")
        self.config = config
        self.weights = weights
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    # --- primitives ---------------------------------------------------------------------
    def weight(self, name: str, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
        array = self.weights.get(name)
        if array is None:
            raise ConfigError(f"model.safetensors has no {name!r}")
        if tuple(array.shape) != shape:
            raise ConfigError(f"{name!r} has shape {tuple(array.shape)}; the config says {shape}")
        return np.ascontiguousarray(array, dtype=np.float32)

    def const(self, name: str, array: np.ndarray[Any, Any]) -> str:
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def op(self, op_type: str, *inputs: str, **attrs: Any) -> str:
        self._count += 1
        out = f"{op_type}_{self._count}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], name=out, **attrs))
        return out

    # --- layers -------------------------------------------------------------------------
    def linear(self, x: str, prefix: str, n_in: int, n_out: int) -> str:
        """``x @ W.T + b`` (torch.nn.Linear); W is stored transposed so MatMul reads it as is."""
        w = self.const(f"{prefix}.weight.T", self.weight(f"{prefix}.weight", (n_out, n_in)).T.copy())
        b = self.const(f"{prefix}.bias", self.weight(f"{prefix}.bias", (n_out,)))
        return self.op("Add", b, self.op("MatMul", x, w))

    def table(self, name: str, rows_key: str) -> str:
        """An embedding table, ``(config[rows_key], hidden)``."""
        return self.const(name, self.weight(name, (int(self.config[rows_key]), self.hidden)))

    def layer_norm(self, x: str, prefix: str) -> str:
        w = self.const(f"{prefix}.weight", self.weight(f"{prefix}.weight", (self.hidden,)))
        b = self.const(f"{prefix}.bias", self.weight(f"{prefix}.bias", (self.hidden,)))
        return self.op("LayerNormalization", x, w, b, axis=-1, epsilon=self.eps)

    def attention(self, x: str, prefix: str, mask_bias: str) -> str:
        h, head = self.hidden, self.hidden // self.heads
        split = self.const(f"{prefix}.split", np.array([0, 0, self.heads, head], dtype=np.int64))

        def heads(name: str, perm: list[int]) -> str:
            """One projection split into heads: (batch, heads, tokens, head) in ``perm`` order."""
            return self.op(
                "Transpose", self.op("Reshape", self.linear(x, f"{prefix}.{name}", h, h), split), perm=perm
            )

        q, k, v = heads("query", [0, 2, 1, 3]), heads("key", [0, 2, 3, 1]), heads("value", [0, 2, 1, 3])
        scale = self.const(f"{prefix}.scale", np.array(1.0 / math.sqrt(head), dtype=np.float32))
        scores = self.op("Add", self.op("Mul", self.op("MatMul", q, k), scale), mask_bias)
        context = self.op("MatMul", self.op("Softmax", scores, axis=-1), v)
        merge = self.const(f"{prefix}.merge", np.array([0, 0, h], dtype=np.int64))
        return self.op("Reshape", self.op("Transpose", context, perm=[0, 2, 1, 3]), merge)

    def gelu(self, x: str, prefix: str) -> str:
        """The exact GELU, ``x * 0.5 * (1 + erf(x / sqrt 2))``, in torch.onnx's order of ops."""
        sqrt2 = self.const(f"{prefix}.sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
        one = self.const(f"{prefix}.one", np.array(1.0, dtype=np.float32))
        half = self.const(f"{prefix}.half", np.array(0.5, dtype=np.float32))
        erf = self.op("Add", self.op("Erf", self.op("Div", x, sqrt2)), one)
        return self.op("Mul", self.op("Mul", x, erf), half)

    def encoder_layer(self, x: str, i: int, mask_bias: str) -> str:
        p, h = f"encoder.layer.{i}", self.hidden
        inner = int(self.config["intermediate_size"])
        attended = self.attention(x, f"{p}.attention.self", mask_bias)
        attended = self.linear(attended, f"{p}.attention.output.dense", h, h)
        x = self.layer_norm(self.op("Add", attended, x), f"{p}.attention.output.LayerNorm")
        up = self.gelu(self.linear(x, f"{p}.intermediate.dense", h, inner), f"{p}.intermediate")
        down = self.linear(up, f"{p}.output.dense", inner, h)
        return self.layer_norm(self.op("Add", down, x), f"{p}.output.LayerNorm")

    # --- the graph ----------------------------------------------------------------------
    def build(self) -> onnx.ModelProto:
        h = self.hidden
        inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"])
                  for n in ("input_ids", "attention_mask", "token_type_ids")]  # fmt: skip

        words = self.table("embeddings.word_embeddings.weight", "vocab_size")
        kinds = self.table("embeddings.token_type_embeddings.weight", "type_vocab_size")
        where = self.table("embeddings.position_embeddings.weight", "max_position_embeddings")
        zero = self.const("zero", np.array(0, dtype=np.int64))
        one = self.const("one", np.array(1, dtype=np.int64))
        length = self.op("Gather", self.op("Shape", "input_ids"), one, axis=0)
        x = self.op("Add", self.op("Gather", words, "input_ids"), self.op("Gather", kinds, "token_type_ids"))
        x = self.op("Add", x, self.op("Gather", where, self.op("Range", zero, length, one)))
        x = self.layer_norm(x, "embeddings.LayerNorm")

        # (1 - mask) * float32 min, shaped (batch, 1, 1, tokens) to broadcast over heads and queries.
        mask = self.op("Cast", "attention_mask", to=TensorProto.FLOAT)
        one_f = self.const("one_f", np.array(1.0, dtype=np.float32))
        masked = self.const("masked", np.array(_MASKED, dtype=np.float32))
        bias = self.op("Mul", self.op("Sub", one_f, mask), masked)
        bias = self.op("Unsqueeze", bias, self.const("heads_queries", np.array([1, 2], dtype=np.int64)))

        for i in range(self.layers):
            x = self.encoder_layer(x, i, bias)

        # Mean over the real tokens (sentence_transformers.models.Pooling), then x / max(|x|, 1e-12)
        # (Normalize, which is torch.nn.functional.normalize).
        tokens_axis = self.const("tokens_axis", np.array([1], dtype=np.int64))
        weights = self.op("Unsqueeze", mask, self.const("last_axis", np.array([2], dtype=np.int64)))
        summed = self.op("ReduceSum", self.op("Mul", x, weights), tokens_axis, keepdims=0)
        count = self.op("ReduceSum", weights, tokens_axis, keepdims=0)
        count = self.op("Clip", count, self.const("min_count", np.array(1e-9, dtype=np.float32)))
        mean = self.op("Div", summed, count)
        norm = self.op("ReduceL2", mean, axes=[1], keepdims=1)
        norm = self.op("Clip", norm, self.const("min_norm", np.array(1e-12, dtype=np.float32)))
        self.nodes.append(helper.make_node("Div", [mean, norm], ["sentence_embedding"], name="Div_out"))

        output = helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", h])
        graph = helper.make_graph(self.nodes, "sentence_bert", inputs, [output], self.initializers)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION,
            producer_name="falkmem",
        )  # fmt: skip
        onnx.checker.check_model(model)
        return model
