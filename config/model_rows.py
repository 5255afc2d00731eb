"""Model instances from hand-written SQL (config/sql.py): a model's columns for a SELECT, and the
instance read back from them exactly as the ORM would make it.

A raw cursor gives each database's own values (SQLite: text for a `DateTimeField` and a
`JSONField`, 0/1 for a `BooleanField`), so each column is passed through the converters the
ORM's compiler applies to it; the instance is made by `Model.from_db`, as a queryset makes it
(saved state, deferred fields loaded on first use).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


class Columns:
    """The concrete fields of `model` but `skip` (deferred: read on first use), as columns of
    the table under `alias`."""

    def __init__(self, model: type[Model], alias: str, skip: Sequence[str] = ()) -> None:
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if f.attname not in skip]
        self.names = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(field.column)}" for field in self.fields)
        self._converters: list | None = None

    def __len__(self) -> int:
        return len(self.fields)

    def _converters_of(self) -> list:
        if self._converters is None:  # once the connection is set up (its vendor's converters)
            self._converters = []
            for field in self.fields:
                column = field.get_col(self.model._meta.db_table)
                self._converters.append(
                    (
                        column,
                        connection.ops.get_db_converters(column)
                        + field.get_db_converters(connection),
                    )
                )
        return self._converters

    def read(self, row: Sequence[Any], start: int = 0) -> Model | None:
        """The instance in `row[start:start + len(self)]`; None when its primary key is NULL
        (no row matched the outer join)."""
        values = list(row[start : start + len(self.fields)])
        if values[self.names.index(self.model._meta.pk.attname)] is None:
            return None
        for index, (column, converters) in enumerate(self._converters_of()):
            value = values[index]
            for converter in converters:
                value = converter(value, column, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.names, values)

    def prepared(self, values: dict[str, Any]) -> list[Any]:
        """`values` (attname: value) as the ORM would send them in an INSERT or UPDATE, in the
        order given."""
        by_name = {field.attname: field for field in self.fields}
        return [by_name[name].get_db_prep_save(value, connection) for name, value in values.items()]
