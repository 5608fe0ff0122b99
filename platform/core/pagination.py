"""The API's one list shape: ``{"count", "next", "previous", "results"}``.

Long lists come a page at a time (`PagePagination`, the default: `?page=` and `?page_size=`);
short lists that are always read whole (a dataset's classes, a job's exports) come in the same
shape on one page (`WholeListPagination`), so a client reads every list the same way. The
gallery and the job log page by cursor and answer in the same shape too.
"""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.response import Response


class PagePagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


def page_body(
    results: list[Any], count: int, next_url: str | None = None, previous_url: str | None = None
) -> dict[str, Any]:
    """The list shape for views that page by themselves (by cursor)."""
    return {"count": count, "next": next_url, "previous": previous_url, "results": results}


class WholeListPagination(BasePagination):
    """Every item on one page, in the list shape."""

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> list[Any]:
        return list(queryset)

    def get_paginated_response(self, data: list[Any]) -> Response:
        return Response(page_body(list(data), len(data)))

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return PagePagination().get_paginated_response_schema(schema)
