"""Account operations that span users, workspaces and memberships, with their rules on who
may do what. Views call these; they hold no logic of their own."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.models import ApiToken, Invitation, Membership, User, Workspace
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


def invite(workspace: Workspace, *, by: User, addressed_to: str, role: Role) -> Invitation:
    """Invites the account with this username or email; it joins only when its owner accepts.

    Admins invite; only owners invite owners. The answer is the same whether or not an account
    matches ``addressed_to`` (see ``Invitation``). Inviting the same address again while the
    first invitation is open renews it with the new role.
    """
    _require_right_to_grant(workspace, by, role)
    address = addressed_to.strip().lower()
    invitee = find_user(address)
    if invitee is not None and workspace.role_of(invitee) is not None:
        raise ValidationError(
            _("%(username)s is already a member; change their role instead.")
            % {"username": invitee.username}
        )
    expires_at = timezone.now() + Invitation.LIFETIME
    with transaction.atomic():
        invitation, created = Invitation.objects.select_for_update().get_or_create(
            workspace=workspace,
            addressed_to=address,
            status=Invitation.Status.PENDING,
            defaults={"invitee": invitee, "role": role, "invited_by": by, "expires_at": expires_at},
        )
        if not created:
            invitation.invitee, invitation.role, invitation.invited_by = invitee, role, by
            invitation.created_at, invitation.expires_at = timezone.now(), expires_at
            invitation.save()
    return invitation


def accept_invitation(invitation: Invitation, *, user: User) -> Membership:
    """Makes ``user`` a member with the invitation's role, if it is still open and its sender
    may still grant that role. Accepting never lowers a role the user already has."""
    with transaction.atomic():
        if not invitation.close(Invitation.Status.ACCEPTED, invitee=user):
            raise ValidationError(_("This invitation is no longer open."))
        workspace, role = invitation.workspace, Role(invitation.role)
        sender = invitation.invited_by
        needed = Role.OWNER if role == Role.OWNER else Role.ADMIN
        sender_role = workspace.role_of(sender) if sender is not None else None
        if sender_role is None or not sender_role.covers(needed):
            raise ValidationError(
                _(
                    "This invitation is no longer valid: the person who sent it can no "
                    "longer grant this role. Ask a workspace admin to invite you again."
                )
            )
        current = workspace.role_of(user)
        if current is not None and current.covers(role):
            return workspace.memberships.get(user=user)
        return workspace.add_member(user, role)


def decline_invitation(invitation: Invitation, *, user: User) -> None:
    if not invitation.close(Invitation.Status.DECLINED, invitee=user):
        raise ValidationError(_("This invitation is no longer open."))


def revoke_invitation(invitation: Invitation, *, by: User) -> None:
    """Admins withdraw invitations; an owner invitation only an owner may withdraw."""
    _require_right_to_grant(invitation.workspace, by, Role(invitation.role))
    if not invitation.close(Invitation.Status.REVOKED):
        raise ValidationError(_("This invitation was already answered or has expired."))


def link_open_invitations(user: User) -> int:
    """Open invitations sent to this account's username or email before the account existed
    now name it, so its owner finds them after signing in. Only for accounts an operator
    creates: anyone signing up could type someone else's email, so sign-up does not do this."""
    addresses = {user.username.lower()} | ({user.email.lower()} if user.email else set())
    unclaimed = Invitation.objects.open().filter(invitee__isnull=True, addressed_to__in=addresses)
    return unclaimed.update(invitee=user)


def open_invitations_for(user: User) -> list[Invitation]:
    if not user.is_authenticated:
        return []
    invitations = Invitation.objects.open().filter(invitee=user)
    return list(invitations.select_related("workspace", "invited_by"))


def add_member(workspace: Workspace, *, by: User, user: User, role: Role) -> Membership:
    """Adds ``user`` without asking them (or changes their role): only where the server allows
    it (ADD_MEMBERS_DIRECTLY, for stacks whose accounts an operator creates), and only by owners.
    Everywhere else people join by accepting an invitation."""
    require_role(by, workspace, Role.OWNER)
    if not settings.ADD_MEMBERS_DIRECTLY:
        raise PermissionDenied(
            _("On this server people join a workspace by accepting an invitation; invite them.")
        )
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


def issue_token_with_password(
    *, account: str, password: str, workspace_slug: str, name: str
) -> tuple[ApiToken, str] | None:
    """A new token for the account with this username (or email) and password, in the workspace
    with this slug, or None when any of them is wrong. An outsider to the workspace, or a
    workspace that does not exist, looks exactly like a wrong password: the answer never tells
    which accounts exist or who belongs where."""
    user = find_user(account)
    # Checked even when no account matches: Django then hashes the password anyway, so that
    # the answer takes as long either way.
    username = user.username if user is not None else account
    authenticated = authenticate(username=username, password=password)
    if authenticated is None:
        return None
    workspace = Workspace.objects.filter(slug=workspace_slug).first()
    if workspace is None or workspace.role_of(authenticated) is None:
        return None
    return issue_token(workspace, user=authenticated, name=name)


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
