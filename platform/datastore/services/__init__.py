"""Behaviour that spans several datastore models: imports, label-set edits, versions, exports."""
