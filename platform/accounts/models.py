"""Users, workspaces, memberships with roles, and API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person who signs in. Django's user, owned by the project so it can grow later."""

    def __str__(self) -> str:
        return self.username


class Workspace(models.Model):
    """A team. Every object in Sampan belongs to exactly one workspace."""

    # core.scoping filters querysets through this lookup; other models say "workspace" or
    # e.g. "dataset__workspace" to reach theirs.
    workspace_lookup = "pk"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=110, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def role_of(self, user: User) -> Membership.Role | None:
        """The user's role here, or None for an outsider."""
        if not user.is_authenticated:
            return None
        roles = self.memberships.filter(user=user).order_by().values_list("role", flat=True)
        role = next(iter(roles[:1]), None)  # order_by(): no joins for the default ordering
        return None if role is None else Membership.Role(role)

    def add_member(self, user: User, role: Membership.Role) -> Membership:
        """Adds the user, or changes the role of an existing member."""
        membership, created = Membership.objects.get_or_create(
            workspace=self, user=user, defaults={"role": role}
        )
        if not created and membership.role != role:
            membership.change_role(role)
        return membership

    def owner_count(self) -> int:
        return self.memberships.filter(role=Membership.Role.OWNER).count()


class Membership(models.Model):
    """A user's role in a workspace."""

    class Role(models.TextChoices):
        # Listed from most to least powerful: `covers` relies on this order.
        OWNER = "owner", _("Owner")
        ADMIN = "admin", _("Admin")
        MEMBER = "member", _("Member")
        VIEWER = "viewer", _("Viewer")

        @property
        def rank(self) -> int:
            members = list(type(self))
            return len(members) - members.index(self)

        def covers(self, required: Membership.Role) -> bool:
            """True when this role may do what ``required`` may do."""
            return self.rank >= required.rank

        @classmethod
        def at_least(cls, required: Membership.Role) -> list[Membership.Role]:
            return [role for role in cls if role.covers(required)]

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["workspace", "user"], name="one_membership_per_user")
        ]
        ordering = ["workspace", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} is {self.role} of {self.workspace}"

    @property
    def is_last_owner(self) -> bool:
        return self.role == self.Role.OWNER and self.workspace.owner_count() == 1

    def change_role(self, role: Membership.Role) -> None:
        if self.is_last_owner and role != self.Role.OWNER:
            raise ValidationError(_("A workspace needs at least one owner."))
        self.role = role
        self.save(update_fields=["role"])

    def remove(self) -> None:
        """Removes the member and revokes their tokens for this workspace."""
        if self.is_last_owner:
            raise ValidationError(_("A workspace needs at least one owner."))
        ApiToken.objects.active().filter(workspace=self.workspace, user=self.user).update(
            revoked_at=timezone.now()
        )
        self.delete()


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def open(self) -> InvitationQuerySet:
        """Pending and not expired: the ones an invitee can still accept."""
        return self.filter(status=Invitation.Status.PENDING, expires_at__gt=timezone.now())


class Invitation(models.Model):
    """An offer of a role in a workspace. It becomes a membership only when the invitee accepts.

    Nobody joins a workspace without consent. The inviter types a username or an email;
    ``addressed_to`` keeps that text (lower-cased), and ``invitee`` is the account it names, if
    any. Pages and API answers show only ``addressed_to``, and inviting a name that matches no
    account looks exactly like inviting one that does, so an invitation never tells whether an
    account exists.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        REVOKED = "revoked", _("Revoked")

    LIFETIME = timedelta(days=14)

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="invitations")
    addressed_to = models.CharField(max_length=254)
    invitee = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(max_length=10, choices=Membership.Role.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    invited_by = models.ForeignKey(
        User, null=True, on_delete=models.SET_NULL, related_name="invitations_sent"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "addressed_to"],
                condition=models.Q(status="pending"),
                name="one_pending_invitation_per_address",
            )
        ]

    def __str__(self) -> str:
        return f"{self.addressed_to} invited to {self.workspace} as {self.role}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.PENDING and self.expires_at > timezone.now()

    def close(self, status: Invitation.Status, *, invitee: User | None = None) -> bool:
        """Moves an open invitation to ``status``; False when it was no longer open (already
        answered, revoked or expired), so two answers cannot both win."""
        now = timezone.now()
        candidates = Invitation.objects.open().filter(pk=self.pk)
        if invitee is not None:
            candidates = candidates.filter(invitee=invitee)
        won = candidates.update(status=status, answered_at=now) == 1
        if won:
            self.status, self.answered_at = status, now
        return won


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A named secret that lets a script act as its user inside one workspace.

    Only a SHA-256 digest of the secret is stored. The secret is 256 random bits, so a
    fast unsalted hash is enough (as for GitHub's tokens): there is nothing to brute-force.
    The first characters are kept in clear to tell tokens apart in lists.
    """

    SCHEME = "spn_"
    PREFIX_LENGTH = len(SCHEME) + 8
    # Writing last_used_at on every request would turn every API read into a write.
    TOUCH_INTERVAL = timedelta(minutes=1)

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="api_tokens")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def digest_of(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()

    @classmethod
    def issue(cls, *, workspace: Workspace, user: User, name: str) -> tuple[ApiToken, str]:
        """Creates a token and returns it with its secret, which is never retrievable again."""
        secret = cls.SCHEME + secrets.token_urlsafe(32)
        token = cls.objects.create(
            workspace=workspace,
            user=user,
            name=name,
            prefix=secret[: cls.PREFIX_LENGTH],
            digest=cls.digest_of(secret),
        )
        return token, secret

    @classmethod
    def find_active(cls, secret: str) -> ApiToken | None:
        """The live token with this secret, with its user and workspace loaded, in one query.

        ``member_role`` holds its user's role in its workspace as of this query, or None when
        they are no longer a member; ``core.scoping.role_in`` uses it for the request.
        """
        if not secret.startswith(cls.SCHEME):
            return None
        role = (
            Membership.objects.filter(
                workspace=models.OuterRef("workspace_id"), user=models.OuterRef("user_id")
            )
            .order_by()  # the default ordering would join workspaces and users
            .values("role")[:1]
        )
        return (
            cls.objects.active()
            .select_related("user", "workspace")
            .annotate(member_role=models.Subquery(role))
            .filter(digest=cls.digest_of(secret))
            .first()
        )

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])

    def touch(self) -> None:
        """Records a use, at most once per TOUCH_INTERVAL."""
        now = timezone.now()
        if self.last_used_at is None or now - self.last_used_at >= self.TOUCH_INTERVAL:
            self.last_used_at = now
            ApiToken.objects.filter(pk=self.pk).update(last_used_at=now)
