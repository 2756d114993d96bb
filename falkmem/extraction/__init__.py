"""Entity and relation extraction: the rule-based default, the LLM extractor and their models."""

from ..text.keys import canonical_key as canonical_key
from .base import Extractor as Extractor
from .keys import lookup_relation as lookup_relation
from .keys import normalize_relation as normalize_relation
from .known import KnownEntities as KnownEntities
from .known import KnownMatch as KnownMatch
from .llm import LLMExtractor as LLMExtractor
from .llm import user_text as user_text
from .rules import RuleExtractor as RuleExtractor
from .types import ENTITY_TYPES as ENTITY_TYPES
from .types import RELATIONS as RELATIONS
from .types import EntityMention as EntityMention
from .types import EntityType as EntityType
from .types import Extraction as Extraction
from .types import Relation as Relation
from .types import Triple as Triple

__all__ = [
    "ENTITY_TYPES",
    "RELATIONS",
    "EntityMention",
    "EntityType",
    "Extraction",
    "Extractor",
    "KnownEntities",
    "KnownMatch",
    "LLMExtractor",
    "Relation",
    "RuleExtractor",
    "Triple",
    "canonical_key",
    "lookup_relation",
    "normalize_relation",
    "user_text",
]
