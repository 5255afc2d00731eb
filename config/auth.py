"""The log-in backend: Django's, loading a session's user together with whether they are an
instructor, which the navigation asks on every page (one query instead of two), and with a
hand-written query: every page loads the user, and building the ORM's query cost more than
the database's answer (docs/benchmarks.md)."""

from __future__ import annotations

from django.contrib.auth import backends, get_user_model

# The user's own columns, and authoring's `_instructor_cache`: in the instructors' group?
USER_WITH_ROLE = (
    "SELECT {user}.*, EXISTS(SELECT 1 FROM {groups} JOIN auth_group"
    " ON auth_group.id = {groups}.group_id"
    " WHERE {groups}.user_id = {user}.id AND auth_group.name = %s) AS _instructor_cache"
    " FROM {user} WHERE {user}.id = %s"
)


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        from quizzes.authoring import INSTRUCTORS_GROUP

        model = get_user_model()
        groups = model.groups.through._meta.db_table
        query = USER_WITH_ROLE.format(user=model._meta.db_table, groups=groups)
        # `raw` converts the model's columns as the ORM does (SQLite's text dates, 0/1 flags)
        user = next(iter(model._default_manager.raw(query, [INSTRUCTORS_GROUP, user_id])), None)
        if user is None or not self.user_can_authenticate(user):
            return None
        user._instructor_cache = bool(user._instructor_cache)  # SQLite: 0/1
        return user
