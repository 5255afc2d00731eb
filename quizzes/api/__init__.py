"""The rulings API (docs/api.md), with django-ninja at /api/v1/: a scenario/1 document ruled by
the engine through the door (`quizzes.rulings.documents.ruling_of_document`, what `manage.py
ruling` prints), an instructor's own banks and questions read-only, the scenario/1 JSON Schema.

`auth.py`: bearer tokens (`ApiToken`), no session: a page's cookie never calls the API, so no
request here needs CSRF. `throttling.py`: per token owner and per address of failed tokens, in
the shared throttle cache as the site's other throttles. `views.py`: the endpoints.
"""
