"""`{% load plotly %}{% plotly_script %}`: the script tag for the locally served plotly.min.js."""

from __future__ import annotations

import plotly as plotly_package
from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def plotly_script() -> str:
    url = reverse("core:plotly_js", args=[plotly_package.__version__])
    return format_html('<script src="{}"></script>', url)
