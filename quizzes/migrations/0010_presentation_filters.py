from django.db import migrations, models
from django.utils.http import urlencode


def rule_to_query(apps, schema_editor):
    Presentation = apps.get_model("quizzes", "Presentation")
    for presentation in Presentation.objects.exclude(filters=""):
        presentation.filters = urlencode({"rule": presentation.filters})
        presentation.save(update_fields=["filters"])


def query_to_rule(apps, schema_editor):
    from urllib.parse import parse_qs

    Presentation = apps.get_model("quizzes", "Presentation")
    for presentation in Presentation.objects.exclude(filters=""):
        presentation.filters = parse_qs(presentation.filters).get("rule", [""])[0][:20]
        presentation.save(update_fields=["filters"])


class Migration(migrations.Migration):
    # after the versions (0009_scenario_versions), which remake the presentation table on SQLite:
    # unapplied in this order, each remakes the table with the columns it really has
    dependencies = [("quizzes", "0009_question_level"), ("quizzes", "0009_scenario_versions")]

    operations = [
        migrations.RenameField("presentation", "rule_number", "filters"),
        migrations.AlterField(
            model_name="presentation",
            name="filters",
            field=models.CharField(
                blank=True,
                help_text="The practice filter as a query string (level, rule, bank): Next question's.",
                max_length=200,
            ),
        ),
        migrations.RunPython(rule_to_query, query_to_rule),
    ]
