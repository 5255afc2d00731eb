"""Which instances a family keeps does not turn on `content/true_values.json`
(quizzes/rulings/instances.py): the audit writes that file from the instances kept, so it can
settle; and generation is the same whatever the hash seed of the process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from quizzes.loading.generated import read_families
from quizzes.rulings import balance
from quizzes.rulings.instances import expand
from rules.engine import default_catalog

ROOT = Path(__file__).resolve().parents[3]
ARCHIVE_TRAP = "archive-trap-after-a-search"


def _family(family_id: str):
    catalog = default_catalog()
    return next(f for f in read_families(catalog=catalog) if f.id == family_id), catalog


def _skewed(counts: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Every other value of each claim three times as common."""
    return {
        claim: {key: count * (3 if i % 2 else 1) for i, (key, count) in enumerate(found.items())}
        for claim, found in counts.items()
    }


def test_archive_trap_keeps_the_same_instances_whatever_the_counts(monkeypatch):
    """With the counts deciding which statements are made, and an instance kept only when it
    asked something new, Archive Trap kept 34 boards with no counts, 28 with the file's and
    other ones again with its rewrite: its claims' counts moved by ~4 at every rewrite."""
    family, catalog = _family(ARCHIVE_TRAP)
    real = balance.true_values()
    assert real  # the file is read
    kept = {}
    for name, counts in {"empty": {}, "real": real, "skewed": _skewed(real)}.items():
        monkeypatch.setattr(balance, "true_values", lambda counts=counts: counts)
        balance._fitted.cache_clear()
        instances = expand(family, catalog, seed=0, count=60).instances
        assert all(instance.questions for instance in instances), name  # each stored, asked
        kept[name] = [instance.slug for instance in instances]
    balance._fitted.cache_clear()
    assert kept["real"] == kept["empty"]
    assert kept["skewed"] == kept["empty"]


def test_unbalanced_acts_as_if_there_were_no_counts():
    with balance.unbalanced():
        assert balance.counts_of("finds") == {}
        assert balance.stated_share("finds", "must") == 1.0
    assert balance.counts_of("finds")  # the file's counts again, after


GENERATE = """
import hashlib, json, django
django.setup()
from quizzes.loading.generated import read_families
from quizzes.rulings.instances import expand
from rules.engine import default_catalog
catalog = default_catalog()
made = [
    [i.slug, i.spec, [[q.key, q.kind, q.prompt, q.claims] for q in i.questions]]
    for family in read_families(catalog=catalog) if family.id in %r
    for i in expand(family, catalog, seed=0, count=60).instances
]
print(len(made), hashlib.sha256(json.dumps(made, sort_keys=True).encode()).hexdigest())
"""


@pytest.mark.parametrize("families", [(ARCHIVE_TRAP, "gifts-ungiven")])
def test_generation_is_the_same_whatever_the_hash_seed(families):
    """Sets and dict orders must not reach a question: two processes, two hash seeds."""
    outputs = []
    for hash_seed in ("1", "2"):
        env = {
            **os.environ,
            "PYTHONHASHSEED": hash_seed,
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "config.settings_test",
        }
        done = subprocess.run(
            [sys.executable, "-c", GENERATE % (families,)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        outputs.append(done.stdout.split())
    assert int(outputs[0][0]) > 0
    assert outputs[0] == outputs[1]
