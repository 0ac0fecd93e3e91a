"""The Docker backend: one ``docker run --rm`` container per command.

The container has a read-only root, a tmpfs ``/tmp``, no network unless
``limits.network``, ``--memory`` (swap included) and ``--pids-limit`` from
the limits, no capabilities and ``no-new-privileges``. The mounts are bound
at their own paths; a hidden one is an empty tmpfs (a folder) or ``/dev/null``
(a file). The container sees none of the host's files but its mounts, so the
host's home folders and credentials (see `private`) are never in it.

Image: ``$SLOPMARK_DOCKER_IMAGE``, else SlopCodeBench's evaluation base image,
``ghcr.io/astral-sh/uv:python3.12-trixie-slim`` (SCB's
``configs/environments/docker-python3.12-uv-artnet.yaml``; SCB adds Node.js,
build-essential and rustup on top, see `slopmark.code.bench.toolchains`).
The harness passes host paths, including virtual environments whose
``python`` links to a host interpreter, so the host's Python prefix
(``sys.base_prefix``) is also bound read-only at its own path, and the
evaluation's interpreter and toolchain folders come as mounts. Such an
interpreter needs a C library no older than the host's (trixie's is newer
than bookworm's); when the image's is older, set an image that matches the host.

User: the caller's own uid and gid (``--user``), not 65534, so that the
writable mounts (made by the caller) are writable and what the command
writes there belongs to the caller. Without capabilities, even uid 0 cannot
act beyond the owner permissions of the mounted files.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from slopmark.errors import BadInput
from slopmark.sandbox.base import Execution, Limits, Mount, register
from slopmark.sandbox.layout import check_layout, nested_last
from slopmark.sandbox.limits import command_env
from slopmark.sandbox.supervise import Launch, supervise

DEFAULT_IMAGE = "ghcr.io/astral-sh/uv:python3.12-trixie-slim"
IMAGE_ENV = "SLOPMARK_DOCKER_IMAGE"


def docker_argv(
    argv: Sequence[str],
    *,
    workdir: Path,
    mounts: Sequence[Mount],
    limits: Limits,
    env: Mapping[str, str],
    image: str,
    name: str,
    user: str,
    docker: str = "docker",
    interactive: bool = False,
) -> list[str]:
    """The ``docker run`` command line that runs ``argv`` in a fresh container.

    ``interactive`` keeps the command's stdin open (``--interactive``).
    """
    args = [
        docker, "run", "--rm", "--init", "--name", name, "--user", user,
        "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL",
        "--security-opt", "no-new-privileges", "--workdir", str(workdir),
    ]  # fmt: skip
    if interactive:
        args.append("--interactive")
    if not limits.network:
        args += ["--network", "none"]
    if limits.memory_mb is not None:
        args += ["--memory", f"{limits.memory_mb}m", "--memory-swap", f"{limits.memory_mb}m"]
    if limits.max_procs is not None:
        args += ["--pids-limit", str(limits.max_procs)]
    for mount in nested_last(mounts):
        args += ["--mount", _bind(mount)]
    for key, value in env.items():
        args += ["--env", f"{key}={value}"]
    return [*args, image, *argv]


def _bind(mount: Mount) -> str:
    if "," in str(mount.path):
        raise BadInput(f"docker cannot mount '{mount.path}': the path holds a comma; rename it")
    if mount.hidden and mount.path.is_dir():
        return f"type=tmpfs,target={mount.path}"
    source = "/dev/null" if mount.hidden else mount.path
    spec = f"type=bind,source={source},target={mount.path}"
    return spec if mount.writable and not mount.hidden else spec + ",readonly"


class DockerSandbox:
    """Runs commands in Docker containers (see the module docstring)."""

    name = "docker"

    def __init__(self, executable: str, image: str) -> None:
        self.executable = executable
        self.image = image

    def run(
        self,
        argv: Sequence[str],
        *,
        workdir: Path,
        mounts: Sequence[Mount],
        limits: Limits,
        env: Mapping[str, str],
        stdin: str | None = None,
    ) -> Execution:
        """Run ``argv`` in ``workdir`` in a new container, removed afterwards."""
        check_layout(workdir, mounts)
        name = f"slopmark-{uuid.uuid4().hex[:16]}"
        prefix = Mount(Path(sys.base_prefix).resolve())
        command = docker_argv(
            argv, workdir=workdir, mounts=[prefix, *mounts], limits=limits,
            env=command_env(env), image=self.image, name=name,
            user=f"{os.getuid()}:{os.getgid()}", docker=self.executable,
            interactive=stdin is not None,
        )  # fmt: skip
        launch = Launch(command, dict(os.environ), cleanup=self._remover(name))
        return supervise(launch, limits, stdin)

    def _remover(self, name: str) -> Callable[[], None]:
        def remove() -> None:
            subprocess.run(
                [self.executable, "rm", "--force", name],
                capture_output=True, timeout=60, check=False,
            )  # fmt: skip

        return remove


@functools.cache
def unavailable() -> str | None:
    """Why Docker cannot run here: not installed, or no daemon answers."""
    executable = shutil.which("docker")
    if executable is None:
        return "docker is not installed"
    try:
        done = subprocess.run(
            [executable, "info", "--format", "{{.ServerVersion}}"],
            capture_output=True, text=True, timeout=20, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"no Docker daemon answers ({error})"
    if done.returncode != 0:
        why = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        return f"no Docker daemon answers ({why[0]})"
    return None


@register("docker", unavailable=unavailable)
def build() -> DockerSandbox:
    image = os.environ.get(IMAGE_ENV, DEFAULT_IMAGE)
    return DockerSandbox(shutil.which("docker") or "docker", image)
