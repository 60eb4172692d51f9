// Peer side of the ASL benchmark: executions per second of
// aws-local-stepfunctions 3.0.0 on a handful of asldiff cases (the same
// definitions, inputs and mocks flowc runs), printed as one JSON object.
//
//   cd asldiff/peer && npm ci && node bench.mjs [--seconds S] [--cases DIR] [CASE ...]
//
// CASE is a case directory name or a unique part of one (default: BENCH_CASES
// below). Each case runs once unmeasured, then back to back for S seconds
// (default 2) on one machine object, so definition validation is not timed,
// mocks answer at once and Wait/Retry pauses take no time, as in `flowc run
// --skip-waits`. Every measured execution must give the case's expected line.

import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { listCases, loadCase, newMachine, runOptions, resultLine } from './lib.mjs';

// One case per area: I/O processing, retry and catch, Choice, Parallel, Map
// with a mocked task, intrinsic functions.
export const BENCH_CASES = [
  'io-task-full-order',
  'retry-then-catch',
  'choice-loop-counter',
  'parallel-branch-multi-state',
  'map-task-mock-sequence',
  'fn-nested',
];

function parseArgs(argv) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const opts = { seconds: 2, cases: path.join(here, '..', 'cases'), names: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seconds') opts.seconds = Number(argv[++i]);
    else if (a === '--cases') opts.cases = argv[++i];
    else opts.names.push(a);
  }
  if (!(opts.seconds > 0)) throw new Error('--seconds must be a positive number');
  if (opts.names.length === 0) opts.names = BENCH_CASES;
  return opts;
}

function findCase(dirs, name) {
  const exact = dirs.filter((d) => path.basename(d) === name);
  if (exact.length === 1) return exact[0];
  const partial = dirs.filter((d) => path.basename(d).includes(name));
  if (partial.length !== 1) throw new Error(`case ${name}: ${partial.length} directories match`);
  return partial[0];
}

async function benchCase(dir, seconds) {
  const c = loadCase(dir);
  const machine = newMachine(c);
  const expectedFile = path.join(dir, 'expected.json');
  const expected = fs.existsSync(expectedFile) ? JSON.parse(fs.readFileSync(expectedFile, 'utf8')) : null;
  const quiet = { quiet: true };
  const first = await resultLine(machine, c, runOptions(c, quiet));
  const deviates = fs.existsSync(path.join(dir, 'deviation.md'));
  if (expected && !deviates && !isDeepStrictEqual(first, expected)) {
    throw new Error(`${c.name}: the peer gives ${JSON.stringify(first)}, expected.json says ${JSON.stringify(expected)}`);
  }
  let executions = 0;
  const start = process.hrtime.bigint();
  const limit = start + BigInt(Math.round(seconds * 1e9));
  let now = start;
  while (now < limit) {
    // Fresh options per execution: mock invocation counters start at zero.
    const line = await resultLine(machine, c, runOptions(c, quiet));
    if (line.status !== first.status) throw new Error(`${c.name}: execution ${executions} gave ${JSON.stringify(line)}`);
    executions++;
    now = process.hrtime.bigint();
  }
  const elapsed = Number(now - start) / 1e9;
  return {
    case: c.name,
    status: first.status,
    executions,
    seconds: Number(elapsed.toFixed(3)),
    executions_per_second: Number((executions / elapsed).toFixed(1)),
  };
}

const opts = parseArgs(process.argv.slice(2));
const dirs = listCases(opts.cases);
const results = [];
for (const name of opts.names) {
  results.push(await benchCase(findCase(dirs, name), opts.seconds));
}
const geomean = Math.exp(results.reduce((s, r) => s + Math.log(r.executions_per_second), 0) / results.length);
process.stdout.write(
  JSON.stringify(
    {
      engine: 'aws-local-stepfunctions@3.0.0',
      node: process.version,
      seconds_per_case: opts.seconds,
      cases: results,
      geomean_executions_per_second: Number(geomean.toFixed(1)),
    },
    null,
    2,
  ) + '\n',
);
