#!/usr/bin/env python3
"""How many Swift files a re-check could leave unparsed, if it parsed only the files that "can
matter" to a rule and their cross-file neighbours (issue 37's incremental check; see
docs/benchmark.md, "The incremental check does not meet its goal").

    python3 bench/relevance_closure.py --checkouts DIR [REPO ...]        (totals only)
    python3 bench/relevance_closure.py --app FOLDER                      (one folder of sources)

A rough, generous estimate from the text alone (no parse, no targets, tests and Pods left out):

- seed: a file that names HealthKit or what the rules look for around it (`HK…` types, "health",
  "authoriz…", "permission", "granted", `DEBUG`, widget providers);
- then, to a fixed point, a file is added when it declares a name a kept file uses, or uses a name
  a kept file declares (`directed`) — the neighbours the rules consult (a called function's
  declaration, the callers of a writer, a store's declaration). `--functions` counts `func` names
  only, as if no rule followed a property, type or case across files (they do).

The seed is an upper bound on the saving of any relevance filter; the closure is what a filter
that is sound without reading every rule would keep.
"""
import argparse
import os
import re
import subprocess

SEED = re.compile(r"HK[A-Z]|[Hh]ealth|HEALTH|[Aa]uthoriz|[Pp]ermission|[Gg]ranted|DEBUG|TimelineProvider|Widget|CLKComplication")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = set("""func var let class struct enum protocol typealias case actor import if else return self Self init true false nil
guard for in while switch default break continue private public internal fileprivate static final override some any try await
async throws throw do catch where extension inout mutating weak lazy open""".split())


def closure(texts, functions_only=False):
    declaring = re.compile(r"\b(?:func)\s+([A-Za-z_][A-Za-z0-9_]*)" if functions_only else
                           r"\b(?:func|var|let|class|struct|enum|protocol|typealias|case|actor)\s+([A-Za-z_][A-Za-z0-9_]*)")
    info = {}
    for path, text in texts.items():
        names = set(IDENT.findall(text)) - KEYWORDS
        declared = set(declaring.findall(text)) - KEYWORDS
        info[path] = (names, declared, bool(SEED.search(text)))
    every_declared = set().union(*(d for _, d, _ in info.values())) if info else set()
    kept = {path for path, (_, _, seed) in info.items() if seed}
    seeds = len(kept)
    changed = True
    while changed:
        changed = False
        used, declared = set(), set()
        for path in kept:
            names, own, _ = info[path]
            declared |= own
            used |= (names - own) & every_declared
        for path, (names, own, _) in info.items():
            if path not in kept and ((own & used) or ((names - own) & declared)):
                kept.add(path)
                changed = True
    return len(info), seeds, len(kept)


def repo_texts(checkouts, repo):
    base = os.path.join(checkouts, repo)
    git = next((os.path.join(base, c) for c in ["repo/.git", "repo", ".git"] if os.path.isfile(os.path.join(base, c, "HEAD"))), None)
    if git is None:
        return {}
    names = subprocess.run(["git", "--git-dir", git, "ls-tree", "-r", "--name-only", "HEAD"], capture_output=True, text=True).stdout.split("\n")
    texts = {}
    for name in names:
        if name.endswith(".swift") and "Tests" not in name and "Pods/" not in name:
            texts[name] = subprocess.run(["git", "--git-dir", git, "show", "HEAD:" + name], capture_output=True, text=True,
                                         errors="replace").stdout
    return texts


def folder_texts(folder):
    texts = {}
    for directory, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".swift"):
                with open(os.path.join(directory, name), errors="replace") as f:
                    texts[os.path.join(directory, name)] = f.read()
    return texts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkouts")
    parser.add_argument("--app")
    parser.add_argument("--functions", action="store_true")
    parser.add_argument("repos", nargs="*")
    args = parser.parse_args()
    groups = [folder_texts(args.app)] if args.app else [
        repo_texts(args.checkouts, repo) for repo in (args.repos or sorted(os.listdir(args.checkouts)))
        if os.path.isdir(os.path.join(args.checkouts, repo))]
    totals = [0, 0, 0]
    for texts in groups:
        for i, value in enumerate(closure(texts, args.functions)):
            totals[i] += value
    files, seeds, kept = totals
    print(f"{len(groups)} apps, {files} Swift files: {seeds} seed ({seeds / max(files, 1):.0%}), "
          f"{kept} kept by the closure ({kept / max(files, 1):.0%})")


if __name__ == "__main__":
    main()
