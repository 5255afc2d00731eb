"""The red team's kinds of bad input (NUL bytes, lone surrogates, broken UTF-8, huge ids, wrong
types, oversize values) at every URL pattern, anonymous and logged in: never a server error.

The patterns come from the URL resolver, so a new pattern is probed without touching this file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern

from quizzes.exams import proctor
from quizzes.instructors import cohorts
from quizzes.models import BlueprintArea, ExamBlueprint
from tests.factories import BankFactory, RuleFactory, ScenarioFactory, UserFactory, simple_spec
from tests.quizzes.conftest import land_tutor_spec, make_question
from tests.quizzes.practice.test_practice_journey import first_choices

pytestmark = pytest.mark.django_db

# Path segments, as sent on the wire.
BAD_SEGMENTS = [
    "99999999999999999999",  # past 64 bits
    "-1",
    "0",
    "%00",  # NUL
    "%ED%A0%80",  # a UTF-8-encoded lone surrogate
    "%FF",  # not UTF-8 at all
    "x" * 3000,  # oversize
    "abc",  # a word where an id goes
    "1.5",
]
# Values for every query and form field (the middleware refuses the first two at the door; the
# others reach the views).
BAD_VALUES = [
    "a\x00b",
    "\ud800",
    "99999999999999999999",
    "-1",
    "x" * 5000,
    "[]",
    '{"format": "scenario/1", "title": "\\u0000", "source": "\\ud800"}',
    '{"format": "tutor-bank/1", "scenarios": [{"id": "\\u0000"}]}',
    # a scenario the engine accepts, but with a NUL and a lone surrogate in its text
    json.dumps(simple_spec("nul-title") | {"title": "a\x00b", "stored_ruling": "\ud800"}),
]
QUERY_VALUES = ["a\x00b", "\ud800", "99999999999999999999", "x" * 5000]
FIELDS = [
    "document", "username", "password", "password1", "password2", "email", "old_password",
    "new_password1",
    "new_password2", "token", "text", "title", "description", "visibility", "code", "banks",
    "rule", "page", "q", "next", "choice", "cards", "statements", "low", "high", "number",
    "action", "_selected_action", "select_across", "index", "post", "spec", "slug", "source",
    "stored_ruling", "stored_expect", "definition", "localized_names", "name", "o", "p",
]  # fmt: skip
FORM = "application/x-www-form-urlencoded"
PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def route_text(pattern) -> str:
    """A RoutePattern's route; a RegexPattern's regex written as a route (groups as <name>)."""
    text = str(pattern)
    if isinstance(pattern, RegexPattern):
        text = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"<\1>", text).lstrip("^").rstrip("$")
        text = text.replace("\\", "")
    return text


def all_patterns(resolver, prefix: str = "") -> Iterator[tuple[str, str]]:
    for entry in resolver.url_patterns:
        route = prefix + route_text(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from all_patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.name or route


def url_patterns() -> list[tuple[str, str]]:
    """(route, name) for every pattern the resolver serves, included ones too; the log-outs
    last, so the probes before them keep their session."""
    patterns = list(all_patterns(get_resolver()))
    return sorted(patterns, key=lambda pattern: "logout" in pattern[1])


@pytest.fixture
def world():
    """Real rows for every kind of path parameter, owned by the prober."""
    prober = UserFactory(username="prober", is_staff=True)
    learner = UserFactory(username="probe-learner")
    bank = BankFactory(owner=prober, slug="probe-bank")
    scenario = ScenarioFactory(spec=land_tutor_spec(), bank=bank, slug="probe-scenario")
    rule = RuleFactory(number="701.23b")
    make_question(scenario, bank, rules=[rule])
    blueprint = ExamBlueprint.objects.create(
        slug="probe-exam", title="E", time_limit_minutes=30, owner=prober
    )
    blueprint.banks.add(bank)  # the owner's choice of banks (an owner's own bank)
    BlueprintArea.objects.create(blueprint=blueprint, title="Search", rules="701.23", count=1)
    cohort = cohorts.do_create_cohort(prober, "Probe cohort")
    cohorts.do_join(learner, cohort)
    return {"prober": prober, "learner": learner, "blueprint": blueprint, "cohort": cohort}


def practice_response_pk(client) -> int:
    page = client.get("/practice/")
    data = {"token": page.context["token"], **first_choices(page.context["form"])}
    client.post("/practice/answer/", data)
    return page.context["question"].responses.get().pk


@pytest.fixture
def valid_values(world, client):
    """A value that matches a real row, by route name and parameter (else by parameter)."""
    client.force_login(world["prober"])
    response_pk = practice_response_pk(client)
    sitting = proctor.start(world["prober"], world["blueprint"])
    client.logout()
    by_parameter = {
        "slug": "probe-bank",
        "scenario_slug": "probe-scenario",
        "number": "701.23b",
        "position": "1",
        "user_id": str(world["learner"].pk),
        "app_label": "quizzes",
        "object_id": str(world["prober"].pk),
        "uidb64": "MQ",
        "token": "set-password",
        "url": "nothing-here",
        "content_type_id": "1",
    }
    by_route = {
        "feedback": {"pk": str(response_pk)},
        "exam_start": {"slug": "probe-exam"},
        "cohort_detail": {"pk": str(world["cohort"].pk)},
        "cohort_banks": {"pk": str(world["cohort"].pk)},
        "cohort_member": {"pk": str(world["cohort"].pk)},
    }
    sitting_pk = {"pk": str(sitting.pk)}

    def value(route_name: str, parameter: str) -> str:
        if parameter in by_route.get(route_name, {}):
            return by_route[route_name][parameter]
        if route_name.startswith("exam_") and parameter == "pk":
            return sitting_pk["pk"]
        return by_parameter.get(parameter, "1")

    return value


def fill(route: str, values: dict[str, str]) -> str:
    return "/" + PARAMETER.sub(lambda match: values[match["name"]], route)


def probe_urls(value) -> list[str]:
    """Per pattern: its real URL, then each parameter in turn replaced by each bad segment."""
    urls = []
    for route, name in url_patterns():
        parameters = [match["name"] for match in PARAMETER.finditer(route)]
        valid = {parameter: value(name, parameter) for parameter in parameters}
        urls.append(fill(route, valid))
        for parameter in parameters:
            urls.extend(fill(route, valid | {parameter: bad}) for bad in BAD_SEGMENTS)
    return urls


def server_errors(client, requests) -> list[tuple[str, str, int]]:
    client.raise_request_exception = False
    failed = []
    for method, url, data in requests:
        if data is None:
            response = client.generic(method, url)
        elif any(isinstance(value, SimpleUploadedFile) for value in data.values()):
            response = client.post(url, data)  # multipart
        else:  # form-encoded by hand: a lone surrogate goes on the wire as its UTF-8 bytes
            response = client.post(url, _encode(data), content_type=FORM)
        if response.status_code >= 500:
            failed.append((method, url[:120], response.status_code))
    return failed


def test_the_corpus_covers_every_url_pattern(world, valid_values):
    names = {name for _, name in url_patterns()}
    assert {"rule_detail", "exam_question", "cohort_member", "healthz", "login"} <= names
    assert any(route.startswith("admin/") for route, _ in url_patterns())
    parameters = sum(len(PARAMETER.findall(route)) for route, _ in url_patterns())
    urls = probe_urls(valid_values)
    assert parameters > 40
    assert sum("%00" in url for url in urls) == parameters  # each parameter gets each segment


@pytest.mark.parametrize("who", ["anonymous", "prober", "superuser"])
def test_bad_path_segments_never_give_a_server_error(client, world, valid_values, who):
    if who == "prober":
        client.force_login(world["prober"])
    elif who == "superuser":
        client.force_login(UserFactory(username="root-probe", is_staff=True, is_superuser=True))
    urls = probe_urls(valid_values)
    requests = [("GET", url, None) for url in urls] + [("POST", url, None) for url in urls]
    assert server_errors(client, requests) == []


def bodies() -> Iterator[dict]:
    for bad in BAD_VALUES:
        yield dict.fromkeys(FIELDS, bad)
    yield {name: [BAD_VALUES[2], BAD_VALUES[3]] for name in FIELDS}  # repeated fields
    upload = SimpleUploadedFile("bank.json", json.dumps({"x": "\x00"}).encode())
    yield {"file": upload, "text": "\x00"}


@pytest.mark.parametrize("who", ["anonymous", "prober", "superuser"])
def test_bad_query_and_form_values_never_give_a_server_error(client, world, valid_values, who):
    if who == "prober":
        client.force_login(world["prober"])
    elif who == "superuser":
        client.force_login(UserFactory(username="root-probe", is_staff=True, is_superuser=True))
    requests = []
    for route, name in url_patterns():
        url = fill(
            route, {p["name"]: valid_values(name, p["name"]) for p in PARAMETER.finditer(route)}
        )
        for bad in QUERY_VALUES:
            requests.append(("GET", url + "?" + _encode(dict.fromkeys(FIELDS, bad)), None))
        requests.extend(("POST", url, body) for body in bodies())
    assert server_errors(client, requests) == []


def _encode(query: dict) -> str:
    from urllib.parse import urlencode

    return urlencode(query, doseq=True, errors="surrogatepass")


# Hostile scenario documents, as an instructor writes or imports them: numbers JSON has not (NaN,
# Infinity), numbers past Python's int-to-str limit, a number where a list goes. Each is refused
# with a clear error at the way in (config/inputs.StrictJSONDecoder, read by quizzes/limits.py),
# and nothing is stored.
def hostile_documents() -> dict[str, str]:
    valid = json.dumps(simple_spec("hostile") | {"stored_ruling": "Alice searches."})
    history = '"history": []'
    bear = '{"name": "Hostile Bear", "types": ["Creature"], "power": VALUE, "toughness": 2}'
    huge = "9" * 5000
    documents = {
        f"history {value}": valid.replace(history, f'"history": {value}')
        for value in ("NaN", "Infinity", "-Infinity", "5", "1e999", huge, f"[{huge}]")
    }
    for value in ("NaN", "Infinity", huge):
        documents[f"power {value[:10]}"] = valid.replace(
            '"cards": []', f'"cards": [{bear.replace("VALUE", value)}]'
        )
    documents["a key's value"] = valid.replace(history, f'"history": [], "x": -{huge}')
    return documents


HOSTILE = hostile_documents()
REFUSAL = re.compile(
    r"not a number JSON allows|over the limit of 18 digits|too large a number|must be a list"
)


@pytest.fixture
def author(client):
    from django.contrib.auth.models import Group

    from config.roles import INSTRUCTORS_GROUP

    user = UserFactory(username="hostile-author")
    user.groups.add(Group.objects.get_or_create(name=INSTRUCTORS_GROUP)[0])
    client.force_login(user)
    return BankFactory(owner=user, slug="hostile-bank")


def stored_nothing() -> bool:
    from quizzes.models import Scenario

    return not Scenario.objects.filter(spec__id="hostile").exists()


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_scenario_is_refused_with_its_reason_in_the_editor(client, author, name):
    client.raise_request_exception = False
    for url in ("/banks/hostile-bank/scenarios/new/", "/banks/hostile-bank/scenarios/new/preview/"):
        response = client.post(url, {"document": HOSTILE[name]})
        assert response.status_code < 500, url
        assert REFUSAL.search(response.content.decode()), url
    assert stored_nothing()


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_scenario_is_refused_with_its_reason_on_import(client, author, name):
    client.raise_request_exception = False
    bank_file = '{"format": "tutor-bank/1", "scenarios": [' + HOSTILE[name] + "]}"
    upload = SimpleUploadedFile("hostile.json", bank_file.encode())
    response = client.post("/banks/hostile-bank/import/", {"file": upload})
    assert response.status_code < 500
    page = b"".join(response.streaming_content) if response.streaming else response.content
    assert REFUSAL.search(page.decode())
    assert stored_nothing()


@pytest.mark.parametrize("name", ["history NaN", "power 9999999999", "a key's value"])
def test_a_hostile_scenario_is_refused_in_the_admin(client, name):
    client.raise_request_exception = False
    client.force_login(UserFactory(username="root-hostile", is_staff=True, is_superuser=True))
    response = client.post("/admin/quizzes/scenario/add/", {"spec": HOSTILE[name]})
    assert response.status_code < 500
    assert "errorlist" in response.content.decode()
    assert stored_nothing()


@pytest.mark.parametrize("value", ["NaN", "Infinity", "9" * 5000])
def test_a_hostile_number_typed_in_a_builder_choice_is_text(value):
    from quizzes.instructors import builder

    assert builder._choice_value(builder.Choice("Alice", "x", value)) == value
