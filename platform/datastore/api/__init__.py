"""The datastore's REST API, one module per family of resources."""
