"""The Django project: settings read from the environment, root URLs, WSGI and ASGI entry points."""
