"""Account pages, and the accounts API under ``api/`` (namespace ``accounts:api``)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy

from accounts import api, views

app_name = "accounts"

api_urlpatterns = [
    path("me/", api.MeView.as_view(), name="me"),
    path("tokens/", api.PasswordTokenView.as_view(), name="password-token"),
    path("workspaces/", api.WorkspaceListView.as_view(), name="workspace-list"),
    path(
        "workspaces/<slug:workspace_slug>/",
        api.WorkspaceDetailView.as_view(),
        name="workspace-detail",
    ),
    path(
        "workspaces/<slug:workspace_slug>/delete-preview/",
        api.WorkspaceDeletePreviewView.as_view(),
        name="workspace-delete-preview",
    ),
    path(
        "workspaces/<slug:workspace_slug>/members/",
        api.MemberListView.as_view(),
        name="member-list",
    ),
    path(
        "workspaces/<slug:workspace_slug>/members/<int:pk>/",
        api.MemberDetailView.as_view(),
        name="member-detail",
    ),
    path(
        "workspaces/<slug:workspace_slug>/invitations/",
        api.WorkspaceInvitationListView.as_view(),
        name="workspace-invitation-list",
    ),
    path(
        "workspaces/<slug:workspace_slug>/invitations/<int:pk>/",
        api.WorkspaceInvitationDetailView.as_view(),
        name="workspace-invitation-detail",
    ),
    path("invitations/", api.MyInvitationListView.as_view(), name="invitation-list"),
    path(
        "invitations/<int:pk>/accept/",
        api.AcceptInvitationView.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:pk>/decline/",
        api.DeclineInvitationView.as_view(),
        name="invitation-decline",
    ),
    path(
        "workspaces/<slug:workspace_slug>/tokens/",
        api.TokenListView.as_view(),
        name="token-list",
    ),
    path(
        "workspaces/<slug:workspace_slug>/tokens/<int:pk>/",
        api.TokenDetailView.as_view(),
        name="token-detail",
    ),
    path(
        "workspaces/<slug:workspace_slug>/tokens/<int:pk>/delete-preview/",
        api.TokenDeletePreviewView.as_view(),
        name="token-delete-preview",
    ),
]

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "account/password/",
        auth_views.PasswordChangeView.as_view(
            success_url=reverse_lazy("accounts:password_change_done")
        ),
        name="password_change",
    ),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("workspaces/", views.workspace_list, name="workspace_list"),
    path("workspaces/<slug:slug>/", views.workspace_detail, name="workspace_detail"),
    path("workspaces/<slug:slug>/members/", views.member_list, name="member_list"),
    path("workspaces/<slug:slug>/members/add/", views.member_add, name="member_add"),
    path(
        "workspaces/<slug:slug>/invitations/",
        views.invitation_create,
        name="invitation_create",
    ),
    path(
        "workspaces/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path(
        "invitations/<int:invitation_id>/accept/",
        views.invitation_accept,
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        views.invitation_decline,
        name="invitation_decline",
    ),
    path(
        "workspaces/<slug:slug>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("workspaces/<slug:slug>/tokens/", views.token_list, name="token_list"),
    path(
        "workspaces/<slug:slug>/tokens/<int:token_id>/revoke/",
        views.token_revoke,
        name="token_revoke",
    ),
    path("api/", include((api_urlpatterns, "api"))),
]
