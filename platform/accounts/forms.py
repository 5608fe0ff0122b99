from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import ApiToken, Membership, User, Workspace
from accounts.services import find_user


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), help_text=_("Used to add you to teams."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class WorkspaceForm(forms.ModelForm):
    class Meta:
        model = Workspace
        fields = ("name",)
        labels = {"name": _("Name")}
        widgets = {"name": forms.TextInput(attrs={"placeholder": _("e.g. Vision team")})}


class InviteForm(forms.Form):
    addressed_to = forms.CharField(label=_("Username or email"), max_length=254)
    role = forms.ChoiceField(
        label=_("Role"), choices=Membership.Role.choices, initial=Membership.Role.MEMBER
    )

    def cleaned_role(self) -> Membership.Role:
        return Membership.Role(self.cleaned_data["role"])


class AddMemberForm(forms.Form):
    """Adding without an invitation (owners, where ADD_MEMBERS_DIRECTLY allows it). It says
    when no account matches: on such a stack the operator creates the accounts anyway."""

    user = forms.CharField(label=_("Username or email"), max_length=254)
    role = forms.ChoiceField(
        label=_("Role"), choices=Membership.Role.choices, initial=Membership.Role.MEMBER
    )

    def clean_user(self) -> User:
        user = find_user(self.cleaned_data["user"])
        if user is None:
            raise forms.ValidationError(_("No active account has this username or email."))
        return user

    def cleaned_role(self) -> Membership.Role:
        return Membership.Role(self.cleaned_data["role"])


class ApiTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ("name",)
        labels = {"name": _("Name")}
        widgets = {"name": forms.TextInput(attrs={"placeholder": _("e.g. CI upload script")})}
        help_texts = {"name": _("A label to recognise the token by.")}
