"""The ONNX Runtime backend of all-MiniLM-L6-v2: its graph built offline from the packaged weights
without torch, sentence-transformers' vectors (it is the default, so every vector depends on it).
The dev data sets are checked in test_embedding_parity.py."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from falkmem.embedding import make_embedder
from falkmem.embedding.cache import CachedEmbedder
from falkmem.embedding.minilm import MINILM_NAME, SentenceTransformerEmbedder, minilm, minilm_path
from falkmem.embedding.onnx import OnnxMiniLMEmbedder
from falkmem.errors import ConfigError
from falkmem.settings import Settings

SAMPLE = [
    "Priya Chandran leads the Atlas team.",
    "UA 837 arrives at 11:40; confirmation code QX7-84B.",
    "Journal of Psychotherapy Integration\nThe Journal of Psychotherapy Integration is a quarterly"
    " peer-reviewed academic journal published by the American Psychological Association.",
    "Zürich, São Paulo, Kraków and हिन्दी: names in many scripts. 東京は日本の首都です。",
    "ok",
    "word " * 600,  # far past 256 tokens: truncated like sentence-transformers does
    "Who was the first president of the association which published Journal of Psychotherapy Integration?",
    "I'm planning a trip to Japan next spring and I'd like some advice on where to stay in Kyoto,"
    " ideally somewhere quiet near the temples but close to a bus line.",
]


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("onnx-cache")


@pytest.fixture(scope="module")
def onnx_embedder(cache_dir: Path) -> OnnxMiniLMEmbedder:
    emb = minilm("onnx", cache_dir=cache_dir)
    assert isinstance(emb, OnnxMiniLMEmbedder)
    return emb


def test_onnx_vectors_are_the_torch_vectors(
    onnx_embedder: OnnxMiniLMEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    assert onnx_embedder.name == embedder.name == MINILM_NAME  # tenants stay compatible
    assert onnx_embedder.dimension == embedder.dimension == 384
    got = onnx_embedder.embed(SAMPLE)
    want = embedder.embed(SAMPLE)
    diff = max(abs(x - y) for a, b in zip(got, want, strict=True) for x, y in zip(a, b, strict=True))
    assert diff <= 1e-5, diff  # measured 2.7e-7 (docs/performance.md, "Embedder backends")
    assert all(abs(math.sqrt(sum(x * x for x in v)) - 1.0) < 1e-5 for v in got)  # unit vectors


def test_the_graph_follows_the_packaged_config(onnx_embedder: OnnxMiniLMEmbedder) -> None:
    import json

    import onnx

    config = json.loads((minilm_path() / "config.json").read_text())
    model = onnx.load(str(onnx_embedder.model_file))
    assert model.producer_name == "falkmem" and [o.version for o in model.opset_import] == [17]
    assert [i.name for i in model.graph.input] == ["input_ids", "attention_mask", "token_type_ids"]
    assert [o.name for o in model.graph.output] == ["sentence_embedding"]
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("Softmax") == config["num_hidden_layers"] == 6
    assert ops.count("Erf") == 6  # the exact GELU, once per layer
    norms = [n for n in model.graph.node if n.op_type == "LayerNormalization"]
    assert len(norms) == 1 + 2 * 6
    eps = [onnx.helper.get_attribute_value(a) for n in norms for a in n.attribute if a.name == "epsilon"]
    assert eps == [pytest.approx(config["layer_norm_eps"], rel=1e-6)] * len(norms)  # 1e-12, not 1e-5


def test_batching_and_padding_do_not_change_a_vector(onnx_embedder: OnnxMiniLMEmbedder) -> None:
    batch = onnx_embedder.embed(SAMPLE)
    for text, v in zip(SAMPLE, batch, strict=True):
        [alone] = onnx_embedder.embed([text])
        assert _cos(alone, v) >= 0.99999
    assert onnx_embedder.embed([]) == []


def test_the_export_is_cached_and_reused(
    onnx_embedder: OnnxMiniLMEmbedder, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = onnx_embedder.model_file
    assert path.is_file() and cache_dir in path.parents
    stamp = path.stat().st_mtime_ns
    from falkmem.embedding import onnx

    def no_export(*_: object) -> None:
        raise AssertionError("built again")

    monkeypatch.setattr(onnx, "_build_fp32", no_export)
    again = OnnxMiniLMEmbedder(minilm_path(), name=MINILM_NAME, cache_dir=cache_dir)
    assert again.model_file == path and path.stat().st_mtime_ns == stamp
    assert _cos(again.embed(["ok"])[0], onnx_embedder.embed(["ok"])[0]) >= 0.99999
    assert not list(path.parent.glob("*.tmp"))  # written under a temporary name, then renamed


def test_int8_is_another_model(cache_dir: Path, embedder: SentenceTransformerEmbedder) -> None:
    q = minilm("onnx-int8", cache_dir=cache_dir)
    assert q.name == f"{MINILM_NAME}-int8" and q.dimension == 384
    got = q.embed(SAMPLE[:3])
    want = embedder.embed(SAMPLE[:3])
    assert all(0.8 < _cos(a, b) < 1.0 for a, b in zip(got, want, strict=True))
    [question] = q.embed(["Who leads the Atlas team?"])
    assert max(range(3), key=lambda i: _cos(question, got[i])) == 0


def test_the_setting_picks_the_backend(cache_dir: Path) -> None:
    onnx_default = make_embedder(Settings(embedder_cache_dir=cache_dir))
    assert isinstance(onnx_default, CachedEmbedder) and onnx_default.name == MINILM_NAME
    assert isinstance(onnx_default.inner, OnnxMiniLMEmbedder)
    torch = make_embedder(Settings(embedder_backend="torch", query_cache_size=0))
    assert isinstance(torch, SentenceTransformerEmbedder) and torch.name == MINILM_NAME
    with pytest.raises(ConfigError):
        Settings.load(embedder_backend="tensorflow")
    with pytest.raises(ConfigError, match="FALKMEM_EMBEDDER_BACKEND"):
        minilm("tensorflow")


def test_an_unwritable_cache_is_a_config_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    emb = minilm("onnx", cache_dir=blocked / "onnx")
    with pytest.raises(ConfigError, match="FALKMEM_EMBEDDER_CACHE_DIR"):
        emb.embed(["hello"])


def test_a_single_text_runs_on_its_own_one_thread_session(cache_dir: Path) -> None:
    # A search's question is embedded on a one-thread session (embedder_query_threads=1), so it
    # does not wait on the core the keyword query holds beside it; batches use every core.
    emb = minilm("onnx", cache_dir=cache_dir)
    assert isinstance(emb, OnnxMiniLMEmbedder)
    [single] = emb.embed([SAMPLE[6]])
    assert set(emb._sessions) == {1}
    batch = emb.embed(SAMPLE)
    assert set(emb._sessions) == {0, 1}
    assert emb._sessions[1].get_session_options().intra_op_num_threads == 1
    assert _cos(single, batch[6]) >= 0.99999  # same model, same vector

    shared = minilm("onnx", cache_dir=cache_dir, query_threads=0)
    assert isinstance(shared, OnnxMiniLMEmbedder)
    shared.embed([SAMPLE[0]])
    shared.embed(SAMPLE[:3])
    assert set(shared._sessions) == {0}  # one session for both
    from_settings = make_embedder(
        Settings(embedder_query_threads=0, query_cache_size=0, embedder_cache_dir=cache_dir)
    )
    assert isinstance(from_settings, OnnxMiniLMEmbedder) and from_settings._query_threads == 0
