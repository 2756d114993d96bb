"""Routing: decides per query whether vector search is enough or the graph must be walked."""

from ..config import RouterConfig as RouterConfig
from .router import RELATIONAL_CUES as RELATIONAL_CUES
from .router import Plan as Plan
from .router import plan_query as plan_query

__all__ = ["RELATIONAL_CUES", "Plan", "RouterConfig", "plan_query"]
