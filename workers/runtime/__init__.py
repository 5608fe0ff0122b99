"""What a worker needs to run a training job: device slots, batched metric reporting,
checkpoints, the heartbeat, failure reasons, and the reconciler that re-queues dead jobs."""
