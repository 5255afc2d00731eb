"""The database cache's tables (without Redis: the throttles' counters and the values every
worker shares, config/settings.py), made by `migrate` as `createcachetable` makes them, so a
fresh database needs no other step. Each table once (two caches share one); one that exists is
left alone. With REDIS_URL set there is none to make: a deployment that later drops Redis runs
`manage.py createcachetable` once (docs/deployment.md)."""

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.db import BaseDatabaseCache
from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations


def cache_tables() -> list[str]:
    return sorted(
        {
            caches[alias]._table
            for alias in settings.CACHES
            if isinstance(caches[alias], BaseDatabaseCache)
        }
    )


def create_cache_tables(apps, schema_editor):
    command = CreateCacheTable()
    command.verbosity = 0
    for table in cache_tables():
        command.create_table(schema_editor.connection.alias, table, dry_run=False)


def drop_cache_tables(apps, schema_editor):
    existing = schema_editor.connection.introspection.table_names()
    for table in cache_tables():
        if table in existing:
            schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(table)}")


class Migration(migrations.Migration):
    dependencies = [("quizzes", "0001_initial")]

    operations = [migrations.RunPython(create_cache_tables, drop_cache_tables)]
