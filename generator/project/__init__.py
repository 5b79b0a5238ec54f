"""Where things are: the designer's project over the built-in data, safe paths and safe writes."""

from .paths import inside, safe_join
from .project import Layer, Project

__all__ = ["Layer", "Project", "inside", "safe_join"]
