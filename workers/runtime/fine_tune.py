"""The fine-tuning recipe's two moving parts (the recipe itself: modelzoo.presets):

- the backbone and the classifier head are separate parameter groups, the backbone's learning
  rate a share (`backbone_lr_scale`) of the head's;
- for the first `freeze_epochs` epochs the backbone is frozen (its parameters take no gradient,
  so backward stops at the head), and only the new head learns: a random head's first, large
  gradients would otherwise wreck the pretrained features before the head is any good.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from framework.hapi.callbacks import Callback
from modelzoo.catalog import get_architecture, head_keys
from training import worker_messages as said


def split_parameters(arch_key: str, network: Any) -> tuple[list[Any], list[Any]]:
    """(backbone, head) parameters. A classifier's head is what the catalog finds to be its
    classifier; a detector's backbone is what its entry names (`backbone_prefix`), and
    everything after it (the neck and the head) counts as the head."""
    arch = get_architecture(arch_key)
    if arch.shipped_part == "ready":  # a trained network, all of it: no new head to warm up
        return [], list(network.parameters())
    prefix = arch.backbone_prefix
    head_names = frozenset() if prefix else head_keys(arch_key)
    backbone, head = [], []
    for name, parameter in network.named_parameters():
        in_head = not name.startswith(prefix) if prefix else name in head_names
        (head if in_head else backbone).append(parameter)
    return backbone, head


def parameter_groups(config: dict[str, Any], arch_key: str, network: Any) -> Any:
    """What the optimizer gets as `parameters`: plain parameters, or Paddle-style groups when
    the backbone learns at a share of the head's rate."""
    scale = float(config.get("backbone_lr_scale", 1.0))
    backbone, head = split_parameters(arch_key, network)
    if scale == 1.0 or not backbone or not head:
        return network.parameters()
    return [{"params": backbone, "learning_rate": scale}, {"params": head}]


class BackboneWarmup(Callback):
    """Freezes the backbone for the first `epochs` epochs, counted from the job's start, so a
    resumed job freezes or not as the uninterrupted one would have."""

    def __init__(
        self,
        backbone: list[Any],
        epochs: int,
        current_epoch: Callable[[], int],
        log: Callable[[str], None],
        learning: str = "",
    ) -> None:
        super().__init__()
        self.backbone, self.epochs = backbone, epochs
        self.learning = learning or said.HEAD_LEARNS()
        self.current_epoch, self.log = current_epoch, log
        self.frozen: bool | None = None

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        frozen = self.current_epoch() < self.epochs
        if frozen == self.frozen:
            return
        for parameter in self.backbone:
            parameter.trainable = not frozen
        if frozen:
            frozen_for = said.BACKBONE_FROZEN[1 if self.epochs == 1 else "many"]
            self.log(frozen_for(epochs=self.epochs, learning=self.learning))
        elif self.frozen is not None:
            self.log(said.BACKBONE_UNFROZEN())
        self.frozen = frozen

    def on_train_end(self, logs: dict | None = None) -> None:
        for parameter in self.backbone:  # the saved network is a plain, trainable one
            parameter.trainable = True


def warmup_callbacks(
    config: dict[str, Any],
    arch_key: str,
    network: Any,
    current_epoch: Callable[[], int],
    log: Callable[[str], None],
) -> list[Callback]:
    epochs = int(config.get("freeze_epochs", 0))
    backbone, head = split_parameters(arch_key, network)
    if epochs <= 0 or not backbone or not head:
        return []
    detector = bool(get_architecture(arch_key).backbone_prefix)
    learning = said.NECK_AND_HEAD_LEARN() if detector else said.HEAD_LEARNS()
    return [BackboneWarmup(backbone, epochs, current_epoch, log, learning)]
