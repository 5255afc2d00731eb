"""Exams an instructor sets: a blueprint drawn from their own banks (all their rules, or the
topics they tick), its learners' accommodations, a draw previewed, its results. Lookups go
through `exams_of(user)`, so another instructor's exam is a 404."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import slugify

from quizzes.exams import proctor
from quizzes.models import (
    Accommodation,
    Bank,
    BlueprintArea,
    Cohort,
    ExamBlueprint,
    Question,
)

TOPICS_SHOWN = 200  # rules offered as topics, whatever the size of the banks


def exams_of(user) -> QuerySet[ExamBlueprint]:
    if not user.is_authenticated:
        return ExamBlueprint.objects.none()
    return ExamBlueprint.objects.filter(owner=user).prefetch_related("areas", "banks")


def topics_of(user, banks: QuerySet[Bank] | None = None) -> list[tuple[str, str]]:
    """(number, title) of the rules the questions of the instructor's banks ask about."""
    owned = Bank.objects.owned_by(user) if banks is None else banks
    cited = (
        Question.rules.through.objects.filter(question__bank__in=owned, question__is_active=True)
        .values_list("rule__number", "rule__title")
        .distinct()
        .order_by("rule__number")
    )
    return list(cited[:TOPICS_SHOWN])


def _sections(numbers) -> set[str]:
    return {number.split(".")[0] for number in numbers}


def _prefixes(owner, banks: QuerySet[Bank], topics: list[str]) -> str:
    """The area's rules: the topics ticked, else the sections (701, 305) of every rule the
    banks' questions ask about, so a question corrected to cite 701.23b instead of 701.23a
    is still drawn."""
    numbers = topics or sorted(_sections(number for number, _ in topics_of(owner, banks)))
    kept: list[str] = []
    for number in sorted(set(numbers)):  # whole numbers only, within the field's 300 characters
        if len(", ".join([*kept, number])) > 300:
            break
        kept.append(number)
    return ", ".join(kept)


def _unique_slug(owner, title: str) -> str:
    base = f"{slugify(title)[:80] or 'exam'}-{owner.pk}"
    slug, n = base, 1
    while ExamBlueprint.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def do_save_exam(owner, data: dict, blueprint: ExamBlueprint | None = None) -> ExamBlueprint:
    """Create or update the owner's exam from the form's cleaned data: one area, `count`
    questions on the topics (rule numbers) from the banks."""
    banks = Bank.objects.owned_by(owner).filter(pk__in=[bank.pk for bank in data["banks"]])
    with transaction.atomic():
        if blueprint is None:
            blueprint = ExamBlueprint(owner=owner, slug=_unique_slug(owner, data["title"]))
        blueprint.title = data["title"]
        blueprint.description = data.get("description", "")
        blueprint.time_limit_minutes = data.get("time_limit_minutes")
        blueprint.pass_mark = data["pass_percent"] / 100
        blueprint.max_sittings = data.get("max_sittings")
        blueprint.retake_wait_hours = data.get("retake_wait_hours") or 0
        blueprint.save()
        blueprint.banks.set(banks)
        blueprint.areas.all().delete()
        BlueprintArea.objects.create(
            blueprint=blueprint,
            title=blueprint.title,
            rules=_prefixes(owner, banks, data.get("topics") or []),
            count=data["question_count"],
        )
    return blueprint


def initial_of(blueprint: ExamBlueprint) -> dict:
    area = blueprint.areas.first()
    topics = area.rule_prefixes if area else []
    return {
        "title": blueprint.title,
        "description": blueprint.description,
        "banks": blueprint.banks.all(),
        "topics": [] if _sections(topics) == set(topics) else topics,  # sections: every topic
        "question_count": area.count if area else 10,
        "time_limit_minutes": blueprint.time_limit_minutes,
        "pass_percent": blueprint.pass_percent,
        "max_sittings": blueprint.max_sittings,
        "retake_wait_hours": blueprint.retake_wait_hours,
    }


def learners_of(owner):
    """The learners of the instructor's cohorts (accommodations are set for them only)."""
    return (
        get_user_model()
        .objects.filter(cohort_memberships__cohort__in=Cohort.objects.owned_by(owner))
        .distinct()
        .order_by("username")
    )


def do_accommodate(blueprint: ExamBlueprint, learner, minutes: int, sittings: int) -> None:
    """Set (or, at zero and zero, remove) the learner's accommodation on the exam."""
    if not minutes and not sittings:
        Accommodation.objects.filter(blueprint=blueprint, user=learner).delete()
        return
    Accommodation.objects.update_or_create(
        blueprint=blueprint,
        user=learner,
        defaults={"extra_minutes": minutes, "extra_sittings": sittings},
    )


def accommodations_of(blueprint: ExamBlueprint) -> QuerySet[Accommodation]:
    return blueprint.accommodations.select_related("user").order_by("user__username")


@dataclass(frozen=True)
class PreviewItem:
    question: Question
    area: str


def preview_draw(owner, blueprint: ExamBlueprint) -> list[PreviewItem]:
    """A draw as a learner's sitting would get it (from the owner's side: every question of the
    exam's banks); nothing is stored."""
    drawn = proctor.draw(owner, blueprint)
    questions = Question.objects.select_related("scenario").in_bulk(
        [item.question_id for item in drawn]
    )
    return [PreviewItem(questions[item.question_id], item.area) for item in drawn]
