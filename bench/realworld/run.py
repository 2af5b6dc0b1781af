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
    return (answer or "").strip().lower()


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


def audit_key(app):
    """What must not change between two audits of one app: its answers and where its findings are."""
    return ([a["status"] for a in app["answers"]],
            sorted((f["ruleId"], f["location"]["path"], f["location"]["line"]) for f in app["findings"]))


def discovery_check(tool, tree, configured):
    """`check` with no config in the same tree: how many apps discovery finds, and whether one of
    them is audited as the hand-written config audits the app (same answers; same findings)."""
    os.remove(os.path.join(tree, "healthaudit.yml"))
    os.makedirs(os.path.join(tree, ".git"), exist_ok=True)  # the repository's top: no config above it is used
    status = subprocess.run([tool, "check", "--no-fail", "--format", "json", "--output", "discovered.json"], cwd=tree,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if status.returncode != 0:
        return {"apps": 0, "error": status.stderr[-500:]}
    discovered = json.load(open(os.path.join(tree, "discovered.json"), encoding="utf-8"))["apps"]
    wanted = audit_key(configured["apps"][0])
    return {"apps": len(discovered),
            "answers_same": any(audit_key(app)[0] == wanted[0] for app in discovered),
            "findings_same": any(audit_key(app) == wanted for app in discovered)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkouts", required=True, help="folder of fetched repositories (owner+name/)")
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "healthaudit"))
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders")
    args = parser.parse_args()
    args.tool = os.path.abspath(args.tool)  # the tool runs inside each scratch folder
    if not os.path.exists(args.tool):
        print(f"realworld: building {args.tool}…", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "healthaudit"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)

    slugs = sorted(f[:-5] for f in os.listdir(os.path.join(HERE, "apps")) if f.endswith(".json"))
    if args.only:
        slugs = [s for s in slugs if s in args.only]
    out = os.path.join(HERE, "out")
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="healthaudit-realworld-")
    results = []
    for slug in slugs:
        judgment = json.load(open(os.path.join(HERE, "apps", slug + ".json"), encoding="utf-8"))
        config = os.path.join(HERE, "configs", slug + ".yml")
        git = git_dir(args.checkouts, judgment["repo"])
        if git is None or not os.path.exists(config):
            why = "not fetched" if git is None else "no config"
            print(f"{slug}: skipped ({why})", flush=True)
            results.append({"app": slug, "skipped": why})
            continue
        tree = os.path.join(scratch, slug)
        export(git, judgment["commit"], tree)
        shutil.copy(config, os.path.join(tree, "healthaudit.yml"))
        report_path = os.path.join(out, slug + ".json")
        status, seconds, rss, stderr = run_measured(
            [args.tool, "check", "--site", tree, "--format", "json", "--output", report_path, "--no-fail"], cwd=tree)
        if status != 0:
            print(f"{slug}: healthaudit exited {status}\n{stderr}", flush=True)
            results.append({"app": slug, "error": f"exit {status}", "stderr": stderr[-2000:], "seconds": seconds, "rss_mib": rss})
            continue
        report = json.load(open(report_path, encoding="utf-8"))
        result = score_app(judgment, report, slug)
        result.update({"seconds": round(seconds, 2), "rss_mib": round(rss, 1), "well_configured": judgment.get("well_configured")})
        result["discovery"] = discovery_check(args.tool, tree, report)
        results.append(result)
        print(f"{slug}: {result['agree']}/6 answers, {len(result['found'])} found, {len(result['missed'])} missed, "
              f"{len(result['false_alarms'])} false alarm(s), {seconds:.2f} s, {rss:.0f} MiB", flush=True)
    if not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)

    scored = [r for r in results if "answers" in r]
    total_answers = 6 * len(scored)
    agree = sum(r["agree"] for r in scored)
    found = sum(len(r["found"]) for r in scored)
    missed = sum(len(r["missed"]) for r in scored)
    alarms = sum(len(r["false_alarms"]) for r in scored)
    summary = {"apps": len(scored), "answers_agree": agree, "answers_total": total_answers,
               "agreement": round(agree / total_answers, 3) if total_answers else None,
               "defects_found": found, "defects_missed": missed, "false_alarms": alarms}
    json.dump({"summary": summary, "apps": results}, open(os.path.join(out, "results.json"), "w"), indent=2, sort_keys=True)

    lines = ["| app | " + " | ".join(QUESTIONS) + " | defects found | missed | false alarms | time | peak RSS | no config |",
             "|---|" + "---|" * len(QUESTIONS) + "---:|---:|---:|---:|---:|---|"]
    for r in results:
        if "answers" not in r:
            lines.append(f"| {r['app']} | " + " | ".join(["—"] * len(QUESTIONS)) + f" | {r.get('skipped') or r.get('error')} | | | | |")
            continue
        cells = []
        for q in QUESTIONS:
            a = r["answers"][q]
            cells.append(a["tool"] if a["agree"] else f"**{a['tool']}** (judged {a['judged']})")
        found_apps = r["discovery"]
        no_config = (f"error: {found_apps['error'][:60]}" if "error" in found_apps else
                     f"{found_apps['apps']} app(s); answers {'same' if found_apps['answers_same'] else '**differ**'}, "
                     f"findings {'same' if found_apps['findings_same'] else 'differ'}")
        lines.append(f"| {r['app']} | " + " | ".join(cells) + f" | {len(r['found'])} | {len(r['missed'])} | {len(r['false_alarms'])} | {r['seconds']} s | {r['rss_mib']:.0f} MiB | {no_config} |")
    same_answers = sum(1 for r in scored if r["discovery"].get("answers_same"))
    same_findings = sum(1 for r in scored if r["discovery"].get("findings_same"))
    summary["discovery"] = {"answers_same": same_answers, "findings_same": same_findings, "apps": len(scored)}
    json.dump({"summary": summary, "apps": results}, open(os.path.join(out, "results.json"), "w"), indent=2, sort_keys=True)
    lines.append("")
    lines.append(f"`check` with no config, compared with the hand-written config: the same answers for {same_answers}/{len(scored)} apps, "
                 f"the same findings for {same_findings}/{len(scored)}.")
    lines.append("")
    lines.append(f"Answers agreeing with the hand judgment: {agree}/{total_answers}"
                 + (f" ({100 * agree / total_answers:.0f} %)" if total_answers else "")
                 + f"; judged defects found {found}, missed {missed}; error findings on apps judged well configured: {alarms}.")
    table = "\n".join(lines)
    open(os.path.join(out, "results.md"), "w").write(table + "\n")
    print("\n" + table)


if __name__ == "__main__":
    sys.exit(main())
