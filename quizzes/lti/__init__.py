"""LTI 1.3 with django-lti (docs/lti.md): `launches` validates what platforms send, `accounts`
maps platform users and courses to Tutor's, `views` are the tool's URLs, `grades` posts exam
scores back through Assignment and Grade Services, `framing` lets a launched session be framed
by its platform alone."""
