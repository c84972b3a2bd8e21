"""The package's build backend: maturin, once it is known that the Rust toolchain is installed.

``pip install .`` and ``pip install -e .`` compile the core (``core/``, Rust) into
``brass_stats._core._native``. Without ``cargo`` maturin stops with a message about Cargo metadata;
this backend stops first, with one line that says what to install. Everything else is maturin's own
PEP 517 backend, unchanged (imported when a hook runs: pip installs it into the build environment).
"""

from __future__ import annotations

import shutil
from typing import Any

NO_RUST = (
    "brass-stats builds its compiled core (Rust) at install time and cannot find cargo: install the Rust "
    "toolchain (https://rustup.rs, or your system's rustc and cargo packages), then run pip install again"
)


def check_toolchain() -> None:
    """Stop with :data:`NO_RUST` when ``cargo`` is not on the PATH."""
    if shutil.which("cargo") is None:
        raise SystemExit(NO_RUST)


def _maturin() -> Any:
    import maturin

    return maturin


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    check_toolchain()
    return str(_maturin().build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    check_toolchain()
    return str(_maturin().build_editable(wheel_directory, config_settings, metadata_directory))


def build_sdist(sdist_directory: str, config_settings: Any = None) -> str:
    return str(_maturin().build_sdist(sdist_directory, config_settings))


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return list(_maturin().get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return list(_maturin().get_requires_for_build_editable(config_settings))


def get_requires_for_build_sdist(config_settings: Any = None) -> list[str]:
    return list(_maturin().get_requires_for_build_sdist(config_settings))


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Any = None) -> str:
    return str(_maturin().prepare_metadata_for_build_wheel(metadata_directory, config_settings))


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: Any = None) -> str:
    return str(_maturin().prepare_metadata_for_build_editable(metadata_directory, config_settings))
