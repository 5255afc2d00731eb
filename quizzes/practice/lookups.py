"""`AnyOf`: a column is one of a list of ids, the list sent as a single parameter.

`IN (1, 2, ..., 150)` is a parameter per id, for Django to compile and for PostgreSQL to plan
every time; the selection excludes the scenarios of a learner's last 150 answers from each walk
of the difficulty index (quizzes/selection.py), so it sends one array instead (PostgreSQL
`= ANY(%s)`, SQLite `IN (SELECT value FROM json_each(%s))`).
"""

from __future__ import annotations

import json

from django.db.models import F, Lookup


class AnyOf(Lookup):
    """`AnyOf("scenario_id", ids)`: usable directly in `filter()` and `exclude()`. With
    `start_here=False` SQLite never starts from the column's index (as it would for an IN list
    on an indexed column, then sorting every row it found: `+column` is its way to say so);
    PostgreSQL chooses by cost."""

    lookup_name = "any_of"
    prepare_rhs = False

    def __init__(self, field: str, ids, *, start_here: bool = True) -> None:
        super().__init__(F(field), sorted(ids))
        self.start_here = start_here

    @property
    def identity(self):
        return (*super().identity, self.start_here)

    def as_sql(self, compiler, connection):
        column, params = compiler.compile(self.lhs)
        sql, listed = any_of(column, self.rhs, connection.vendor, start_here=self.start_here)
        return sql, [*params, *listed]


def any_of(column: str, ids, vendor: str, *, start_here: bool = True) -> tuple[str, list]:
    """`column` is one of `ids`, as SQL and its one parameter (`AnyOf` and hand-written SQL)."""
    ids = sorted(ids)
    if vendor == "postgresql":
        return f"{column} = ANY(%s)", [ids]
    column = column if start_here else f"+{column}"
    return f"{column} IN (SELECT value FROM json_each(%s))", [json.dumps(ids)]
