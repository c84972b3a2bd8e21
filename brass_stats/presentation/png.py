"""An SVG drawing as a PNG image, rendered by headless Chromium (Debian's ``chromium``)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import BrassError


class RenderError(BrassError):
    """No Chromium to render with, or Chromium could not render the image."""


def svg_to_png(svg: str, width: int, height: int) -> bytes:
    """Render an SVG document to PNG with headless Chromium (Debian's ``chromium``); raises :class:`RenderError`."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        raise RenderError("PNG output needs Chromium (apt-get install chromium); write .svg instead")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "board.svg")
        png = Path(tmp, "board.png")
        src.write_text(svg, encoding="utf-8")
        cmd = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--user-data-dir={tmp}/profile",
            f"--window-size={width},{height}",
            f"--screenshot={png}",
            src.as_uri(),
        ]
        done = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
        if not png.exists():
            raise RenderError(
                f"Chromium could not render the PNG: {done.stderr.decode(errors='replace').strip()[-300:]}"
            )
        return png.read_bytes()
