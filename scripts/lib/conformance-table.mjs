// The table of scripts/mcp-conformance: one row a scenario from the suite's checks.json files, as Markdown (issue 24).
//   node conformance-table.mjs server|client RESULTS_DIR
// A scenario with at least one SUCCESS and no FAILURE passed (its WARNINGs said); one with no check at all failed
// (the suite calls 0 of 0 a pass, e.g. for a client command that never connects). In server mode a failing scenario
// is n/a when every failure is about something our server does not offer by design (the suite's fixture tools,
// resources, prompts, completion), and the HTTP-layer scenarios are n/a whatever their outcome: they test the
// stdio-to-HTTP bridge, not our server.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [mode, results] = process.argv.slice(2);
const HTTP_LAYER = new Set(["dns-rebinding-protection", "server-sse-polling", "server-sse-multiple-streams"]);
const NOT_OFFERED = [
  [/Method not found: (resources|prompts|completion)\//, "not offered (no such capability)"],
  [/Unknown tool|Tool '[^']+' not found/, "a fixture tool of the suite's reference server"],
];

const runs = readdirSync(results, { recursive: true })
  .filter((path) => path.endsWith("checks.json"))
  .map((path) => {
    const folder = path.slice(0, -"/checks.json".length);
    const [, name, stamp] = folder.match(/^(?:server-)?(.*)-(\d{4}-\d\d-\d\dT[\d-]+Z)$/) ?? [, folder, ""];
    return { name, stamp, checks: JSON.parse(readFileSync(join(results, path), "utf8")) };
  })
  .sort((a, b) => a.stamp.localeCompare(b.stamp));

const said = (checks) => [...new Set(checks.map((c) => (c.errorMessage ?? c.description).replace(/\s+/g, " ")))];
const count = { passed: 0, failed: 0, "n/a": 0 };
console.log("| scenario | result | reason (the suite's words) |\n| --- | --- | --- |");
for (const { name, checks } of runs) {
  const failures = checks.filter((c) => c.status === "FAILURE");
  const warnings = checks.filter((c) => c.status === "WARNING");
  const passes = checks.filter((c) => c.status === "SUCCESS").length;
  let result = failures.length ? "failed" : "passed";
  let reason = failures.length ? said(failures).join("; ") : said(warnings).map((w) => `warning: ${w}`).join("; ");
  if (mode === "server" && HTTP_LAYER.has(name)) {
    result = "n/a";
    reason = `tests the HTTP layer, i.e. the bridge; the suite said ${passes} passed, ${failures.length} failed`
      + (reason ? `: ${reason}` : "");
  } else if (!passes && !failures.length) {
    result = "failed";   // the suite itself calls 0 of 0 checks a pass
    reason = `no check ran (the suite says 0/0 passed)${reason ? `; ${reason}` : ""}`;
  } else if (mode === "server" && failures.length) {
    const why = NOT_OFFERED.find(([pattern]) => failures.every((c) => pattern.test(c.errorMessage ?? "")));
    if (why) { result = "n/a"; reason = `${why[1]}: ${reason}`; }
  }
  count[result]++;
  console.log(`| ${name} | ${result} | ${reason.replace(/\|/g, "\\|") || "-"} |`);
}
console.log(`\n${count.passed} passed, ${count.failed} failed, ${count["n/a"]} n/a`);
