#!/usr/bin/env python3
"""healthaudit on real open-source HealthKit apps, scored against hand judgments.

    python3 bench/realworld/run.py --checkouts DIR [--tool PATH] [--only SLUG ...]

Each `bench/realworld/apps/<slug>.json` names a public repository, the commit it was judged at, and
the judgment written by hand *before* the tool's output was looked at: the six review answers and
every defect with file:line. `bench/realworld/configs/<slug>.yml` is the healthaudit.yml used for it
(paths relative to the repository root). No third-party code is kept here.

DIR holds fetched repositories as `owner+name/` folders (the layout of the search tool's `fetch`:
a git directory at `repo/.git` or `repo`, or a plain clone). For each app the pinned commit is
exported into a scratch folder, the config written at its root, and `healthaudit check --format
json` run there; wall time and peak RSS come from the kernel (`wait4`).

Prints, per app and in total: answers agreeing with the judgment, judged defects found and
missed, error-level findings on apps judged well configured (false alarms), error findings no
judgment names, time and peak RSS. Writes bench/realworld/out/results.json and results.md.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
QUESTIONS = ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6"]
LINE_SLACK = 3  # a finding within this many lines of a judged defect, in the same file, finds it


def git_dir(checkouts, repo):
    base = os.path.join(checkouts, repo.replace("/", "+"))
    for candidate in ["repo/.git", "repo", ".git", ""]:
        path = os.path.join(base, candidate)
        if os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects")):
            return path
    return None


def export(git, commit, into):
    """The pinned commit's files, without history. Snapshots may lack their largest blobs (an icon
    .psd, a video): those are skipped, as the audit never reads them. Symlinks are not recreated."""
    os.makedirs(into, exist_ok=True)
    listing = subprocess.run(["git", "--git-dir", git, "ls-tree", "-r", "-z", commit], check=True, capture_output=True).stdout
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, sha = meta.split(b" ")
        if kind == b"blob" and mode != b"120000":
            entries.append((sha.decode(), path.decode("utf-8", "surrogateescape")))
    batch = subprocess.run(["git", "--git-dir", git, "cat-file", "--batch"], input=b"".join(sha.encode() + b"\n" for sha, _ in entries),
                           check=True, capture_output=True).stdout
    offset = 0
    for sha, path in entries:
        header_end = batch.index(b"\n", offset)
        header = batch[offset:header_end].split(b" ")
        offset = header_end + 1
        if len(header) < 3 or header[1] == b"missing":
            continue
        size = int(header[2])
        data = batch[offset:offset + size]
        offset += size + 1
        target = os.path.join(into, path)
        if not os.path.realpath(target).startswith(os.path.realpath(into) + os.sep):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)


def run_measured(argv, cwd):
    """Runs argv; returns (exit status, seconds, peak RSS in MiB, stderr). Peak RSS comes from GNU
    time when present: a forked child's ru_maxrss starts from this (larger) Python process."""
    rss_file = tempfile.NamedTemporaryFile(delete=False)
    rss_file.close()
    timed = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + argv if os.path.exists("/usr/bin/time") else argv
    start = time.monotonic()
    process = subprocess.Popen(timed, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    rss = usage.ru_maxrss / 1024
    try:
        rss = int(open(rss_file.name).read().strip().splitlines()[-1]) / 1024
    except (ValueError, IndexError):
        pass
    os.unlink(rss_file.name)
    return os.waitstatus_to_exitcode(status), seconds, rss, stderr


def normalize(answer):
    answer = (answer or "").strip().lower()
    return "not applicable" if answer == "n/a" else answer


def score_app(judgment, report, slug):
    apps = report.get("apps", [])
    app = next((a for a in apps if a.get("id") == slug), apps[0] if apps else None)
    result = {"app": slug, "answers": {}, "agree": 0, "found": [], "missed": [], "false_alarms": [], "unjudged_errors": []}
    if app is None:
        result["error"] = "no app in the report"
        return result
    tool_answers = {f"Q{a['question']}": a for a in app.get("answers", [])}
    for q in QUESTIONS:
        judged = normalize(judgment["answers"].get(q, {}).get("answer"))
        tool = normalize(tool_answers.get(q, {}).get("status"))
        result["answers"][q] = {"judged": judged, "tool": tool, "agree": judged == tool}
        result["agree"] += judged == tool
    findings = [f for f in app.get("findings", []) if not f.get("suppressed")]

    def near(finding, defect):
        path = finding.get("location", {}).get("path", "")
        line = finding.get("location", {}).get("line") or 0
        scope = defect.get("scope", "line")
        if scope == "line":
            lines = [defect.get("line") or 0] + defect.get("also_lines", [])
            return path.endswith(defect["file"]) and any(abs(line - judged) <= LINE_SLACK for judged in lines)
        # An absence (no availability check in the app, no entitlement for the target) has no one
        # line: the judged line is one place to show it, and the same rule anywhere in its scope finds it.
        if finding.get("ruleId") != defect.get("rule"):
            return False
        return scope == "target" or path.endswith(defect["file"])

    for defect in judgment.get("defects", []):
        hit = next((f for f in findings if near(f, defect)), None)
        entry = f"{defect['file']}:{defect.get('line')} {defect.get('rule')}"
        (result["found"] if hit else result["missed"]).append(entry + (f" → {hit['ruleId']}" if hit else ""))
    for finding in findings:
        if finding.get("severity") != "error":
            continue
        where = f"{finding['location']['path']}:{finding['location'].get('line')} {finding['ruleId']}"
        if judgment.get("well_configured"):
            result["false_alarms"].append(where)
        elif not any(near(finding, d) for d in judgment.get("defects", [])):
            result["unjudged_errors"].append(where)
    return result


SHARED = os.path.join(ROOT, "..", "shared", "judged-apps")
FINDINGS = os.path.join(HERE, "findings")  # <slug>.json: every reported finding judged right/debatable/wrong


def judged_apps():
    """../shared/judged-apps as judgments of the corpus's shape (answers only: they list no defects
    with rule ids). Well configured follows checklist-answers.md from the answers."""
    path = os.path.join(SHARED, "expected.json")
    if not os.path.exists(path):
        return []
    apps = []
    for key, entry in sorted(json.load(open(path, encoding="utf-8")).items(), key=lambda kv: int(kv[0])):
        answers = {f"Q{q}": {"answer": a} for q, a in entry["answers"].items()}
        bad = answers["Q2"]["answer"] == "no" or answers["Q3"]["answer"] == "yes" or answers["Q4"]["answer"] == "no" or answers["Q5"]["answer"] == "no"
        slug = "judged-" + entry["config"].split("/")[-1][:-4]
        apps.append({"slug": slug, "set": "judged-apps", "config": os.path.join(SHARED, entry["config"]),
                     "judgment": {"name": entry["app"], "repo": entry["repo"], "commit": entry["commit"], "also": entry.get("also", {}),
                                  "answers": answers, "defects": [], "well_configured": not bad}})
    return apps


def corpus_apps():
    held = set()
    listing = os.path.join(HERE, "held-back.txt")
    if os.path.exists(listing):
        held = {line.strip() for line in open(listing) if line.strip() and not line.startswith("#")}
    apps = []
    for name in sorted(os.listdir(os.path.join(HERE, "apps"))):
        if name.endswith(".json"):
            slug = name[:-5]
            apps.append({"slug": slug, "set": "held-back" if slug in held else "tuned", "config": os.path.join(HERE, "configs", slug + ".yml"),
                         "judgment": json.load(open(os.path.join(HERE, "apps", name), encoding="utf-8"))})
    return apps


def build_tree(checkouts, judgment, tree):
    """The pinned commit at the tree's root; a judgment with `also` repositories (Loop and LoopKit)
    puts each repository in a folder of its name, as its config expects."""
    git = git_dir(checkouts, judgment["repo"])
    if git is None:
        return "not fetched: " + judgment["repo"]
    also = judgment.get("also") or {}
    if also:
        export(git, judgment["commit"], os.path.join(tree, judgment["repo"].split("/")[1]))
        for repo, commit in also.items():
            other = git_dir(checkouts, repo)
            if other is None:
                return "not fetched: " + repo
            export(other, commit, os.path.join(tree, repo.split("/")[1]))
    else:
        export(git, judgment["commit"], tree)
    os.makedirs(os.path.join(tree, ".git"), exist_ok=True)  # the repository's top: no config above it is used
    return None


def discovered_app(report, judgment):
    """The app a new user would look at among those `check` discovered with no config: the one named
    like the judged app, else the one whose root holds the judged app_root, else the first that uses
    HealthKit (answered from its code before one that could not be loaded)."""
    apps = report.get("apps", [])
    name = (judgment.get("name") or "").lower()
    for app in apps:
        if (app.get("name") or "").lower() == name:
            return app
    root = judgment.get("app_root")
    if root:
        for app in apps:
            if (app.get("root") or "").rstrip("/").endswith(root.rstrip("/")):
                return app
    # An app answered from its code first: one that could not be loaded answers "cannot tell" to
    # everything, which says nothing about whether it uses HealthKit.
    for app in apps:
        if any(a.get("status") in ("yes", "no") for a in app.get("answers", [])):
            return app
    for app in apps:
        if any(a.get("status") != "not applicable" for a in app.get("answers", [])):
            return app
    return apps[0] if apps else None


def finding_verdicts(slug):
    path = os.path.join(FINDINGS, slug + ".json")
    if not os.path.exists(path):
        return {}
    return {(v["rule"], v["file"], v.get("line")): v["verdict"] for v in json.load(open(path, encoding="utf-8"))["findings"]}


def audit(tool, tree, config, report_path):
    cfg = os.path.join(tree, "healthaudit.yml")
    if os.path.exists(cfg):
        os.remove(cfg)
    if config:
        shutil.copy(config, cfg)
    status, seconds, rss, stderr = run_measured([tool, "check", "--format", "json", "--output", report_path, "--no-fail"], cwd=tree)
    if config:
        os.remove(cfg)
    report = json.load(open(report_path, encoding="utf-8")) if os.path.exists(report_path) else None
    return status, seconds, rss, stderr, report


def score_mode(entry, report, status, stderr):
    judgment = entry["judgment"]
    if report is None or not report.get("apps"):
        return {"error": f"exit {status}: {stderr.strip()[-300:]}", "agree": 0, "answers": {}}
    app = discovered_app(report, judgment)
    scored = score_app(judgment, {"apps": [app]}, entry["slug"])
    verdicts = finding_verdicts(entry["slug"])
    findings = [f for f in app.get("findings", []) if not f.get("suppressed")]
    tally = {"right": 0, "debatable": 0, "wrong": 0, "unjudged": 0}
    unjudged = []
    for f in findings:
        verdict = verdicts.get((f["ruleId"], f["location"]["path"], f["location"].get("line")), "unjudged")
        tally[verdict] += 1
        if verdict == "unjudged":
            unjudged.append({"rule": f["ruleId"], "file": f["location"]["path"], "line": f["location"].get("line"),
                             "severity": f["severity"], "message": f.get("message", "")})
    scored.update({"findings": tally, "unjudged_findings": unjudged, "apps_found": len(report["apps"])})
    return scored


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkouts", required=True, help="folder of fetched repositories (owner+name/)")
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "healthaudit"))
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--set", choices=["tuned", "held-back", "judged-apps"], nargs="*", default=[])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders")
    args = parser.parse_args()
    args.tool = os.path.abspath(args.tool)  # the tool runs inside each scratch folder
    if not os.path.exists(args.tool):
        print(f"realworld: building {args.tool}…", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "healthaudit"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)

    entries = corpus_apps() + judged_apps()
    if args.only:
        entries = [e for e in entries if e["slug"] in args.only]
    if args.set:
        entries = [e for e in entries if e["set"] in args.set]
    out = os.path.join(HERE, "out")
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="healthaudit-realworld-")
    results = []
    for entry in entries:
        slug, judgment = entry["slug"], entry["judgment"]
        tree = os.path.join(scratch, slug)
        problem = build_tree(args.checkouts, judgment, tree)
        if problem:
            print(f"{slug}: skipped ({problem})", flush=True)
            results.append({"app": slug, "set": entry["set"], "skipped": problem})
            continue
        result = {"app": slug, "set": entry["set"], "well_configured": judgment.get("well_configured"), "kind": judgment.get("kind")}
        for mode, config in [("config", entry["config"] if os.path.exists(entry["config"]) else None), ("none", None)]:
            if mode == "config" and config is None:
                result[mode] = {"error": "no config", "agree": 0, "answers": {}}
                continue
            status, seconds, rss, stderr, report = audit(args.tool, tree, config, os.path.join(out, f"{slug}.{mode}.json"))
            result[mode] = score_mode(entry, report, status, stderr)
            result[mode].update({"seconds": round(seconds, 2), "rss_mib": round(rss, 1), "exit": status})
        results.append(result)
        def line(m):
            r = result[m]
            if "error" in r:
                return f"{m}: {r['error'][:120]}"
            f = r["findings"]
            return (f"{m}: {r['agree']}/6, findings {f['right']} right {f['debatable']} debatable {f['wrong']} wrong {f['unjudged']} unjudged, "
                    f"defects {len(r['found'])} found {len(r['missed'])} missed, {len(r['false_alarms'])} false alarm(s)")
        print(f"{slug} [{entry['set']}]: {line('none')} | {line('config')}", flush=True)
    if not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)

    summary = {}
    lines = ["| set | config | apps | " + " | ".join(QUESTIONS) + " | answers | precision (right ÷ judged) | unjudged | recall | errors on well-configured |",
             "|---|---|---:|" + "---:|" * len(QUESTIONS) + "---:|---:|---:|---:|---:|"]
    for group in ["tuned", "held-back", "judged-apps"]:
        for mode in ["none", "config"]:
            rows = [r for r in results if r.get("set") == group and mode in r]
            if not rows:
                continue
            per_q = {q: sum(1 for r in rows if r[mode].get("answers", {}).get(q, {}).get("agree")) for q in QUESTIONS}
            agree = sum(per_q.values())
            tally = {k: sum(r[mode].get("findings", {}).get(k, 0) for r in rows) for k in ["right", "debatable", "wrong", "unjudged"]}
            judged = tally["right"] + tally["debatable"] + tally["wrong"]
            found = sum(len(r[mode].get("found", [])) for r in rows)
            missed = sum(len(r[mode].get("missed", [])) for r in rows)
            alarms = sum(len(r[mode].get("false_alarms", [])) for r in rows)
            summary[f"{group}/{mode}"] = {"apps": len(rows), "answers_agree": agree, "answers_total": 6 * len(rows), "per_question": per_q,
                                          "findings": tally, "defects_found": found, "defects_missed": missed, "false_alarms": alarms}
            precision = f"{tally['right']}/{judged} ({100 * tally['right'] / judged:.0f} %)" if judged else "—"
            recall = f"{found}/{found + missed}" if found + missed else "—"
            label = "no config" if mode == "none" else "config"
            lines.append(f"| {group} | {label} | {len(rows)} | " + " | ".join(f"{per_q[q]}/{len(rows)}" for q in QUESTIONS)
                         + f" | **{agree}/{6 * len(rows)}** ({100 * agree / (6 * len(rows)):.0f} %) | {precision} | {tally['unjudged']} | {recall} | {alarms} |")
    lines.append("")
    lines.append("| app | set | no config | config | disagreements (no config) |")
    lines.append("|---|---|---:|---:|---|")
    for r in results:
        if "skipped" in r:
            lines.append(f"| {r['app']} | {r['set']} | — | — | {r['skipped']} |")
            continue
        none = r["none"]
        # Held-back apps are measured, never read: their disagreements stay in results.json only.
        diffs = "(held back)" if r["set"] == "held-back" else \
            ", ".join(f"{q}: {a['tool'] or '—'} (judged {a['judged']})" for q, a in none.get("answers", {}).items() if not a["agree"]) or none.get("error", "")[:80]
        lines.append(f"| {r['app']} | {r['set']} | {none.get('agree', 0)}/6 | {r['config'].get('agree', 0)}/6 | {diffs} |")
    json.dump({"summary": summary, "apps": results}, open(os.path.join(out, "results.json"), "w"), indent=2, sort_keys=True)
    table = "\n".join(lines)
    open(os.path.join(out, "results.md"), "w").write(table + "\n")
    print("\n" + table)


if __name__ == "__main__":
    sys.exit(main())
