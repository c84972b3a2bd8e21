"""The package's build backend: maturin, once it is known that the Rust toolchain is installed.

``pip install .`` and ``pip install -e .`` compile the core (``core/``, Rust) into
``brass_stats._core``. Without ``cargo`` maturin stops with a message about Cargo metadata; this
backend stops first, with one line that says what to install. Everything else is maturin's own
PEP 517 backend, unchanged.
"""

from __future__ import annotations

import shutil
from typing import Any

import maturin

NO_RUST = (
    "brass-stats builds its compiled core (Rust) at install time and cannot find cargo: install the Rust "
    "toolchain (https://rustup.rs, or your system's rustc and cargo packages), then run pip install again"
)


def check_toolchain() -> None:
    """Stop with :data:`NO_RUST` when ``cargo`` is not on the PATH."""
    if shutil.which("cargo") is None:
        raise SystemExit(NO_RUST)


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    check_toolchain()
    return str(maturin.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    check_toolchain()
    return str(maturin.build_editable(wheel_directory, config_settings, metadata_directory))


build_sdist = maturin.build_sdist
get_requires_for_build_wheel = maturin.get_requires_for_build_wheel
get_requires_for_build_editable = maturin.get_requires_for_build_editable
get_requires_for_build_sdist = maturin.get_requires_for_build_sdist
prepare_metadata_for_build_wheel = maturin.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = maturin.prepare_metadata_for_build_editable
