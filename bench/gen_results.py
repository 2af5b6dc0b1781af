#!/usr/bin/env python3
"""Synthesise many repositories' `healthaudit check --format json` results from one real result.

    gen_results.py SEED.json OUT_DIR [--apps 500] [--variant 0]

Writes OUT_DIR/repo-0000.json ... one file per app, as a CI matrix with one job per repository
uploads them. App i is a copy of the seed's app i % N (its answers, declarations, summaries and
scenarios as the real check wrote them) with its own id, name and commit, and its findings varied:
some left out, some repeated at other lines with their own fingerprints. `--variant` changes which
(a later run of the same fleet: some findings fixed, some new), so history has something to draw.
Deterministic: the same arguments give the same files.
"""
import argparse
import copy
import hashlib
import json
import os


def digest(*parts):
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()


def vary_findings(app, index, variant):
    findings = []
    for position, finding in enumerate(app["findings"]):
        # About one finding in six is gone in each variant, a different one per variant.
        if int(digest(index, position, variant), 16) % 6 == 0:
            continue
        finding = copy.deepcopy(finding)
        finding["fingerprint"] = digest(finding["fingerprint"], index)[:16]
        findings.append(finding)
        # About one in five has a twin further down the same file.
        if int(digest("twin", index, position), 16) % 5 == 0:
            twin = copy.deepcopy(finding)
            if twin["location"]["line"] is not None:
                twin["location"]["line"] += 7
            twin["fingerprint"] = digest(twin["fingerprint"], "twin")[:16]
            findings.append(twin)
    return findings


def counts(findings):
    result = {"errors": 0, "warnings": 0, "notes": 0, "suppressed": 0}
    for finding in findings:
        if finding["suppressed"] is not None:
            result["suppressed"] += 1
        else:
            result[finding["severity"] + "s"] += 1
    return result


def verdict(c):
    return "fails" if c["errors"] else "needs work" if c["warnings"] else "passes"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed")
    parser.add_argument("out")
    parser.add_argument("--apps", type=int, default=500)
    parser.add_argument("--variant", type=int, default=0)
    args = parser.parse_args()
    with open(args.seed, encoding="utf-8") as f:
        seed = json.load(f)
    assert seed["schemaVersion"] == 3, "the seed must come from this healthaudit's check --format json"
    os.makedirs(args.out, exist_ok=True)
    base_apps = seed["apps"]
    for index in range(args.apps):
        app = copy.deepcopy(base_apps[index % len(base_apps)])
        app["id"] = f"{app['id']}-{index:04d}"
        app["name"] = f"{app['name']} {index}"
        app["findings"] = vary_findings(app, index, args.variant)
        app["counts"] = counts(app["findings"])
        app["verdict"] = verdict(app["counts"])
        document = {
            "schemaVersion": seed["schemaVersion"],
            "tool": seed["tool"],
            "site": seed["site"],
            "title": "Fleet",
            "source": dict(seed["source"], commit=digest("commit", index, args.variant)[:40]),
            "apps": [app],
            "summary": {
                "apps": 1,
                "findings": app["counts"],
                "verdicts": {"passes": int(app["verdict"] == "passes"), "needsWork": int(app["verdict"] == "needs work"),
                             "fails": int(app["verdict"] == "fails")},
            },
        }
        with open(os.path.join(args.out, f"repo-{index:04d}.json"), "w", encoding="utf-8") as f:
            json.dump(document, f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
