"""Account and workspace pages. Thin: the rules live in services.py and on the models."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.forms import AddMemberForm, ApiTokenForm, InviteForm, SignUpForm, WorkspaceForm
from accounts.models import ApiToken, Invitation, Membership, Workspace
from accounts.overview import overview
from core import throttling
from core.scoping import Role, get_object_for_user_or_404, require_role, workspaces_for


def too_many_attempts(request: HttpRequest, wait: int) -> HttpResponse:
    response = render(request, "429.html", {"wait": throttling.wait_text(wait)}, status=429)
    response["Retry-After"] = str(wait)
    return response


class LoginView(auth_views.LoginView):
    """Django's login, throttled: after too many wrong passwords for one account, or from one
    address, the form answers 429 until the window ends. Right passwords are never counted."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        account = request.POST.get("username", "").strip()
        address = throttling.client_address(request)
        limits = [
            (throttling.LOGIN_FAILURES_PER_ACCOUNT, account),
            (throttling.LOGIN_FAILURES_PER_ADDRESS, address),
        ]
        waits = [wait for limit, key in limits if (wait := limit.retry_after(key)) is not None]
        if waits:
            return too_many_attempts(request, max(waits))
        response = super().post(request, *args, **kwargs)
        if not request.user.is_authenticated:
            for limit, key in limits:
                limit.record(key)
        return response


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:workspace_list")
    if not settings.SIGNUP_OPEN:
        # A team stack's operator creates the accounts (SIGNUP_OPEN=0); the page says so.
        status = 200 if request.method in ("GET", "HEAD") else 403
        return render(request, "accounts/signup_closed.html", status=status)
    if request.method == "POST":
        address = throttling.client_address(request)
        wait = throttling.SIGNUPS_PER_ADDRESS.retry_after(address)
        if wait is not None:
            return too_many_attempts(request, wait)
        throttling.SIGNUPS_PER_ADDRESS.record(address)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.sign_up(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Sampan. Create a workspace to get started."))
        return redirect("accounts:workspace_list")
    return render(request, "accounts/signup.html", {"form": form})


def _render_workspaces(
    request: HttpRequest, form: WorkspaceForm, status: int = 200
) -> HttpResponse:
    memberships = (
        Membership.objects.filter(workspace__in=workspaces_for(request.user), user=request.user)
        .select_related("workspace")
        .order_by("workspace__name")
    )
    ctx = {
        "memberships": memberships,
        "form": form,
        "invitations": services.open_invitations_for(request.user),
    }
    return render(request, "accounts/workspace_list.html", ctx, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def workspace_list(request: HttpRequest) -> HttpResponse:
    """Your workspaces; POST creates one with you as its owner."""
    if request.method == "GET":
        return _render_workspaces(request, WorkspaceForm())
    form = WorkspaceForm(request.POST)
    if not form.is_valid():
        return _render_workspaces(request, form, status=400)
    workspace = services.create_workspace(owner=request.user, name=form.cleaned_data["name"])
    messages.success(
        request, _("Created workspace “%(workspace_name)s”.") % {"workspace_name": workspace.name}
    )
    return redirect("accounts:workspace_detail", slug=workspace.slug)


@login_required
def workspace_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A workspace opens on what is in it: its datasets, the jobs in flight and the
    deployments, each linked. Members have their own page (`member_list`)."""
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    role = require_role(request.user, workspace, Role.VIEWER)
    ctx = {"workspace": workspace, "can_edit": role.covers(Role.MEMBER), **overview(workspace)}
    return render(request, "accounts/workspace_overview.html", ctx)


@login_required
def member_list(request: HttpRequest, slug: str) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    role = require_role(request.user, workspace, Role.VIEWER)
    can_manage = role.covers(Role.ADMIN)
    ctx = {
        "workspace": workspace,
        "role": role,
        "can_manage": can_manage,
        "memberships": workspace.memberships.select_related("user"),
        "invite_form": InviteForm(),
        "invitations": workspace.invitations.open().select_related("invited_by")
        if can_manage
        else [],
        "add_form": AddMemberForm()
        if settings.ADD_MEMBERS_DIRECTLY and role == Role.OWNER
        else None,
    }
    # The template keeps its old name (it was the workspace's page) so branches editing it merge.
    return render(request, "accounts/workspace_detail.html", ctx)


@login_required
@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    require_role(request.user, workspace, Role.ADMIN)
    form = InviteForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("addressed_to", []) + form.errors.get("role", []):
            messages.error(request, error)
        return redirect("accounts:member_list", slug=workspace.slug)
    address, role = form.cleaned_data["addressed_to"], form.cleaned_role()
    try:
        services.invite(workspace, by=request.user, addressed_to=address, role=role)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, invited_message(address, role))
    return redirect("accounts:member_list", slug=workspace.slug)


def invited_message(address: str, role: Role) -> str:
    # The same words whether or not an account matches: the page must not tell.
    return _(
        "Invited “%(address)s” as %(role)s. If an account has this username or email, its owner "
        "sees the invitation after signing in, and joins once they accept."
    ) % {"address": address.strip(), "role": role.label.lower()}


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    require_role(request.user, workspace, Role.ADMIN)
    invitation = get_object_or_404(workspace.invitations, pk=invitation_id)
    try:
        services.revoke_invitation(invitation, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Withdrew the invitation for “%(addressed_to)s”.")
            % {"addressed_to": invitation.addressed_to},
        )
    return redirect("accounts:member_list", slug=workspace.slug)


def _own_invitation(request: HttpRequest, invitation_id: int) -> Invitation:
    # Only the invitee sees an invitation from outside the workspace; anyone else gets 404.
    invitations = Invitation.objects.select_related("workspace", "invited_by")
    return get_object_or_404(invitations, pk=invitation_id, invitee=request.user)


@login_required
@require_POST
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _own_invitation(request, invitation_id)
    try:
        services.accept_invitation(invitation, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("accounts:workspace_list")
    messages.success(
        request,
        _("You joined “%(workspace_name)s”.") % {"workspace_name": invitation.workspace.name},
    )
    return redirect("accounts:workspace_detail", slug=invitation.workspace.slug)


@login_required
@require_POST
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _own_invitation(request, invitation_id)
    try:
        services.decline_invitation(invitation, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Declined the invitation to “%(workspace_name)s”.")
            % {"workspace_name": invitation.workspace.name},
        )
    return redirect("accounts:workspace_list")


@login_required
@require_POST
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Adding without an invitation, where ADD_MEMBERS_DIRECTLY allows it (owners only)."""
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    require_role(request.user, workspace, Role.OWNER)
    form = AddMemberForm(request.POST)
    if form.is_valid():
        user, role = form.cleaned_data["user"], form.cleaned_role()
        try:
            services.add_member(workspace, by=request.user, user=user, role=role)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request,
                _("%(username)s is now %(label)s.")
                % {"username": user.username, "label": role.label.lower()},
            )
    else:
        for error in form.errors.get("user", []) + form.errors.get("role", []):
            messages.error(request, error)
    return redirect("accounts:member_list", slug=workspace.slug)


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    membership = get_object_or_404(workspace.memberships, pk=membership_id)
    try:
        services.remove_member(membership, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("accounts:member_list", slug=workspace.slug)
    if membership.user_id == request.user.pk:
        messages.success(
            request, _("You left “%(workspace_name)s”.") % {"workspace_name": workspace.name}
        )
        return redirect("accounts:workspace_list")
    messages.success(request, _("Removed %(username)s.") % {"username": membership.user.username})
    return redirect("accounts:member_list", slug=workspace.slug)


def _render_tokens(
    request: HttpRequest,
    workspace: Workspace,
    form: ApiTokenForm,
    new_token: tuple[ApiToken, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    ctx = {
        "workspace": workspace,
        "tokens": ApiToken.objects.filter(workspace=workspace, user=request.user),
        "form": form,
        "new_token": new_token,
    }
    return render(request, "accounts/token_list.html", ctx, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def token_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Your tokens for the workspace; POST creates one and shows its secret in this response
    only. The secret is not parked in the session or a message for a redirect, because both
    are stored server-side, and the secret never is."""
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    if request.method == "GET":
        return _render_tokens(request, workspace, ApiTokenForm())
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _render_tokens(request, workspace, form, status=400)
    token, secret = services.issue_token(
        workspace, user=request.user, name=form.cleaned_data["name"]
    )
    return _render_tokens(request, workspace, ApiTokenForm(), new_token=(token, secret))


@login_required
@require_POST
def token_revoke(request: HttpRequest, slug: str, token_id: int) -> HttpResponse:
    workspace = get_object_for_user_or_404(Workspace, request.user, slug=slug)
    token = get_object_or_404(ApiToken, pk=token_id, workspace=workspace, user=request.user)
    token.revoke()
    messages.success(
        request,
        _("Revoked “%(token_name)s”. Scripts using it now get 401.") % {"token_name": token.name},
    )
    return redirect("accounts:token_list", slug=workspace.slug)
