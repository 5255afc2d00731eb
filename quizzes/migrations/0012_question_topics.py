from collections import defaultdict

from django.db import migrations, models


def store_topics(apps, schema_editor):
    """Every question's topics, as `question_topics.store` writes them."""
    from quizzes.practice.topics import mask_of

    Question = apps.get_model("quizzes", "Question")
    numbers = defaultdict(list)
    links = Question.rules.through.objects.values_list("question_id", "rule__number")
    for question_id, number in links.iterator():
        numbers[question_id].append(number)
    Question.objects.bulk_update(
        [Question(pk=pk, topics=mask_of(found)) for pk, found in numbers.items()],
        ["topics"],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("quizzes", "0011_level_labels_by_content"),
    ]

    operations = [
        migrations.AddField(
            model_name="question",
            name="topics",
            field=models.PositiveIntegerField(
                default=0,
                editable=False,
                help_text=(
                    "The topics its rules are about, as bits (quizzes/practice/question_topics.py)."
                ),
            ),
        ),
        migrations.RunPython(store_topics, migrations.RunPython.noop),
    ]
