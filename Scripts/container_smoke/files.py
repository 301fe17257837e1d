"""COPY's file work, shared by both stages: a folder or a file put where the instruction says,
`.dockerignore` applied to what comes from the context."""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath

from .dockerfile import DockerIgnore


def sync_tree(source: Path, target: Path, ignore: DockerIgnore | None, relative: str) -> set[Path]:
    """Puts in `target` what COPY would (everything below `source`, less what `ignore` excludes
    by its context path `relative/...`), touching only files that changed, so an unchanged file
    keeps its timestamp and a build stays incremental; returns the files it holds."""
    wanted: set[Path] = set()

    def excluded(inside: Path, name: str) -> bool:
        return ignore is not None and ignore.excludes(str(PurePosixPath(relative) / inside / name))

    for folder, folders, files in os.walk(source):
        here = Path(folder)
        inside = here.relative_to(source)
        folders[:] = [name for name in folders if not excluded(inside, name)]
        (target / inside).mkdir(parents=True, exist_ok=True)
        for name in files:
            if not excluded(inside, name):
                wanted.add(target / inside / name)
                sync_file(here / name, target / inside / name)
    return wanted


def sync_file(source: Path, target: Path) -> None:
    if target.exists():
        mine, theirs = source.stat(), target.stat()
        if mine.st_size == theirs.st_size and int(mine.st_mtime) == int(theirs.st_mtime):
            return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source.resolve(), target)


def own_by_root(target: Path, files: set[Path]) -> None:
    """Docker's COPY without --chown: root owns what it copied, folders included."""
    for path in files:
        while True:
            os.chown(path, 0, 0)
            if path == target or target not in path.parents:
                break
            path = path.parent
