"""Publish a built site as a monthly edition onto the gh-pages branch (see kb.editions).

    python scripts/publish_edition.py deploy --site site --edition 2026-10 [--from origin/gh-pages] [--branch gh-pages]
    python scripts/publish_edition.py delete --edition 2026-09 [--from gh-pages] [--branch gh-pages]
    python scripts/publish_edition.py tree --site site --edition 2026-10 --out DIR   # lay out a directory, no git

deploy/delete read the tree of --from (default: the local gh-pages branch, else
origin/gh-pages, else an empty branch), change it and commit the result on
--branch with --from as its parent, in the repository of the current directory.
Nothing is pushed: ``git push origin gh-pages`` does that.  Standard library and
git only: the publishing workflow's deploy job runs this with nothing installed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
from kb.editions import delete, publish  # noqa: E402  (standard library only)


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    run = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"git {' '.join(args)}: {run.stderr.strip()}")
    return run.stdout.strip()


def ref_exists(repo: Path, ref: str) -> bool:
    return (
        subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd=repo, capture_output=True
        ).returncode
        == 0
    )


def default_from(repo: Path, branch: str) -> str | None:
    for ref in (f"refs/heads/{branch}", f"refs/remotes/origin/{branch}"):
        if ref_exists(repo, ref):
            return ref
    return None


def extract(repo: Path, ref: str, dest: Path) -> None:
    """The tree of ``ref`` written to ``dest`` (tar's "data" filter: nothing outside it, no devices)."""
    proc = subprocess.Popen(["git", "archive", "--format=tar", ref], cwd=repo, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        tar.extractall(dest, filter="data")
    if proc.wait() != 0:
        raise SystemExit(f"git archive {ref} failed")


def commit(repo: Path, tree_dir: Path, parent: str | None, branch: str, message: str) -> str | None:
    """Commit ``tree_dir`` as the whole tree of ``branch`` (parent: ``parent``); None when nothing changed."""
    git_dir = git(repo, "rev-parse", "--absolute-git-dir")
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "GIT_DIR": git_dir,
            "GIT_WORK_TREE": str(tree_dir),
            "GIT_INDEX_FILE": str(Path(tmp) / "index"),
        }
        # the sparse checkout of the deploy job must not limit what goes into this tree
        git(tree_dir, "-c", "core.sparseCheckout=false", "add", "--all", "--force", ".", env=env)
        tree = git(tree_dir, "write-tree", env=env)
    if parent is not None and git(repo, "rev-parse", f"{parent}^{{tree}}") == tree:
        git(repo, "update-ref", f"refs/heads/{branch}", git(repo, "rev-parse", f"{parent}^{{commit}}"))
        return None
    new = git(repo, "commit-tree", tree, *(["-p", parent] if parent else []), "-m", message)
    git(repo, "update-ref", f"refs/heads/{branch}", new)
    return new


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("deploy", "delete", "tree"):
        c = sub.add_parser(name)
        c.add_argument("--edition", required=True, help="the month, YYYY-MM")
        if name != "delete":
            c.add_argument("--site", type=Path, required=True, help="the built site (mkdocs build -d DIR)")
        if name == "tree":
            c.add_argument("--out", type=Path, required=True, help="directory holding (or to hold) the tree")
        else:
            c.add_argument("--repo", type=Path, default=Path("."))
            c.add_argument(
                "--from", dest="from_ref", help="tree to start from (default: gh-pages, else origin/gh-pages)"
            )
            c.add_argument("--branch", default="gh-pages")
            c.add_argument("--source", default="", help="commit the site was built from, for the message")
    args = p.parse_args(argv)

    try:
        if args.command == "tree":
            done = publish(args.site.resolve(), args.edition, args.out.resolve())
            print(
                f"{args.out}: edition {done.edition} ({done.edition_bytes} bytes), latest moved: {done.moved_current}"
            )
            return 0
        repo = args.repo.resolve()
        start = args.from_ref or default_from(repo, args.branch)
        if start is not None and not ref_exists(repo, start):
            raise ValueError(f"no such ref: {start}")
        with tempfile.TemporaryDirectory(prefix="gh-pages.") as tmp:
            tree_dir = Path(tmp) / "tree"
            tree_dir.mkdir()
            if start is not None:
                extract(repo, start, tree_dir)
            if args.command == "deploy":
                done = publish(args.site.resolve(), args.edition, tree_dir)
                what = "latest and " if done.moved_current else "the fix of "
                message = f"Publish {what}edition {args.edition}" + (f" from {args.source}" if args.source else "")
                summary = (
                    f"edition {done.edition}: {done.edition_bytes} bytes; latest "
                    f"{'replaced' if done.moved_current else 'left as it was'}; changes pages: "
                    f"{', '.join(done.changes_written)}"
                    + (f"; frozen mike editions: {', '.join(done.migrated)}" if done.migrated else "")
                )
            else:
                left = delete(args.edition, tree_dir)
                message = f"Delete edition {args.edition}"
                summary = f"deleted {args.edition}; editions: {', '.join(left) or 'none'}"
            new = commit(repo, tree_dir, start, args.branch, message)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(summary)
    print(f"{args.branch}: {new}" if new else f"{args.branch}: nothing changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
