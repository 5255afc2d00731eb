"""Certification practice: exam blueprints drawn into timed sittings, graded at the end."""
