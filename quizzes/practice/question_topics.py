"""`Question.topics`: the bits (quizzes/practice/topics.py `BITS`) of the topics a question is
about, stored whenever its rules are written, so the practice pick tests a bit rather than
joining the rules and matching their numbers on every page.

Written by the `Question.rules` signal (`add`, `set`, `remove`, `clear`, from either side), by
`store` where rules are linked in bulk (content loading, instructors' saves), and for every
question at the end of `load_content` (a changed topic's prefixes change every mask)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models.signals import m2m_changed, post_save

from quizzes.models import Question
from quizzes.practice import topics
from rules.models import Rule


def store(question_ids: Iterable[int] | None = None) -> int:
    """Store the topics of the questions given (None: every question); how many changed."""
    questions = Question.objects.all()
    if question_ids is not None:
        questions = questions.filter(pk__in=list(question_ids))
    stored = dict(questions.values_list("pk", "topics"))
    numbers: dict[int, list[str]] = defaultdict(list)
    links = Question.rules.through.objects.filter(question_id__in=stored.keys())
    for question_id, number in links.values_list("question_id", "rule__number").iterator():
        numbers[question_id].append(number)
    changed = [
        Question(pk=pk, topics=bits)
        for pk, was in stored.items()
        if (bits := topics.mask_of(numbers.get(pk, ()))) != was
    ]
    Question.objects.bulk_update(changed, ["topics"], batch_size=500)
    return len(changed)


def _rules_changed(instance, action: str, reverse: bool, pk_set, **_: object) -> None:
    if action not in {"post_add", "post_remove", "post_clear"}:
        return
    if not reverse:  # question.rules.add(...): this question
        store([instance.pk])
    elif pk_set:  # rule.questions.add(...): the questions given
        store(pk_set)
    else:  # rule.questions.clear(): whichever questions they were
        store()


def _rule_saved(instance: Rule, created: bool, **_: object) -> None:
    if not created:  # a number edited: its questions' topics with it
        store(instance.questions.values_list("pk", flat=True))


def connect() -> None:
    """From `QuizzesConfig.ready`."""
    m2m_changed.connect(
        _rules_changed, sender=Question.rules.through, dispatch_uid="question-topics"
    )
    post_save.connect(_rule_saved, sender=Rule, dispatch_uid="question-topics-rule")
