"""Certification practice: draw a sitting from a blueprint, enforce its deadline, score it.

Policies (see docs/architecture.md, "Certification practice"):
- A sitting's questions are drawn once, at the start, from the blueprint's own banks (chosen by
  its owner: their banks or the site's public ones, never another instructor's), as far as the
  learner may use them (`selection.available_questions(user)`: active, never from scenarios the
  engine marks invalid or disagreeing), per blueprint row at random in the database, one question
  per scenario where the bank allows. A row the bank can't fill is filled as far as it goes; no
  questions at all is an `ExamError`.
- One sitting at a time per learner (a database constraint), and the blueprint's retake policy:
  `retake_wait_hours` between two starts (default 24) and at most `max_sittings` in all. Both
  are checked by one conditional UPDATE of the learner's `SittingQuota` row, so two starts sent
  at once can't both pass.
- While a sitting runs, practice is paused (`views.practice` and `views.answer`): practice gives
  feedback at once, on questions the exam may draw from.
- The deadline is the server's: every request checks it; once it has passed no answer is taken
  (but for `ANSWER_GRACE`, for a form sent just before) and the sitting is finished and scored.
- Each question is answered once, in any order; skipping is allowed. While the exam runs an
  answer is only kept on its `ExamItem`: nothing is graded, so no page (practice feedback,
  progress, mastery) can give a verdict away. Finishing grades every answer through
  `answers.submit`, in order: exam answers are real answers, saved as `Response`s, and update Elo
  and FSRS like practice ones (at the finish, not as they are given).
- A question is right when every part of it is right; unanswered questions count as wrong. The
  sitting passes when the right answers reach the pass mark.
"""

from __future__ import annotations

import datetime
import math
import operator
import random
from collections import defaultdict
from dataclasses import dataclass, field
from functools import reduce
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from quizzes import rulings
from quizzes.lti import grades as lti_grades
from quizzes.models import (
    Accommodation,
    Assignment,
    Attempt,
    Bank,
    BlueprintArea,
    ExamBlueprint,
    ExamItem,
    ExamSitting,
    Question,
    Response,
    Scenario,
    SittingQuota,
)
from quizzes.models.exams import rule_is_under
from quizzes.practice import answers, selection, topics
from rules.models import Rule, number_order

# A form sent in the last seconds still counts when it arrives just after the deadline.
ANSWER_GRACE = datetime.timedelta(seconds=5)
# Candidates fetched per question wanted, to prefer questions from different scenarios.
CANDIDATES_PER_QUESTION = 4


class ExamError(Exception):
    """The sitting can't be started or the answer can't be taken."""


class TimeUp(ExamError):
    """The deadline has passed: the sitting is finished."""


# Queries -----------------------------------------------------------------------------------


def blueprints() -> QuerySet[ExamBlueprint]:
    return ExamBlueprint.objects.filter(is_active=True).prefetch_related("areas")


def _assigned_to(user) -> Q:
    """Blueprints set to a cohort `user` belongs to by the blueprint's owner."""
    assigned = Assignment.objects.filter(
        cohort__memberships__user=user, cohort__instructor=F("blueprint__owner")
    ).values("blueprint_id")
    return Q(pk__in=assigned)


def blueprints_for(user) -> QuerySet[ExamBlueprint]:
    """The exams `user` may sit: the site's, those their cohorts' instructors set them, and
    their own (an instructor tries their exam). Another instructor's exam is not found."""
    return blueprints().filter(Q(owner=None) | Q(owner=user) | _assigned_to(user))


def accommodation(user, blueprint: ExamBlueprint) -> Accommodation:
    """The learner's accommodation on the exam (unsaved and empty when there is none)."""
    found = Accommodation.objects.filter(user=user, blueprint=blueprint).first()
    return found or Accommodation(user=user, blueprint=blueprint)


def sittings_of(user) -> QuerySet[ExamSitting]:
    """Every lookup of a sitting goes through its owner: another learner's is not found."""
    return ExamSitting.objects.owned_by(user).select_related("attempt")


def item_statuses(sitting: ExamSitting) -> list[dict[str, Any]]:
    """Position and answered flag of every item, in order: one query."""
    return [
        {"position": position, "answered": answered_at is not None}
        for position, answered_at in sitting.items.order_by("position").values_list(
            "position", "answered_at"
        )
    ]


def next_unanswered(statuses: list[dict[str, Any]], after: int) -> int | None:
    """The first unanswered position after `after`, wrapping round; None when all are answered."""
    ordered = sorted(statuses, key=lambda row: (row["position"] <= after, row["position"]))
    return next((row["position"] for row in ordered if not row["answered"]), None)


# Drawing and starting ----------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    question_id: int
    area: str
    version_id: int | None = None  # the scenario's current version when drawn


def _rule_ids_by_area(areas: list[BlueprintArea]) -> dict[int, set[int]]:
    """Current rules under each area's prefixes, from one query on the indexed rule number."""
    prefixes = {prefix for area in areas for prefix in area.rule_prefixes}
    if not prefixes:
        return {}
    starts = reduce(operator.or_, (Q(number__startswith=prefix) for prefix in prefixes))
    rules = list(Rule.objects.current().filter(starts).values_list("id", "number"))
    return {
        area.pk: {
            rule_id
            for rule_id, number in rules
            if any(rule_is_under(number, prefix) for prefix in area.rule_prefixes)
        }
        for area in areas
    }


def draw(user, blueprint: ExamBlueprint, rng: random.Random | None = None) -> list[Drawn]:
    """Questions for a sitting: per area, random available ones on its rules, in random order.

    Each area costs one query, ordered at random and limited in the database, whatever the size
    of the bank. Questions from a scenario already drawn are used only when nothing else is left.
    """
    rng = rng or random.Random()
    areas = list(blueprint.areas.all())
    rule_ids = _rule_ids_by_area(areas)
    through = Question.rules.through
    banks = blueprint.banks.filter(pk__in=Bank.objects.usable_in_blueprint_of(blueprint.owner))
    if (
        blueprint.owner_id is not None
        and blueprint.owner_id != user.pk
        and (ExamBlueprint.objects.filter(_assigned_to(user), pk=blueprint.pk).exists())
    ):  # set by their instructor: the exam's banks, practised or not (the exam is the door)
        available = selection.servable(Question.objects.filter(bank__in=banks))
    else:
        available = selection.available_questions(user).filter(bank__in=banks)
    drawn: list[Drawn] = []
    taken: set[int] = set()
    scenarios: set[int] = set()
    situations: set[tuple[str, int]] = set()  # a family's instances are one situation, varied
    for area in areas:
        if not rule_ids.get(area.pk):
            continue
        on_rules = through.objects.filter(rule_id__in=rule_ids[area.pk]).values("question_id")
        candidates = list(
            available.filter(pk__in=on_rules)
            .exclude(pk__in=taken)
            .order_by("?")
            .values_list(
                "pk", "scenario_id", "scenario__current_version_id", "scenario__family_id"
            )[: area.count * CANDIDATES_PER_QUESTION]
        )
        picked: list[tuple[int, int, int, int | None]] = []
        # one question per situation first (a family, or a scenario of none), then one per
        # scenario, then others from the same scenarios, if the bank is shallow
        for fresh in (
            lambda c: _situation(c) not in situations,
            lambda c: c[1] not in scenarios,
            lambda c: True,
        ):
            for candidate in candidates:
                if len(picked) < area.count and candidate not in picked and fresh(candidate):
                    picked.append(candidate)
                    scenarios.add(candidate[1])
                    situations.add(_situation(candidate))
        for question_id, _scenario, version_id, _family in picked:
            taken.add(question_id)
            drawn.append(Drawn(question_id, area.title, version_id))
    drawn += _filled(available, areas, rule_ids, taken, sum(area.count for area in areas))
    rng.shuffle(drawn)
    return drawn


def _situation(candidate: tuple[int, int, int, int | None]) -> tuple[str, int]:
    """What makes two drawn questions one situation: their family, else their scenario."""
    _question, scenario, _version, family = candidate
    return ("family", family) if family is not None else ("scenario", scenario)


def _filled(
    available: QuerySet[Question],
    areas: list[BlueprintArea],
    rule_ids: dict[int, set[int]],
    taken: set[int],
    wanted: int,
) -> list[Drawn]:
    """When an area's rules have too few questions, the sitting still asks `wanted`: the rest
    come from the other areas' rules, each labelled with the area it is really on (so the
    report and `shortfalls` say honestly which part of the exam was short)."""
    missing = wanted - len(taken)
    every_rule = set().union(*rule_ids.values()) if rule_ids else set()
    if missing <= 0 or not every_rule:
        return []
    through = Question.rules.through
    on_rules = through.objects.filter(rule_id__in=every_rule).values("question_id")
    extra = list(
        available.filter(pk__in=on_rules)
        .exclude(pk__in=taken)
        .order_by("?")
        .values_list("pk", "scenario__current_version_id")[:missing]
    )
    rules_of: dict[int, set[int]] = defaultdict(set)
    for question_id, rule_id in through.objects.filter(
        question_id__in=[pk for pk, _version in extra], rule_id__in=every_rule
    ).values_list("question_id", "rule_id"):
        rules_of[question_id].add(rule_id)
    filled = []
    for question_id, version_id in extra:
        area = next(area for area in areas if rules_of[question_id] & rule_ids.get(area.pk, set()))
        taken.add(question_id)
        filled.append(Drawn(question_id, area.title, version_id))
    return filled


def shortfalls(sitting: ExamSitting) -> list[tuple[str, int, int]]:
    """(area, asked for, drawn) for each area of the sitting's blueprint its bank could not
    fill: the sitting page says so rather than pass a short exam off as the blueprint."""
    if sitting.blueprint is None:
        return []
    drawn: dict[str, int] = defaultdict(int)
    for area in sitting.items.values_list("area", flat=True):
        drawn[area] += 1
    return [
        (area.title, area.count, drawn[area.title])
        for area in sitting.blueprint.areas.all()
        if drawn[area.title] < area.count
    ]


def running_sitting(
    user, now=None, sittings: list[ExamSitting] | None = None
) -> ExamSitting | None:
    """The learner's sitting still running, after finishing any whose time is up. `sittings`:
    their unfinished sittings when the caller has just read them (default: read now, the
    latest started first; asked only where one may run: a practice page knows whether one does
    from the learner's rows)."""
    now = now or timezone.now()
    for sitting in sittings_of(user).unfinished() if sittings is None else sittings:
        if not close_if_over(sitting, now):
            return sitting
    return None


def check_can_start(user, blueprint: ExamBlueprint) -> list[Drawn]:
    if not blueprint.is_active:
        raise ExamError(_("This exam is not offered any more."))
    drawn = draw(user, blueprint)
    if _drew_unservable(drawn):  # stored before the limits: now marked, so drawn no more
        drawn = draw(user, blueprint)
    if not drawn:
        raise ExamError(_("There are no questions for this exam in the banks open to you yet."))
    return drawn


def _drew_unservable(drawn: list[Drawn]) -> bool:
    """Whether a drawn question's scenario is past the limits (each such one is marked)."""
    ids = [item.question_id for item in drawn]
    scenarios = Scenario.objects.filter(questions__pk__in=ids).distinct()
    marked = [selection.mark_if_past_limits(scenario) for scenario in scenarios]  # mark them all
    return any(marked)


def start(user, blueprint: ExamBlueprint, now=None) -> ExamSitting:
    """Start a sitting, or return the one still running (one sitting at a time).

    Raises ExamError when the retake policy refuses the start; a start sent twice at once
    (a double click) returns the sitting the first one opened.
    """
    now = now or timezone.now()
    running = running_sitting(user, now)
    if running is not None:
        return running
    drawn = check_can_start(user, blueprint)
    try:
        with transaction.atomic():
            if not _claim_start(user, blueprint, now):
                raise RetakeRefused(_retake_refusal(user, blueprint))
            return _open_sitting(user, blueprint, drawn, now)
    except (RetakeRefused, IntegrityError) as error:
        running = running_sitting(user, now)  # opened by the request sent just before this one
        if running is not None:
            return running
        if isinstance(error, RetakeRefused):
            raise
        message = _("Another exam of yours is starting; open it from the exams page.")
        raise ExamError(message) from error


class RetakeRefused(ExamError):
    """The blueprint's retake policy refuses another start for now."""


def _claim_start(user, blueprint: ExamBlueprint, now: datetime.datetime) -> bool:
    """Count this start on the learner's quota row if the retake policy allows it: one UPDATE
    whose WHERE is the policy, so of two starts at once only one can match."""
    SittingQuota.objects.bulk_create(
        [SittingQuota(user=user, blueprint=blueprint)], ignore_conflicts=True
    )
    policy = _policy(blueprint, now, accommodation(user, blueprint).extra_sittings)
    return bool(
        SittingQuota.objects.filter(policy, user=user, blueprint=blueprint).update(
            started_count=F("started_count") + 1, last_started_at=now
        )
    )


def _policy(blueprint: ExamBlueprint, now: datetime.datetime, extra_sittings: int = 0) -> Q:
    """The quota rows the blueprint's retake policy lets start a sitting at `now` (with the
    learner's `extra_sittings` on top of `max_sittings`)."""
    allowed = Q(last_started_at__isnull=True)
    if blueprint.retake_wait_hours:
        allowed |= Q(last_started_at__lte=now - _retake_wait(blueprint))
    else:
        allowed = Q()
    if blueprint.max_sittings is not None:
        allowed &= Q(started_count__lt=blueprint.max_sittings + extra_sittings)
    return allowed


def start_refusal(user, blueprint: ExamBlueprint, now=None) -> str:
    """Why the retake policy refuses `user` a start of `blueprint` now; "" when it allows one."""
    now = now or timezone.now()
    quota = SittingQuota.objects.filter(user=user, blueprint=blueprint)
    extra = accommodation(user, blueprint).extra_sittings
    if not quota.exists() or quota.filter(_policy(blueprint, now, extra)).exists():
        return ""
    return _retake_refusal(user, blueprint)


def _retake_wait(blueprint: ExamBlueprint) -> datetime.timedelta:
    return datetime.timedelta(hours=blueprint.retake_wait_hours)


def _retake_refusal(user, blueprint: ExamBlueprint) -> str:
    quota = SittingQuota.objects.get(user=user, blueprint=blueprint)
    allowed = None
    if blueprint.max_sittings is not None:
        allowed = blueprint.max_sittings + accommodation(user, blueprint).extra_sittings
    if allowed is not None and quota.started_count >= allowed:
        return ngettext(
            "This exam can be taken %(times)s time; you have taken it %(taken)s.",
            "This exam can be taken %(times)s times; you have taken it %(taken)s.",
            allowed,
        ) % {"times": allowed, "taken": quota.started_count}
    again = timezone.localtime(quota.last_started_at + _retake_wait(blueprint))
    hours = blueprint.retake_wait_hours
    return ngettext(
        "This exam can be started once every %(hours)s hour: you can start it again from "
        "%(again)s.",
        "This exam can be started once every %(hours)s hours: you can start it again from "
        "%(again)s.",
        hours,
    ) % {"hours": hours, "again": f"{formats.date_format(again, 'd M Y')}, {again:%H:%M:%S %Z}"}


def _open_sitting(user, blueprint: ExamBlueprint, drawn: list[Drawn], now) -> ExamSitting:
    extra = accommodation(user, blueprint).extra_minutes
    minutes = blueprint.time_limit_minutes
    attempt = Attempt.objects.create(
        user=user,
        kind=Attempt.Kind.EXAM,
        started_at=now,
        deadline=None if minutes is None else now + datetime.timedelta(minutes=minutes + extra),
    )
    sitting = ExamSitting.objects.create(
        attempt=attempt,
        blueprint=blueprint,
        title=blueprint.title,
        pass_mark=blueprint.pass_mark,
        time_limit_minutes=blueprint.time_limit_minutes,
        extra_minutes=extra,
        question_count=len(drawn),
    )
    ExamItem.objects.bulk_create(
        ExamItem(
            sitting=sitting,
            position=position,
            question_id=item.question_id,
            scenario_version_id=item.version_id,
            variant_seed=rulings.new_seed(),
            area=item.area,
        )
        for position, item in enumerate(drawn, start=1)
    )
    return sitting


# Answering, the clock, finishing -----------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    deadline: datetime.datetime | None  # None: untimed
    seconds_left: int | None

    @property
    def timed(self) -> bool:
        return self.seconds_left is not None

    @property
    def over(self) -> bool:
        return self.seconds_left is not None and self.seconds_left <= 0

    @property
    def label(self) -> str:
        if self.seconds_left is None:
            return _("Untimed: take the time you need")
        if self.over:
            return _("Time is up")
        if self.seconds_left < 60:
            return _("Less than a minute left")
        minutes = math.ceil(self.seconds_left / 60)
        return ngettext("%(minutes)s minute left", "%(minutes)s minutes left", minutes) % {
            "minutes": minutes
        }


def clock(sitting: ExamSitting, now=None) -> Clock:
    now = now or timezone.now()
    deadline = sitting.attempt.deadline
    if deadline is None:
        return Clock(None, None)
    return Clock(deadline, max(0, math.ceil((deadline - now).total_seconds())))


def close_if_over(
    sitting: ExamSitting, now=None, grace: datetime.timedelta = datetime.timedelta(0)
) -> bool:
    """Finish the sitting when its deadline (plus `grace`) has passed; True when it is finished."""
    now = now or timezone.now()
    if sitting.finished:
        return True
    deadline = sitting.attempt.deadline
    if deadline is not None and now >= deadline + grace:
        finish(sitting, now)
        return True
    return False


def record_answer(sitting: ExamSitting, item: ExamItem, answer: dict[str, Any], now=None) -> bool:
    """Keep the answer for grading at the end; False when the item was already answered.

    Raises TimeUp after the deadline (but for `ANSWER_GRACE`); the sitting is then finished.
    """
    now = now or timezone.now()
    if sitting.finished:
        raise TimeUp(_("This exam is finished."))
    deadline = sitting.attempt.deadline
    if deadline is not None and now > deadline + ANSWER_GRACE:
        finish(sitting, now)
        raise TimeUp(_("Time was up before this answer arrived."))
    with transaction.atomic():
        # The attempt's row lock orders this against `finish`: an answer is either kept before
        # the sitting closes (and graded by it) or refused after.
        still_open = Attempt.objects.select_for_update().filter(
            pk=sitting.pk, finished_at__isnull=True
        )
        if not list(still_open.values_list("pk", flat=True)):
            raise TimeUp(_("This exam is finished."))
        saved = ExamItem.objects.filter(pk=item.pk, answered_at__isnull=True).update(
            answer=answer, answered_at=now
        )
    return bool(saved)


def _graded(items: QuerySet[ExamItem], learner_id: int) -> list[tuple[ExamItem, answers.Grade]]:
    """The engine's verdict on each answered item as its learner saw it, in position order; an
    answer that does not fit its question is left out (it counts as wrong)."""
    graded = []
    for item in items.select_related("question__scenario", "scenario_version").order_by("position"):
        try:
            verdict = answers.grade(
                item.question, item.answer, item.variant_seed, learner_id, item.scenario_version
            )
            graded.append((item, verdict))
        except answers.AnswerError:
            continue
    return graded


def needed_to_pass(pass_mark: float, question_count: int) -> int:
    """Right answers needed: the pass mark's share of the questions, rounded up."""
    return math.ceil(pass_mark * question_count - 1e-9)


def finish(sitting: ExamSitting, now=None) -> ExamSitting:
    """Close the sitting (at the deadline at the latest), grade its answers, store the score.

    Idempotent: only the request that closes the attempt records grades, so each answer is
    graded once. The engine grades before the transaction, so no lock waits on it; inside, the
    attempt row comes first, then every question of the sitting in id order, then masteries
    (the order `answers._learn` keeps), so concurrent finishes cannot deadlock.
    """
    now = now or timezone.now()
    attempt = sitting.attempt
    if attempt.finished_at is not None:
        return sitting
    finished_at = min(now, attempt.deadline) if attempt.deadline else now
    graded = _graded(sitting.items.filter(answered_at__isnull=False), attempt.user_id)
    with transaction.atomic():
        closed = Attempt.objects.filter(pk=attempt.pk, finished_at__isnull=True).update(
            finished_at=finished_at
        )
        if not closed:  # finished by another request: take its result
            sitting.refresh_from_db()
            attempt.refresh_from_db(fields=["finished_at"])
            return sitting
        attempt.finished_at = finished_at
        # answers kept while the engine graded (`record_answer` waits for the close, not before)
        late = sitting.items.filter(answered_at__isnull=False).exclude(
            pk__in=[item.pk for item, _ in graded]
        )
        graded = sorted(graded + _graded(late, attempt.user_id), key=lambda pair: pair[0].position)
        question_ids = sorted({item.question_id for item, _ in graded})
        locked = Question.objects.select_for_update().filter(pk__in=question_ids).order_by("pk")
        list(locked.values_list("pk", flat=True))
        right = 0
        for item, verdict in graded:
            recorded = answers.record(
                attempt,
                item.question,
                item.answer,
                verdict,
                seed=item.variant_seed,
                version=item.scenario_version,
            )
            right += int(recorded.correct)
        sitting.right_count = right
        sitting.passed = right >= needed_to_pass(sitting.pass_mark, sitting.question_count)
        sitting.save(update_fields=["right_count", "passed"])
        # the score to the gradebooks of the LMS courses the exam was launched from (docs/lti.md),
        # once, by the request that closed the sitting, after its grades are committed
        transaction.on_commit(lambda: lti_grades.sitting_finished(sitting))
    return sitting


# The report --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ItemResult:
    item: ExamItem
    response: Response | None

    @property
    def answered(self) -> bool:
        return self.response is not None

    @property
    def correct(self) -> bool:
        """As graded at the finish, or as a later regrade found (a corrected key)."""
        if self.item.regraded_correct is not None:
            return self.item.regraded_correct
        return self.response is not None and self.response.correct

    @property
    def regraded(self) -> bool:
        """The regrade changed this question's verdict."""
        graded = self.response is not None and self.response.correct
        return self.item.regraded_correct is not None and self.item.regraded_correct != graded


@dataclass(frozen=True)
class Tally:
    """Right answers out of questions asked, on one rule or one blueprint area."""

    name: str
    title: str
    right: int
    asked: int

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.asked) if self.asked else 0


@dataclass(frozen=True)
class Report:
    sitting: ExamSitting
    items: list[ItemResult]
    by_rule: list[Tally]
    by_area: list[Tally]
    needed: int
    time_used: datetime.timedelta
    by_topic: list[Tally] = field(default_factory=list)  # name: the one-topic plan to practise

    @property
    def answered(self) -> int:
        return sum(result.answered for result in self.items)

    @property
    def time_used_label(self) -> str:
        minutes, seconds = divmod(int(self.time_used.total_seconds()), 60)
        return _("%(minutes)s min %(seconds)s s") % {
            "minutes": minutes,
            "seconds": f"{seconds:02d}",
        }


def report(sitting: ExamSitting) -> Report:
    """Score report of a finished sitting: four queries, whatever the number of questions."""
    items = list(
        sitting.items.select_related("question__scenario", "scenario_version").order_by("position")
    )
    responses = {r.question_id: r for r in Response.objects.filter(attempt_id=sitting.pk)}
    results = [ItemResult(item, responses.get(item.question_id)) for item in items]
    correct = {result.item.question_id: result.correct for result in results}
    cited = Question.rules.through.objects.filter(question_id__in=correct).values_list(
        "question_id", "rule__number", "rule__title"
    )
    rule_right: dict[str, int] = defaultdict(int)
    rule_asked: dict[str, int] = defaultdict(int)
    titles: dict[str, str] = {}
    numbers_of: dict[int, set[str]] = defaultdict(set)
    for question_id, number, title in cited:
        titles[number] = title
        rule_asked[number] += 1
        rule_right[number] += int(correct[question_id])
        numbers_of[question_id].add(number)
    area_right: dict[str, int] = defaultdict(int)
    area_asked: dict[str, int] = defaultdict(int)
    for result in results:
        area_asked[result.item.area] += 1
        area_right[result.item.area] += int(result.correct)
    attempt = sitting.attempt
    return Report(
        sitting=sitting,
        items=results,
        by_rule=[
            Tally(number, titles[number], rule_right[number], rule_asked[number])
            for number in sorted(rule_asked, key=number_order)
        ],
        by_area=[Tally(area, area, area_right[area], area_asked[area]) for area in area_asked],
        needed=needed_to_pass(sitting.pass_mark, sitting.question_count),
        time_used=(attempt.finished_at or timezone.now()) - attempt.started_at,
        by_topic=_by_topic(correct, numbers_of),
    )


def _by_topic(correct: dict[int, bool], numbers_of: dict[int, set[str]]) -> list[Tally]:
    """Right out of asked per study topic (a question counts for each topic its rules are
    about), weakest first, each named by the one-topic plan that practises it."""
    every = tuple(topics.TOPICS.values())
    right: dict[str, int] = defaultdict(int)
    asked: dict[str, int] = defaultdict(int)
    for question_id, was_right in correct.items():
        for slug in topics.topics_of(numbers_of[question_id], every):
            asked[slug] += 1
            right[slug] += int(was_right)
    tallies = [
        Tally(
            topics.ONLY + t.slug,
            str(topics.TOPIC_TITLES[t.slug]),
            right[t.slug],
            asked[t.slug],
        )
        for t in every
        if asked[t.slug]
    ]
    return sorted(tallies, key=lambda tally: tally.percent)
