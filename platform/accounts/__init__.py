"""Users, workspaces (teams) with roles, and workspace-scoped API tokens."""
