// scripts/bench real --fake end to end: the real agent (scripts/agent) against server.mjs without a model, every
// mode, the figures it prints. Needs java and sqlite3 (skipped, with the reason, without them); ~1 minute.
//   node --test scripts/real/
import {test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync, spawnSync} from "node:child_process";
import {mkdtempSync, readFileSync, readdirSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {fileURLToPath} from "node:url";

const bench = fileURLToPath(new URL("./bench", import.meta.url));
const missing = ["java", "sqlite3"].filter((c) => spawnSync("sh", ["-c", `command -v ${c}`]).status !== 0);

test("bench real --fake: modes side by side, first answer, the judge's effect on the cache, echoes not taken for answers, prompt forms",
    {skip: missing.length ? `${missing.join(" and ")} not installed` : false, timeout: 600_000}, () => {
  const dir = mkdtempSync(join(tmpdir(), "hmp-bench-"));
  try {
    const out = execFileSync(bench, ["--fake", "--tasks", "3", "--dir", dir], {encoding: "utf8"});
    const lines = out.split("\n");
    for (const mode of ["block", "tools"]) {
      assert.match(out, new RegExp(`^${mode} mode, 3 tasks`, "m"));
      // the fake answers with its prompt's context 4 line echoed: "Context 4" is no answer to "What is 2 + 2?"
      const task1 = lines.find((l) => /^ {3}1 question /.test(l) && lines.indexOf(l) > lines.findIndex((x) => x.startsWith(`${mode} mode, 3`)));
      assert.match(task1, /first +\d+\.\d s +exit 0 +shown 2 +done no /);
    }
    assert.match(out, /^ {2}next call after a judge call: cached \d+ of \d+ prompt tokens \(median of 1 calls; after a main call: \d+ of \d+, 1 calls\)$/m);
    assert.match(out, /^ {2}first answer shown: +median \d+\.\d s after the task began \(in 3 of 3 tasks\)$/m);
    // json mode runs once the agent takes llm.commands = "json", and is said to be skipped until then
    assert.match(out, /^json mode(, 3 tasks| skipped: this agent refuses its agent\.toml)/m);
    assert.match(out, /^side by side +block +tools( +json)? *$/m);
    assert.match(out, /^ {2}cached after a judge call +\d+ of \d+ +\d+ of \d+/m);
    const full = /^ {2}full +time to first token \d+\.\d s +prompt (\d+) +tokens \((\d+) cached\)/m.exec(out);
    const compact = /^ {2}compact +time to first token \d+\.\d s +prompt (\d+) +tokens \((\d+) cached\)/m.exec(out);
    assert.ok(full && compact, out);
    assert.ok(Number(compact[1]) < Number(full[1]) * 0.7, `compact ${compact[1]} against full ${full[1]} prompt tokens`);
    assert.ok(Number(full[2]) < 5 && Number(compact[2]) < 5, "each form starts from an evicted cache, not the other's prefix");
    const run = join(dir, "runs", readdirSync(join(dir, "runs"))[0]);
    assert.match(readFileSync(join(run, "block", "task1.stamped"), "utf8"), /^\d+\.\d+\tfake reply r1: \d+ prompt tokens read$/m);
    // --report prints the same figures again from the run's files
    const again = execFileSync(bench, ["--report", run], {encoding: "utf8"});
    assert.match(again, /^side by side +block +tools/m);
    assert.match(again, /^ {2}compact +time to first token/m);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
