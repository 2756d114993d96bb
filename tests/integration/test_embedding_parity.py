"""The default ONNX embedder gives sentence-transformers' vectors on the dev data (issue 51): every
value within 1e-5, on a seeded sample of each set plus its longest texts (truncated at 256
tokens). Runs where the ``sentence-transformers`` extra is installed (the test extra) and the
shared data is there; ``tools/embedder_parity.py`` runs the full comparison."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

from benchmarks.datasets.base import DatasetMissing
from benchmarks.datasets.texts import SETS, sample_texts
from falkmem.embedding.minilm import SentenceTransformerEmbedder, minilm
from falkmem.embedding.onnx import MAX_SEQ_LENGTH, OnnxMiniLMEmbedder

pytestmark = pytest.mark.skipif(
    find_spec("sentence_transformers") is None, reason="the reference needs the sentence-transformers extra"
)

PER_SET = 24
LONGEST = 6


@pytest.fixture(scope="module")
def onnx_embedder(tmp_path_factory: pytest.TempPathFactory) -> OnnxMiniLMEmbedder:
    emb = minilm("onnx", cache_dir=tmp_path_factory.mktemp("onnx-cache"))
    assert isinstance(emb, OnnxMiniLMEmbedder)
    return emb


@pytest.mark.parametrize("name", SETS)
def test_the_onnx_vectors_are_sentence_transformers_vectors(
    name: str, onnx_embedder: OnnxMiniLMEmbedder, embedder: SentenceTransformerEmbedder
) -> None:
    try:
        texts = sample_texts(name, PER_SET, longest=LONGEST)
    except DatasetMissing as exc:
        pytest.skip(f"the shared data is not here: {exc}")
    from tokenizers import Tokenizer

    from falkmem.embedding.minilm import minilm_path

    counter = Tokenizer.from_file(str(minilm_path() / "tokenizer.json"))
    counter.no_truncation()
    lengths = [len(e.ids) for e in counter.encode_batch(texts)]
    if name in ("2wiki", "longmemeval", "beam"):  # these sets' longest texts run past the window
        assert max(lengths) > MAX_SEQ_LENGTH
    got = onnx_embedder.embed(texts)
    want = embedder.embed(texts)
    diffs = [max(abs(x - y) for x, y in zip(a, b, strict=True)) for a, b in zip(got, want, strict=True)]
    worst = max(range(len(texts)), key=diffs.__getitem__)
    assert diffs[worst] <= 1e-5, (diffs[worst], lengths[worst], texts[worst][:200])
