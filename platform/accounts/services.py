"""Account operations that span users, workspaces and memberships, with their rules on who
may do what. Views call these; they hold no logic of their own."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.crypto import get_random_string
from django.utils.text import slugify

from accounts.models import ApiToken, Membership, User, Workspace
from core.scoping import Role, require_role


def sign_up(*, username: str, email: str, password: str) -> User:
    return User.objects.create_user(username=username, email=email, password=password)


def create_workspace(*, owner: User, name: str) -> Workspace:
    """Creates a workspace with ``owner`` as its owner, under a unique slug."""
    base = slugify(name)[:100] or "workspace"
    for attempt in range(10):
        slug = base if attempt == 0 else f"{base}-{get_random_string(4).lower()}"
        if Workspace.objects.filter(slug=slug).exists():
            continue
        try:
            with transaction.atomic():
                workspace = Workspace.objects.create(name=name, slug=slug)
                workspace.add_member(owner, Role.OWNER)
        except IntegrityError:
            continue  # another request took the slug between the check and the insert
        return workspace
    raise RuntimeError(f"Could not find a free slug for workspace {name!r}")


def find_user(username_or_email: str) -> User | None:
    value = username_or_email.strip()
    if "@" in value:
        return User.objects.filter(email__iexact=value, is_active=True).first()
    return User.objects.filter(username__iexact=value, is_active=True).first()


def add_member(workspace: Workspace, *, by: User, user: User, role: Role) -> Membership:
    """Adds ``user`` (or changes their role). Admins may add; only owners may grant owner."""
    _require_right_to_grant(workspace, by, role)
    current = workspace.role_of(user)
    if current == Role.OWNER:
        require_role(by, workspace, Role.OWNER)
    return workspace.add_member(user, role)


def change_role(membership: Membership, *, by: User, role: Role) -> Membership:
    workspace = membership.workspace
    _require_right_to_grant(workspace, by, role)
    if membership.role == Role.OWNER:
        require_role(by, workspace, Role.OWNER)
    membership.change_role(role)
    return membership


def remove_member(membership: Membership, *, by: User) -> None:
    """Admins remove others (owners only by owners); anyone may leave."""
    workspace = membership.workspace
    if membership.user_id != by.pk:
        require_role(by, workspace, Role.ADMIN)
        if membership.role == Role.OWNER:
            require_role(by, workspace, Role.OWNER)
    membership.remove()


def issue_token(workspace: Workspace, *, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user`` in ``workspace``; any member, viewers included, may have one."""
    require_role(user, workspace, Role.VIEWER)
    return ApiToken.issue(workspace=workspace, user=user, name=name)


def ensure_demo(*, username: str, password: str, workspace_name: str) -> tuple[User, Workspace]:
    """The demo login that `make run` prints. Idempotent: reruns leave everything as is,
    including a password the user changed."""
    with transaction.atomic():
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
        membership = (
            Membership.objects.filter(user=user, role=Role.OWNER, workspace__name=workspace_name)
            .select_related("workspace")
            .first()
        )
    if membership is not None:
        return user, membership.workspace
    return user, create_workspace(owner=user, name=workspace_name)


def _require_right_to_grant(workspace: Workspace, by: User, role: Role) -> None:
    require_role(by, workspace, Role.OWNER if role == Role.OWNER else Role.ADMIN)
