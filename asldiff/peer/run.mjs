// Records expected.json for every asldiff case by running it through the
// pinned peer, aws-local-stepfunctions 3.0.0.
//
//   cd asldiff/peer && npm ci && node run.mjs ../cases [case-name ...]
//
// A case with a deviation.md is one where the peer disagrees with the AWS
// documentation: its expected.json is written by hand to follow AWS and is
// never overwritten here. For those cases the peer's own line goes to
// peer.json, so a reader sees what the peer does and that it still deviates.
//
// Exit status: 0 when every case ran, 1 when a case could not be run (an
// invalid definition, a broken mocks file).

import path from 'node:path';
import fs from 'node:fs';
import { listCases, loadCase, newMachine, runOptions, resultLine } from './lib.mjs';

const root = process.argv[2];
if (!root) {
  process.stderr.write('usage: node run.mjs CASES_DIR [CASE ...]\n');
  process.exit(2);
}
const only = new Set(process.argv.slice(3));

let failures = 0;
let written = 0;
let deviations = 0;
for (const dir of listCases(root)) {
  const name = path.basename(dir);
  if (only.size > 0 && !only.has(name)) continue;
  try {
    const c = loadCase(dir);
    const line = await resultLine(newMachine(c), c, runOptions(c));
    const text = JSON.stringify(line) + '\n';
    if (fs.existsSync(path.join(dir, 'deviation.md'))) {
      fs.writeFileSync(path.join(dir, 'peer.json'), text);
      deviations++;
      process.stdout.write(`${name}: deviation, peer gives ${text}`);
    } else {
      fs.writeFileSync(path.join(dir, 'expected.json'), text);
      written++;
      process.stdout.write(`${name}: ${text}`);
    }
  } catch (err) {
    failures++;
    process.stderr.write(`${name}: cannot run: ${err.stack ?? err}\n`);
  }
}
process.stdout.write(`${written} expected.json written, ${deviations} deviation cases kept, ${failures} failed\n`);
process.exit(failures > 0 ? 1 : 0);
