#!/usr/bin/env python3
"""healthaudit benchmark: measures healthaudit against its peers in the same run and prints ratios.

    python3 bench/run.py [--pages 2000] [--runs 5] [--shared ../shared]

Peers, all measured interleaved (A B A B ...) so drift on a shared machine hits both sides:
  * full build of N Markdown pages: healthaudit vs Hugo (Debian's `hugo`), same content, same disk;
  * per-page Markdown cost: healthaudit's render path vs libcmark alone, in-process (`healthaudit-bench markdown`);
  * no-op rebuild and one-page rebuild vs a full build;
  * peak RSS of both generators (from the kernel's accounting of each finished process);
  * daily statistics over a year of minute-level samples: the simulated store vs SQLite
    (`GROUP BY` day over the same rows in an in-memory database);
  * a site assembled from 500 repositories' check results (`build --results`, the JSON varied from
    a real check of Site/ by bench/gen_results.py) vs Hugo building as many pages; then `--history`
    over two runs of that fleet.
Writes bench/out/results.json and prints a table. Needs: swift, hugo, python3 (sqlite3 is in its stdlib).
"""
import argparse
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
TOOL = os.path.join(ROOT, ".build", "release", "healthaudit")
BENCH_TOOL = os.path.join(ROOT, ".build", "release", "healthaudit-bench")


def run(argv, cwd=None, env=None):
    """Runs a command, returns (wall seconds, peak RSS in MiB). Fails loudly on a non-zero exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=dict(os.environ, **env) if env else None)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    stderr = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(argv)} failed:\n{stderr}")
    return wall, usage.ru_maxrss / 1024.0


def prepare(args):
    os.makedirs(OUT, exist_ok=True)
    print("bench: building healthaudit (release)...", flush=True)
    for product in ["healthaudit", "healthaudit-bench"]:
        subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    if shutil.which("hugo") is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "hugo"], check=True, stdout=subprocess.DEVNULL)
    site = os.path.join(OUT, "site")
    hugo = os.path.join(OUT, "hugo-site")
    shutil.rmtree(site, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(args.shared, "bench", "gen_markdown.py"), "site",
                    os.path.join(site, "content"), str(args.pages)], check=True)
    with open(os.path.join(site, "healthaudit.yml"), "w") as f:
        f.write("title: SSG bench\ncontent: content\napps: []\n")
    subprocess.run(["bash", os.path.join(args.shared, "bench", "make_hugo_site.sh"), hugo, str(args.pages)],
                   check=True, stdout=subprocess.DEVNULL)
    return site, hugo


def clean(path):
    shutil.rmtree(path, ignore_errors=True)


def measure(site, hugo, runs):
    templates = os.path.join(ROOT, "Templates")
    ours = [TOOL, "build", "--site", site, "--templates", templates]
    output = os.path.join(site, "public")
    cache = os.path.join(site, ".public.cache.json")
    hugo_out = os.path.join(OUT, "hugo-public")
    page = os.path.join(site, "content", "posts", "p00042.md")
    samples = {k: [] for k in ("full", "hugo", "noop", "onepage", "rss_ours", "rss_hugo")}
    for i in range(runs + 1):  # the first round warms the page cache and is not counted
        clean(output); clean(hugo_out)
        if os.path.exists(cache):
            os.remove(cache)
        full, rss_ours = run(ours)
        hugo_time, rss_hugo = run(["hugo", "--quiet", "-s", hugo, "-d", hugo_out])
        noop, _ = run(ours)
        with open(page, "a") as f:
            f.write(f"\nEdited in round {i}.\n")
        onepage, _ = run(ours)
        if i == 0:
            continue
        for key, value in (("full", full), ("hugo", hugo_time), ("noop", noop), ("onepage", onepage),
                           ("rss_ours", rss_ours), ("rss_hugo", rss_hugo)):
            samples[key].append(value)
    return samples


def in_process(site, runs):
    markdown = json.loads(subprocess.run([BENCH_TOOL, "markdown", "--content", os.path.join(site, "content"),
                                          "--repeats", str(runs)], check=True, capture_output=True).stdout)
    csv_path = os.path.join(OUT, "rows.csv")
    store = json.loads(subprocess.run([BENCH_TOOL, "store", "--days", "365", "--csv", csv_path,
                                       "--repeats", str(runs)], check=True, capture_output=True).stdout)
    # SQLite peer: the same rows, day boundaries in the same time zone, best of `runs`.
    os.environ["TZ"] = "Europe/London"
    time.tzset()
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE samples (type TEXT, start REAL, end REAL, value REAL)")
    with open(csv_path) as f:
        next(f)
        db.executemany("INSERT INTO samples VALUES (?, ?, ?, ?)", (line.rstrip("\n").split(",") for line in f))
    db.commit()
    query = ("SELECT type, date(start + 978307200, 'unixepoch', 'localtime') AS day, "
             "SUM(value), AVG(value), MIN(value), MAX(value), COUNT(*) FROM samples GROUP BY type, day")
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        rows = db.execute(query).fetchall()
        best = min(best, time.perf_counter() - start)
    os.remove(csv_path)
    return markdown, store, {"sqlite_seconds": best, "groups": len(rows)}


def check_vs_parse(runs, files=1000):
    """`healthaudit check` of a generated app of `files` Swift files with HealthKit code, against
    the compiler's own parser over the same files (`swiftc -frontend -parse`), interleaved."""
    app = os.path.join(OUT, "swift-app")
    shutil.rmtree(app, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_swift_app.py"), app, "--files", str(files)], check=True)
    sources = sorted(os.path.join(d, f) for d, _, names in os.walk(os.path.join(app, "apps")) for f in names if f.endswith(".swift"))
    swiftc = shutil.which("swiftc")
    checks, parses, rss = [], [], []
    for _ in range(runs):
        wall, peak = run([TOOL, "check", "--site", app, "--no-fail", "--format", "json", "--output", os.path.join(OUT, "check.json")])
        checks.append(wall)
        rss.append(peak)
        parses.append(run([swiftc, "-frontend", "-parse"] + sources)[0])
    return {"files": files, "check": checks, "parse": parses, "rss_check": rss}


def results_site(args, apps=500):
    """`build --results` over `apps` result files (one app each, as a CI matrix of repositories
    uploads them), against Hugo building as many pages from Markdown, interleaved; then two runs
    with `--history` (the second from a later variant of the fleet, so it draws a trend)."""
    work = os.path.join(OUT, "results-bench")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    seed = os.path.join(work, "seed.json")
    subprocess.run([TOOL, "check", "--site", os.path.join(ROOT, "Site"), "--no-fail", "--format", "json", "--output", seed],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    generator = os.path.join(ROOT, "bench", "gen_results.py")
    results, later = os.path.join(work, "results"), os.path.join(work, "results-later")
    subprocess.run([sys.executable, generator, seed, results, "--apps", str(apps)], check=True)
    subprocess.run([sys.executable, generator, seed, later, "--apps", str(apps), "--variant", "1"], check=True)
    json_bytes = sum(os.path.getsize(os.path.join(results, name)) for name in os.listdir(results))
    site, hugo, hugo_out = os.path.join(work, "site"), os.path.join(work, "hugo-site"), os.path.join(work, "hugo-public")
    ours = [TOOL, "build", "--results", results, "--output", site]
    run(ours)
    pages = sum(1 for d, _, names in os.walk(site) for name in names if name.endswith(".html"))
    subprocess.run(["bash", os.path.join(args.shared, "bench", "make_hugo_site.sh"), hugo, str(pages)],
                   check=True, stdout=subprocess.DEVNULL)
    samples = {k: [] for k in ("ours", "hugo", "rss_ours", "rss_hugo")}
    for i in range(args.runs + 1):  # the first round warms the page cache and is not counted
        clean(site)
        clean(hugo_out)
        wall, rss = run(ours)
        hugo_wall, hugo_rss = run(["hugo", "--quiet", "-s", hugo, "-d", hugo_out])
        if i == 0:
            continue
        for key, value in (("ours", wall), ("hugo", hugo_wall), ("rss_ours", rss), ("rss_hugo", hugo_rss)):
            samples[key].append(value)
    history, history_site = os.path.join(work, "history"), os.path.join(work, "history-site")
    first = run([TOOL, "build", "--results", results, "--history", history, "--output", history_site], env={"SOURCE_DATE_EPOCH": "1775044800"})
    second = run([TOOL, "build", "--results", later, "--history", history, "--output", history_site], env={"SOURCE_DATE_EPOCH": "1775131200"})
    with open(os.path.join(history_site, "index.html"), encoding="utf-8") as f:
        trend = "<h2 id=\"history\">History</h2>" in f.read()
    return {"apps": apps, "files": apps, "json_bytes": json_bytes, "pages": pages, "samples": samples,
            "history": {"first": {"seconds": first[0], "rss": first[1]}, "second": {"seconds": second[0], "rss": second[1]}, "trend_shown": trend}}


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def ratios(a, b):
    return spread([x / y for x, y in zip(a, b)])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    args = parser.parse_args()
    site, hugo = prepare(args)
    s = measure(site, hugo, args.runs)
    markdown, store, sqlite = in_process(site, args.runs)
    swift = check_vs_parse(args.runs)
    fleet = results_site(args)
    fs = fleet["samples"]
    rows = [
        ("full build / hugo full build", ratios(s["full"], s["hugo"]), 0.5),
        ("per-page cost / raw libcmark", spread([markdown["ours_seconds"] / markdown["cmark_seconds"]]), 1.5),
        ("no-op rebuild / full build", ratios(s["noop"], s["full"]), 0.10),
        ("one-page rebuild / full build", ratios(s["onepage"], s["full"]), 0.20),
        ("peak RSS / hugo peak RSS", ratios(s["rss_ours"], s["rss_hugo"]), 1.0),
        ("store daily stats / sqlite GROUP BY", spread([store["store_seconds"] / sqlite["sqlite_seconds"]]), 1.0),
        (f"check {swift['files']} Swift files / swiftc parse", ratios(swift["check"], swift["parse"]), 3.0),
        (f"build --results {fleet['apps']} apps / hugo {fleet['pages']} pages", ratios(fs["ours"], fs["hugo"]), 1.0),
        ("build --results peak RSS / hugo peak RSS", ratios(fs["rss_ours"], fs["rss_hugo"]), 1.0),
    ]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform()}"
    print(f"\nhealthaudit benchmark — {args.pages} pages, {args.runs} interleaved runs — {machine}\n")
    print(f"{'ratio':40} {'median':>8} {'min':>8} {'max':>8} {'target':>8}  met")
    for name, r, target in rows:
        print(f"{name:40} {r['median']:8.3f} {r['min']:8.3f} {r['max']:8.3f} {target:8.2f}  {'yes' if r['median'] <= target else 'NO'}")
    print(f"\nabsolute medians: healthaudit full {statistics.median(s['full']):.3f} s, hugo {statistics.median(s['hugo']):.3f} s, "
          f"no-op {statistics.median(s['noop']):.3f} s, one page {statistics.median(s['onepage']):.3f} s; "
          f"RSS {statistics.median(s['rss_ours']):.0f} vs {statistics.median(s['rss_hugo']):.0f} MiB; "
          f"markdown {markdown['ours_seconds']:.4f} vs {markdown['cmark_seconds']:.4f} s for {markdown['pages']} pages; "
          f"store {store['store_seconds']:.4f} s vs sqlite {sqlite['sqlite_seconds']:.4f} s over {store['rows']} rows; "
          f"check {statistics.median(swift['check']):.3f} s vs swiftc -parse {statistics.median(swift['parse']):.3f} s "
          f"({swift['files']} files, check peak RSS {statistics.median(swift['rss_check']):.0f} MiB); "
          f"build --results of {fleet['apps']} apps ({fleet['json_bytes'] / 1048576:.0f} MiB of JSON, {fleet['pages']} pages) "
          f"{statistics.median(fs['ours']):.3f} s and {statistics.median(fs['rss_ours']):.0f} MiB vs hugo {statistics.median(fs['hugo']):.3f} s "
          f"and {statistics.median(fs['rss_hugo']):.0f} MiB; with --history: first run {fleet['history']['first']['seconds']:.3f} s, "
          f"second {fleet['history']['second']['seconds']:.3f} s ({fleet['history']['second']['rss']:.0f} MiB), "
          f"trend shown: {fleet['history']['trend_shown']}")
    results = {"machine": machine, "pages": args.pages, "runs": args.runs, "samples": s, "markdown": markdown,
               "store": store, "sqlite": sqlite, "swift": swift, "results": fleet,
               "ratios": {name: dict(r, target=target) for name, r, target in rows}}
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)
    print(f"\nwritten: {os.path.join(OUT, 'results.json')}")


if __name__ == "__main__":
    main()
