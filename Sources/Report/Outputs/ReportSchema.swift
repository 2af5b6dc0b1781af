/// The JSON Schema (draft 2020-12) of `--format json`, shipped with the tool so consumers can
/// validate what they read; the test suite validates real output against it.
public enum ReportSchema {
    public static let text = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://github.com/healthaudit/healthaudit/schemas/report-v3.json",
      "title": "healthaudit report",
      "description": "The output of `healthaudit check --format json`. Paths are relative to the directory the tool ran in (the repository root in CI).",
      "type": "object",
      "additionalProperties": false,
      "required": ["schemaVersion", "tool", "site", "title", "source", "apps", "summary"],
      "properties": {
        "schemaVersion": {"const": 3, "description": "Bumped when a field is renamed or removed, or an object gains a required field."},
        "tool": {
          "type": "object",
          "additionalProperties": false,
          "required": ["name", "version", "informationUri"],
          "properties": {
            "name": {"type": "string"},
            "version": {"type": "string"},
            "informationUri": {"type": "string"}
          }
        },
        "site": {"type": "string", "description": "The site folder relative to the current directory."},
        "title": {"type": "string", "description": "The site's title (the config's title)."},
        "source": {
          "type": "object",
          "additionalProperties": false,
          "required": ["commit", "urlTemplate", "sitePath"],
          "properties": {
            "commit": {"type": ["string", "null"], "pattern": "^([0-9a-f]{40}|[0-9a-f]{64})$", "description": "The checked-out commit, read from .git; null outside a repository."},
            "urlTemplate": {"type": ["string", "null"], "description": "The config's source_url: {commit}, {path} and {line} are filled in per location."},
            "sitePath": {"type": "string", "description": "The site folder relative to the repository root (\".\" when it is the root)."}
          }
        },
        "apps": {"type": "array", "items": {"$ref": "#/$defs/app"}},
        "summary": {
          "type": "object",
          "additionalProperties": false,
          "required": ["apps", "findings", "verdicts"],
          "properties": {
            "apps": {"type": "integer", "minimum": 0},
            "findings": {"$ref": "#/$defs/counts"},
            "verdicts": {
              "type": "object",
              "additionalProperties": false,
              "required": ["passes", "needsWork", "fails"],
              "properties": {
                "passes": {"type": "integer", "minimum": 0},
                "needsWork": {"type": "integer", "minimum": 0},
                "fails": {"type": "integer", "minimum": 0},
                "incomplete": {"type": "integer", "minimum": 0, "description": "Apps that could not be loaded or whose declared HealthKit use could not be read."}
              }
            },
            "outsideChangedLines": {"type": "integer", "minimum": 0, "description": "With --changed-files or --since: active findings left out because they are not on a changed line."},
            "baselined": {"type": "integer", "minimum": 0, "description": "With --baseline: active findings the baseline accepted, left out of the report."}
          }
        }
      },
      "$defs": {
        "app": {
          "type": "object",
          "additionalProperties": false,
          "required": ["id", "name", "kind", "verdict", "counts", "requested", "unresolvedRequests", "answers", "findings", "notes", "discovery", "dependencies", "declared", "simulation"],
          "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "kind": {"enum": ["swift", "react-native", "cordova", "flutter"]},
            "verdict": {"enum": ["passes", "needs work", "incomplete", "fails"]},
            "counts": {"$ref": "#/$defs/counts"},
            "requested": {
              "type": "object",
              "additionalProperties": false,
              "required": ["read", "share"],
              "properties": {
                "read": {"type": "array", "items": {"type": "string"}},
                "share": {"type": "array", "items": {"type": "string"}}
              }
            },
            "unresolvedRequests": {
              "type": "object",
              "additionalProperties": false,
              "required": ["read", "share"],
              "description": "Requests whose types could not be resolved, as file:line: beside the types in requested, the app asks for more that are unknown.",
              "properties": {
                "read": {"type": "array", "items": {"type": "string"}},
                "share": {"type": "array", "items": {"type": "string"}}
              }
            },
            "answers": {"type": "array", "maxItems": 6, "items": {"$ref": "#/$defs/answer"}},
            "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
            "notes": {"type": "array", "items": {"type": "string"}, "description": "What the scan could not establish."},
            "discovery": {"type": "array", "items": {"$ref": "#/$defs/discovered"},
                          "description": "What discovery found in the project (targets, files, settings), with where it was read."},
            "dependencies": {"type": "array", "items": {"$ref": "#/$defs/dependency"},
                             "description": "Packages known to link HealthKit, from the app's manifests and lockfiles."},
            "declared": {"$ref": "#/$defs/declared"},
            "simulation": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/simulation"}],
                           "description": "The app's daily summaries and scenarios through the simulated store; null when not simulated."}
          }
        },
        "declared": {
          "type": "object",
          "additionalProperties": false,
          "required": ["usageStrings", "entitlements", "targets", "reactNativeRequests", "inputFiles"],
          "properties": {
            "identity": {
              "type": "object",
              "additionalProperties": false,
              "description": "What the main target's Info.plist and build settings say the app is; null where they do not say.",
              "properties": {
                "bundleId": {"type": ["string", "null"]},
                "version": {"type": ["string", "null"]},
                "build": {"type": ["string", "null"]},
                "minimumOS": {"type": ["string", "null"]}
              }
            },
            "usageStrings": {"type": "array", "items": {"oneOf": [
              {
                "type": "object",
                "additionalProperties": false,
                "required": ["key", "origin", "location", "value", "valueType"],
                "properties": {
                  "key": {"type": "string"},
                  "origin": {"enum": ["Info.plist", "build setting", "Expo config"]},
                  "location": {"$ref": "#/$defs/location"},
                  "value": {"type": ["string", "null"], "description": "Null when the value is not a string."},
                  "valueType": {"type": "string"}
                }
              },
              {
                "type": "object",
                "additionalProperties": false,
                "required": ["key", "origin"],
                "properties": {"key": {"type": "string"}, "origin": {"const": "absent"}}
              },
              {
                "type": "object",
                "additionalProperties": false,
                "required": ["key", "origin", "locale", "source", "value"],
                "properties": {
                  "key": {"type": "string"},
                  "origin": {"const": "translation"},
                  "locale": {"type": "string"},
                  "source": {"type": "string", "description": "The strings file's encoding, or \"string catalog\"."},
                  "value": {"type": "string"}
                }
              }
            ]}},
            "entitlements": {
              "oneOf": [
                {"type": "null"},
                {"type": "array", "items": {"type": "object", "additionalProperties": false, "required": ["key", "value"],
                                            "properties": {"key": {"type": "string"}, "value": {"type": "string"}}}}
              ],
              "description": "The app target's entitlements, each value summarised; null when no entitlements file is configured."
            },
            "targets": {"type": "array", "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["id", "name", "extensionPoint", "swiftFiles", "javaScriptFiles", "infoPlist"],
              "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"},
                "extensionPoint": {"type": ["string", "null"]},
                "swiftFiles": {"type": "integer", "minimum": 0},
                "javaScriptFiles": {"type": ["integer", "null"], "minimum": 0},
                "infoPlist": {"oneOf": [
                  {"type": "null"},
                  {"type": "object", "additionalProperties": false, "required": ["path", "format"],
                   "properties": {"path": {"type": "string"}, "format": {"type": "string"}}}
                ]}
              }
            }},
            "reactNativeRequests": {"type": "array", "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["location", "read", "write"],
              "properties": {
                "location": {"$ref": "#/$defs/location"},
                "read": {"type": "array", "items": {"$ref": "#/$defs/nativePermission"}},
                "write": {"type": "array", "items": {"$ref": "#/$defs/nativePermission"}}
              }
            }},
            "inputFiles": {"type": "array", "items": {"type": "string"}}
          }
        },
        "nativePermission": {
          "type": "object",
          "additionalProperties": false,
          "required": ["constant", "type"],
          "properties": {"constant": {"type": "string"}, "type": {"type": ["string", "null"]}}
        },
        "simulation": {
          "type": "object",
          "additionalProperties": false,
          "required": ["days", "scenarios", "unmodelledTypes"],
          "properties": {
            "days": {"type": "array", "maxItems": 366, "items": {"$ref": "#/$defs/day"}},
            "scenarios": {"type": "array", "items": {"$ref": "#/$defs/scenario"}},
            "unmodelledTypes": {"type": "array", "items": {"type": "string"}}
          }
        },
        "day": {
          "type": "object",
          "additionalProperties": false,
          "required": ["day", "hours", "metrics", "workouts", "workoutsVisibility", "stepsByHour", "hourLabels", "clockTicks", "heartRate", "heartRateVisibility",
                       "sleep", "sleepVisibility", "stepsSeen", "stepsHeld", "sleepSeenHours", "sleepHeldHours"],
          "properties": {
            "day": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
            "hours": {"type": "number"},
            "metrics": {"type": "array", "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["name", "type", "held", "seen", "visibility"],
              "properties": {
                "name": {"type": "string"}, "type": {"type": "string"}, "held": {"type": "string"}, "seen": {"type": "string"},
                "visibility": {"$ref": "#/$defs/visibility"}
              }
            }},
            "workouts": {"type": "array", "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["activity", "start", "duration", "energy", "distance"],
              "properties": {
                "activity": {"type": "string"}, "start": {"type": "string"}, "duration": {"type": "string"},
                "energy": {"type": "string"}, "distance": {"type": "string"}
              }
            }},
            "workoutsVisibility": {"$ref": "#/$defs/visibility"},
            "stepsByHour": {"type": "array", "items": {"type": ["number", "null"]}, "description": "Steps per local hour as the app sees them; null where hidden."},
            "hourLabels": {"type": "array", "items": {"type": "string"}, "description": "The local clock hour each of stepsByHour starts at (23 or 25 on daylight-saving days; a repeated hour marked ′)."},
            "clockTicks": {"type": "array", "items": {"type": "object", "additionalProperties": false, "required": ["x", "label"],
              "properties": {"x": {"type": "number", "minimum": 0, "maximum": 1}, "label": {"type": "string"}}},
              "description": "Where local 00:00, 06:00, 12:00, 18:00 and 24:00 fall across the day (0…1)."},
            "heartRate": {"type": "array", "items": {
              "type": "object", "additionalProperties": false, "required": ["x", "bpm"],
              "properties": {"x": {"type": "number", "description": "Fraction of the day."}, "bpm": {"type": "number"}}
            }},
            "heartRateVisibility": {"$ref": "#/$defs/visibility"},
            "sleep": {"type": "array", "items": {
              "type": "object", "additionalProperties": false, "required": ["stage", "start", "end"],
              "properties": {"stage": {"type": "string"}, "start": {"type": "number"}, "end": {"type": "number"}}
            }},
            "sleepVisibility": {"$ref": "#/$defs/visibility"},
            "stepsSeen": {"type": ["number", "null"]},
            "stepsHeld": {"type": "number"},
            "sleepSeenHours": {"type": ["number", "null"]},
            "sleepHeldHours": {"type": "number"}
          }
        },
        "visibility": {
          "type": "object",
          "additionalProperties": false,
          "required": ["state", "error"],
          "properties": {
            "state": {"enum": ["visible", "readNotGranted", "neverAsked", "failed", "notSet"]},
            "error": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/healthKitError"}]}
          }
        },
        "healthKitError": {
          "type": "object",
          "additionalProperties": false,
          "required": ["code", "name", "description"],
          "properties": {"code": {"type": "integer", "minimum": 0, "maximum": 15}, "name": {"type": "string"}, "description": {"type": "string"}}
        },
        "scenario": {
          "type": "object",
          "additionalProperties": false,
          "required": ["id", "title", "summary", "steps"],
          "properties": {
            "id": {"type": "string"},
            "title": {"type": "string"},
            "summary": {"type": "string"},
            "steps": {"type": "array", "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["index", "action", "outcome", "status", "error", "samplesSeen", "crash", "skipped"],
              "properties": {
                "index": {"type": "integer", "minimum": 0},
                "action": {"type": "string"},
                "outcome": {"type": "string"},
                "status": {"type": ["string", "null"]},
                "error": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/healthKitError"}]},
                "samplesSeen": {"type": ["integer", "null"], "minimum": 0},
                "crash": {"oneOf": [
                  {"type": "null"},
                  {"type": "object", "additionalProperties": false, "required": ["exceptionName", "reason"],
                   "properties": {"exceptionName": {"type": "string"}, "reason": {"type": "string"}}}
                ]},
                "skipped": {"type": "boolean"}
              }
            }}
          }
        },
        "dependency": {
          "type": "object",
          "additionalProperties": false,
          "required": ["package", "ecosystem", "version", "direct", "location", "quote", "writes", "workoutSession", "clinical", "sdk"],
          "properties": {
            "package": {"type": "string"},
            "ecosystem": {"enum": ["npm", "pub", "CocoaPods", "SwiftPM"]},
            "version": {"type": ["string", "null"], "description": "Resolved by a lockfile, else the manifest's range."},
            "direct": {"type": ["boolean", "null"], "description": "Named by the app's own manifest, not only pulled in by another package; null when the lockfile cannot tell (SwiftPM)."},
            "location": {"$ref": "#/$defs/location"},
            "quote": {"type": "string"},
            "writes": {"type": "boolean"},
            "workoutSession": {"type": "boolean"},
            "clinical": {"type": "boolean", "description": "References clinical-record types."},
            "sdk": {"type": "boolean", "description": "A framework the app builds on (ResearchKit, CareKit, Spezi), not a plugin."}
          }
        },
        "discovered": {
          "type": "object",
          "additionalProperties": false,
          "required": ["text", "origin", "location", "note"],
          "properties": {
            "text": {"type": "string"},
            "origin": {"type": "string", "description": "Where it comes from: a target and setting, a config key, a file."},
            "location": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/location"}]},
            "note": {"type": "boolean", "description": "A point to look at (an ambiguity settled by a documented choice, a file not used), not a plain fact."}
          }
        },
        "answer": {
          "type": "object",
          "additionalProperties": false,
          "required": ["question", "text", "status", "mark", "reason", "evidence", "ruleIds"],
          "properties": {
            "question": {"type": "integer", "minimum": 1, "maximum": 6},
            "text": {"type": "string", "description": "The review question, in Markdown."},
            "status": {"enum": ["yes", "no", "not applicable", "cannot tell"]},
            "mark": {"enum": ["pass", "fail", "unknown", "n/a"], "description": "Whether the status is the good answer: question 3 asks about the anti-pattern, so its \"no\" passes."},
            "reason": {"type": "string"},
            "evidence": {
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["location", "quote"],
                "properties": {"location": {"$ref": "#/$defs/location"}, "quote": {"type": "string"}}
              }
            },
            "ruleIds": {"type": "array", "items": {"type": "string"}, "description": "Rules whose findings made the answer \"no\"."}
          }
        },
        "finding": {
          "type": "object",
          "additionalProperties": false,
          "required": ["ruleId", "severity", "message", "location", "quote", "target", "fingerprint", "suppressed", "context"],
          "properties": {
            "ruleId": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
            "severity": {"enum": ["error", "warning", "note"]},
            "message": {"type": "string"},
            "location": {"$ref": "#/$defs/location"},
            "quote": {"type": "string", "description": "The input line the rule looked at, as written."},
            "target": {"type": "string", "description": "The app id or extension id the finding belongs to."},
            "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{16}$", "description": "Rule, file and normalized quote: survives line shifts."},
            "context": {
              "description": "Up to two lines before and after the quoted one, as written, and the quoted line's indentation; null when the file is not text the audit read, or for a missing key.",
              "oneOf": [
                {"type": "null"},
                {
                  "type": "object",
                  "additionalProperties": false,
                  "required": ["before", "after", "indent"],
                  "properties": {
                    "before": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                    "after": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                    "indent": {"type": "string"}
                  }
                }
              ]
            },
            "suppressed": {
              "oneOf": [
                {"type": "null"},
                {
                  "type": "object",
                  "additionalProperties": false,
                  "required": ["origin", "reason", "location"],
                  "properties": {
                    "origin": {"enum": ["config", "inline"], "description": "An ignore: entry in healthaudit.yml, or a healthaudit:disable-next-line comment."},
                    "reason": {"type": "string"},
                    "location": {"$ref": "#/$defs/location"}
                  }
                }
              ]
            }
          }
        },
        "location": {
          "type": "object",
          "additionalProperties": false,
          "required": ["path", "line", "column"],
          "properties": {
            "path": {"type": "string", "minLength": 1},
            "line": {"type": ["integer", "null"], "minimum": 1, "description": "Null when the file has no lines (a binary plist)."},
            "column": {"type": ["integer", "null"], "minimum": 1}
          }
        },
        "counts": {
          "type": "object",
          "additionalProperties": false,
          "required": ["errors", "warnings", "notes", "suppressed"],
          "properties": {
            "errors": {"type": "integer", "minimum": 0},
            "warnings": {"type": "integer", "minimum": 0},
            "notes": {"type": "integer", "minimum": 0},
            "suppressed": {"type": "integer", "minimum": 0}
          }
        }
      }
    }
    """#
}
