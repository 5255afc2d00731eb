"""The one exception the engine raises for bad input or an illegal fixed choice."""

from __future__ import annotations


class ScenarioError(ValueError):
    """Bad scenario, card definition, claim or choice; `path` names the field, `message` why."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message
