"""Old API paths kept answering while clients move to their new names.

`deprecated(View, successor, new_path)` is the view at its old path: the same behaviour,
documented as deprecated in the schema, and every answer says where to go instead (RFC 8594's
`Deprecation` header and a `Link` to the successor), so a client that still uses it can tell.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_view


def deprecated(view_class: type, successor: str, new_path: str) -> Any:
    """`view_class` for an old path; `successor` names the URL pattern that replaces it, at
    `new_path` (as the schema writes it)."""

    methods = [m for m in ("get", "post", "put", "patch", "delete") if hasattr(view_class, m)]
    documented = extend_schema(
        deprecated=True, description=f"Deprecated: renamed to `{new_path}`, which answers the same."
    )

    class Deprecated(view_class):  # type: ignore[misc, valid-type]
        def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
            response = super().finalize_response(request, response, *args, **kwargs)
            response["Deprecation"] = "true"
            response["Link"] = (
                f'<{reverse(successor, kwargs=self.kwargs)}>; rel="successor-version"'
            )
            return response

    Deprecated.__name__ = f"Deprecated{view_class.__name__}"
    Deprecated.__qualname__ = Deprecated.__name__
    return extend_schema_view(**{m: documented for m in methods})(Deprecated).as_view()
