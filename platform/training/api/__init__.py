"""The training REST API: jobs, their metrics and logs, reports and the cluster."""
