"""What a process keeps between requests (quizzes/kept.py): the engine's sessions by spec and
catalog, the practice filter's fields by all they show; each exactly what computing it again
gives, and nothing of one learner shown to another."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils import translation

from quizzes.kept import Kept
from quizzes.models import Bank
from quizzes.practice.forms import FILTER_FIELDS_HTML, PracticeFilterForm
from quizzes.rulings import ScenarioError
from quizzes.rulings.sessions import SESSIONS, session_for
from rules.cards import catalog_for
from tests.factories import BankFactory, UserFactory
from tests.quizzes.conftest import land_tutor_spec


def test_kept_drops_the_least_recently_used_and_keeps_no_failure():
    kept: Kept[str] = Kept(2)
    made = []

    def make(value):
        def build():
            made.append(value)
            return value

        return build

    assert kept.get("a", make("a")) == "a" and kept.get("b", make("b")) == "b"
    assert kept.get("a", make("a2")) == "a"  # kept: not made again, and now the most recent
    kept.get("c", make("c"))  # drops "b", the least recently used
    assert kept.get("b", make("b2")) == "b2" and made == ["a", "b", "c", "b2"]
    with pytest.raises(ValueError):
        kept.get("d", lambda: int("no"))
    assert kept.get("d", make("d")) == "d"


@pytest.mark.django_db
def test_a_session_is_kept_per_spec_and_catalog():
    spec = land_tutor_spec()
    site = catalog_for(None)
    session = session_for(spec, site)
    assert session_for(dict(reversed(list(spec.items()))), site) is session  # same content
    assert session_for(spec, None) is not session  # another catalog, another session
    other = land_tutor_spec("land-tutor-2")
    assert session_for(other, site) is not session
    assert session.resolve() == session_for(spec, site).resolve()


@pytest.mark.django_db
def test_a_refused_spec_raises_every_time_and_keeps_nothing():
    kept_before = len(SESSIONS)
    for _ in range(2):
        with pytest.raises(ScenarioError):
            session_for({"format": "scenario/1", "zones": "not zones"}, None)
    assert len(SESSIONS) == kept_before


def filter_form(user, **data) -> PracticeFilterForm:
    query = QueryDict(mutable=True)
    query.update(data)
    form = PracticeFilterForm(query, user=user)
    form.is_valid()
    return form


def rendered_afresh(user, **data) -> str:
    """Django's own rendering, the bank select offering every bank the learner may see."""
    form = filter_form(user, **data)
    form.fields["bank"].queryset = Bank.objects.visible_to(user)
    return render_to_string("_form_fields.html", {"form": form})


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [{}, {"level": "L2"}, {"level": "L9"}, {"rule": "999.99z"}, {"bank": "public-bank"}],
)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_kept_filter_fields_are_what_rendering_them_gives(data, language):
    BankFactory(slug="public-bank", title="Public bank")
    learner = UserFactory()
    with translation.override(language):
        first = filter_form(learner, **data).fields_html()
        again = filter_form(learner, **data).fields_html()
        assert first == again == rendered_afresh(learner, **data)
    assert len(FILTER_FIELDS_HTML) >= 1


@pytest.mark.django_db
def test_a_bank_only_its_owner_sees_is_never_in_another_learners_kept_filter():
    BankFactory(slug="public-bank", title="Public bank")
    owner, other = UserFactory(), UserFactory()
    BankFactory(slug="owners-bank", title="The owner's own bank", owner=owner, visibility="private")
    mine = filter_form(owner).fields_html()
    theirs = filter_form(other).fields_html()
    assert "The owner&#x27;s own bank" in mine or "The owner's own bank" in mine
    assert "own bank" not in theirs and "owners-bank" not in theirs
    assert theirs == rendered_afresh(other)
