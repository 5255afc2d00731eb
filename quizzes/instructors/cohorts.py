"""Cohorts: an instructor creates one, assigns banks, learners join with its code; the instructor
sees each member's progress on the cohort's banks. Lookups go through `cohorts_of(user)` (the
instructor's) and `members_of(cohort)`, so another instructor's cohort or a non-member is a 404.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from quizzes import content_texts, rulings
from quizzes.models import (
    Assignment,
    Bank,
    Cohort,
    CohortMembership,
    ExamBlueprint,
    ExamSitting,
    Question,
    Response,
)
from quizzes.models.cohorts import new_join_code
from quizzes.practice import reports
from rules.cards import generation


class CohortError(ValueError):
    pass


def cohorts_of(user) -> QuerySet[Cohort]:
    return Cohort.objects.owned_by(user)


def do_create_cohort(instructor, name: str) -> Cohort:
    code = new_join_code()
    while Cohort.objects.filter(join_code=code).exists():  # 31^8 codes: a retry is rare
        code = new_join_code()
    return Cohort.objects.create(instructor=instructor, name=name, join_code=code)


def do_assign_banks(cohort: Cohort, banks: QuerySet[Bank]) -> None:
    """Assign the instructor's own banks (the form offers only those)."""
    if banks.exclude(owner=cohort.instructor_id).exists():
        raise CohortError(_("A cohort can only be given its instructor's banks."))
    cohort.banks.set(banks)


def cohort_of_code(code: str) -> Cohort | None:
    """The cohort a join code names, as a learner may type it ("k7qm 3txa"), or None."""
    code = "".join(code.split()).upper()
    if not code:
        return None
    return Cohort.objects.filter(join_code=code).select_related("instructor").first()


def signup_apart(request) -> str | None:
    """The group a sign-up is counted in apart from its address's other sign-ups (the throttle's
    `apart`, config/urls.py): the cohort whose join code it carries. A class behind one school
    address signs up by its code however many others signed up there; a wrong code, or none,
    counts as the address's."""
    cohort = cohort_of_code(request.POST.get("code", "")[:16])
    return f"cohort {cohort.pk}" if cohort is not None else None


def check_join(user, code: str) -> Cohort:
    cohort = Cohort.objects.filter(join_code=code).select_related("instructor").first()
    if cohort is None:
        raise CohortError(_("No cohort has this code. Check it with your instructor."))
    if cohort.instructor_id == user.pk:
        raise CohortError(_("This is your own cohort: you teach it."))
    return cohort


def do_join(user, cohort: Cohort) -> bool:
    """Join; False when already a member."""
    with transaction.atomic():
        _, created = CohortMembership.objects.get_or_create(cohort=cohort, user=user)
    return created


def members_of(cohort: Cohort):
    """The cohort's learners, each with, on the cohort's banks: first answers (one per question)
    and how many were right, repeat answers and how many were right, and the last answer (one
    query)."""
    bank_ids = cohort.banks.values("pk")
    on_banks = Q(responses__question__bank__in=bank_ids)
    firsts = Response.objects.filter(question__bank__in=bank_ids).first_attempts()
    first = on_banks & Q(responses__in=firsts.values("pk"))
    right = Q(responses__correct=True)
    return (
        get_user_model()
        .objects.filter(cohort_memberships__cohort=cohort)
        .annotate(
            joined_at=Max("cohort_memberships__joined_at"),
            answers=Count("responses", filter=on_banks),
            first_answers=Count("responses", filter=first),
            first_right=Count("responses", filter=first & right),
            repeats=Count("responses", filter=on_banks & ~first),
            repeats_right=Count("responses", filter=on_banks & ~first & right),
            last_answer=Max("responses__created_at", filter=on_banks),
        )
        .order_by("username")
    )


@dataclass(frozen=True)
class MemberProgress:
    member: object
    rules: list[reports.RuleProgress]
    recent: list[Response]  # each with `title_given` (HTML) and `prompt_given` as shown


def member_progress(cohort: Cohort, member) -> MemberProgress:
    """Mastery per rule on the rules the cohort's banks exercise, and recent answers there."""
    bank_ids = cohort.banks.values("pk")
    rule_ids = set(
        Question.rules.through.objects.filter(question__bank__in=bank_ids).values_list(
            "rule_id", flat=True
        )
    )
    rules = [item for item in reports.rule_progress(member) if item.mastery.rule_id in rule_ids]
    recent = list(
        Response.objects.owned_by(member)
        .filter(question__bank__in=bank_ids)
        .with_repeat_flag()
        .select_related("question__scenario", "scenario_version", "presentation__variant")[:20]
    )
    cards = generation() if recent else None  # the card table's, read once for every answer
    for response in recent:
        # As the learner saw it, as their feedback shows it: in the version answered (an edit
        # since starts a version, not a new past), with the variant's names, as its parts are.
        question, version = response.question, response.scenario_version
        ruling = rulings.ruling_answered(response, rulings.catalog_of(question.scenario, cards))
        response.title_given = content_texts.shown(
            (version or question.scenario).title, ruling.shown.names
        )
        response.prompt_given = rulings.prompt(question, ruling, version)
    return MemberProgress(member, rules, recent)


# Assignments: a bank to practise or an exam to sit, set by the cohort's instructor.


def assignable_banks(instructor) -> QuerySet[Bank]:
    """The instructor's banks a cohort can practise: shared or public, never private."""
    return Bank.objects.owned_by(instructor).exclude(visibility=Bank.Visibility.PRIVATE)


def assignable_blueprints(instructor) -> QuerySet[ExamBlueprint]:
    """Active exams the instructor may set: their own and the site's."""
    return ExamBlueprint.objects.filter(is_active=True).filter(Q(owner=instructor) | Q(owner=None))


def do_assign(cohort: Cohort, *, bank=None, blueprint=None, due_on=None) -> Assignment:
    """Assign a bank (which joins the cohort's banks, so its learners can practise it) or an
    exam blueprint, each only among what the cohort's instructor may set."""
    instructor = cohort.instructor
    if (bank is None) == (blueprint is None):
        raise CohortError(_("Assign either a bank or an exam."))
    if bank is not None and not assignable_banks(instructor).filter(pk=bank.pk).exists():
        raise CohortError(_("A cohort can only be given its instructor's shared or public banks."))
    if blueprint is not None and not (
        assignable_blueprints(instructor).filter(pk=blueprint.pk).exists()
    ):
        raise CohortError(_("A cohort can only be set the instructor's own or the site's exams."))
    with transaction.atomic():
        if bank is not None:
            cohort.banks.add(bank)
        return Assignment.objects.create(
            cohort=cohort, bank=bank, blueprint=blueprint, due_on=due_on
        )


def assignments_of(cohort: Cohort) -> QuerySet[Assignment]:
    return cohort.assignments.select_related("bank", "blueprint")


def assignments_for(user) -> QuerySet[Assignment]:
    """What the learner's cohorts ask of them, soonest due first (one query)."""
    return Assignment.objects.for_learner(user)


def banks_for(user, cohort: Cohort | None = None) -> QuerySet[Bank]:
    """The banks the learner's cohorts (or one of them, `cohort`) practise that the learner may
    see (one query)."""
    in_cohort = Cohort.banks.through.objects.filter(cohort__members=user)
    if cohort is not None:
        in_cohort = in_cohort.filter(cohort=cohort)
    in_cohort = in_cohort.values("bank_id")
    return Bank.objects.visible_to(user).filter(pk__in=in_cohort).order_by("title", "id")


# Each learner against each assignment: "31 of 43 met, due in 3 days", "overdue".


@dataclass(frozen=True)
class AssignmentStatus:
    assignment: Assignment
    met: int  # a bank: its questions the learner has answered right; an exam: right, best sitting
    of: int  # a bank: its active questions; an exam: that sitting's questions (0: not sat)
    done: bool  # a bank: every question met; an exam: a sitting passed
    due_in_days: int | None  # None: no due date

    @property
    def state(self) -> str:
        """done, overdue, due-today, due-soon (a week), due, or open (no date)."""
        if self.done:
            return "done"
        if self.due_in_days is None:
            return "open"
        if self.due_in_days < 0:
            return "overdue"
        if self.due_in_days == 0:
            return "due-today"
        return "due-soon" if self.due_in_days <= 7 else "due"

    @property
    def label(self) -> str:
        if self.assignment.bank_id:
            met = _("%(met)s of %(of)s met") % {"met": self.met, "of": self.of}
        elif self.of:
            met = (
                _("passed (%(met)s of %(of)s)") if self.done else _("%(met)s of %(of)s, not passed")
            ) % {
                "met": self.met,
                "of": self.of,
            }
        else:
            met = _("not sat yet")
        state = self.state
        if state == "overdue":
            return _("%(met)s, overdue") % {"met": met}
        if state == "due-today":
            return _("%(met)s, due today") % {"met": met}
        if state in ("due-soon", "due"):
            return ngettext(
                "%(met)s, due in %(days)s day", "%(met)s, due in %(days)s days", self.due_in_days
            ) % {"met": met, "days": self.due_in_days}
        return met


def assignment_statuses(
    assignments: list[Assignment], members, today
) -> dict[int, list[AssignmentStatus]]:
    """Per learner (by id), their status on each assignment: two queries when some assignment
    is a bank, one when some is an exam, none without assignments."""
    member_ids = [member.pk for member in members]
    bank_ids = {a.bank_id for a in assignments if a.bank_id}
    blueprint_ids = {a.blueprint_id for a in assignments if a.blueprint_id}
    if not member_ids:
        return {}
    sizes = (
        {}
        if not bank_ids
        else dict(
            Question.objects.filter(bank__in=bank_ids, is_active=True)
            .values("bank")
            .annotate(n=Count("pk"))
            .values_list("bank", "n")
        )
    )
    right = (
        {}
        if not bank_ids
        else {
            (user, bank): n
            for user, bank, n in Response.objects.filter(
                user__in=member_ids,
                question__bank__in=bank_ids,
                question__is_active=True,
                correct=True,
            )
            .values("user", "question__bank")
            .annotate(n=Count("question", distinct=True))
            .values_list("user", "question__bank", "n")
        }
    )
    best: dict[tuple[int, int], tuple[bool, float, int, int]] = {}
    sittings = (
        []
        if not blueprint_ids
        else ExamSitting.objects.filter(
            attempt__user__in=member_ids,
            blueprint__in=blueprint_ids,
            attempt__finished_at__isnull=False,
        ).values_list("attempt__user", "blueprint", "passed", "right_count", "question_count")
    )
    for user, blueprint, passed, right_count, count in sittings:
        candidate = (
            bool(passed),
            (right_count or 0) / count if count else 0,
            right_count or 0,
            count,
        )
        key = (user, blueprint)
        if key not in best or candidate[:2] > best[key][:2]:
            best[key] = candidate
    statuses: dict[int, list[AssignmentStatus]] = {}
    for user_id in member_ids:
        row = []
        for assignment in assignments:
            due = (assignment.due_on - today).days if assignment.due_on else None
            if assignment.bank_id:
                of = sizes.get(assignment.bank_id, 0)
                met = right.get((user_id, assignment.bank_id), 0)
                row.append(AssignmentStatus(assignment, met, of, bool(of) and met >= of, due))
            else:
                passed, _share, met, of = best.get(
                    (user_id, assignment.blueprint_id), (False, 0, 0, 0)
                )
                row.append(AssignmentStatus(assignment, met, of, passed, due))
        statuses[user_id] = row
    return statuses
