"""The shared cache's table (settings.CACHES): the throttles' counters live there, so every web
process sees the same counts. Created by the migration, so every deployment that migrates has
it, with no separate `createcachetable` step."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = []

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
