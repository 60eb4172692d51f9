// Runs the expressions of expressions.json (written by `go test -run
// TestWriteExpressions`) under jsonata-js and prints the time one pass over
// all of them takes, as go test's benchmarks print it.
import { readFileSync } from "node:fs";
import jsonata from "jsonata";

const exprs = JSON.parse(readFileSync(new URL("./expressions.json", import.meta.url)));
const compiled = exprs.map((e) => ({ x: jsonata(e.expr), input: e.input }));

async function pass() {
  for (const c of compiled) {
    try {
      await c.x.evaluate(c.input);
    } catch {
      // the Go evaluators skip the same failures
    }
  }
}

for (let i = 0; i < 20; i++) await pass(); // warm up the JIT
for (let run = 0; run < 10; run++) {
  let n = 0;
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < 1_000_000_000n) {
    await pass();
    n++;
  }
  const ns = Number(process.hrtime.bigint() - start) / n;
  console.log(`BenchmarkSuite/jsonata-js \t${n}\t${ns.toFixed(0)} ns/op`);
}
