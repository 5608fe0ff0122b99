"""Training jobs move onto the shared claimable job (core.jobs): the failure reason and
suggestion become its `error` and `error_fix` (the API keeps its names), and the job gains
the shared `stage`."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("training", "0006_claimable_job"),
    ]

    operations = [
        migrations.RenameField(
            model_name="trainingjob", old_name="failure_reason", new_name="error"
        ),
        migrations.RenameField(
            model_name="trainingjob", old_name="failure_suggestion", new_name="error_fix"
        ),
        migrations.AddField(
            model_name="trainingjob",
            name="stage",
            field=models.CharField(blank=True, max_length=100),
        ),
    ]
