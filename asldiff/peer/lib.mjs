// Shared by run.mjs and bench.mjs: loads one asldiff case and runs it through
// aws-local-stepfunctions with the case's input and mocks, producing the
// result line in the format `flowc run` prints (docs/cli.md).

import './polyfill.mjs'; // must stay the first import: it runs before the peer loads
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { StateMachine, ExecutionError } from 'aws-local-stepfunctions';

// The peer's default cause for a Fail state that sets neither Cause nor CausePath.
const PEER_DEFAULT_FAIL_CAUSE = 'Execution failed because of a Fail state';

// A mocked Throw: an ordinary task error whose name is the mock's Error and
// whose message is its Cause, so the peer matches it by name, by
// States.TaskFailed and by States.ALL, and a Catch sees {Error, Cause}.
export class MockedTaskError extends Error {
  constructor(error, cause) {
    super(cause ?? '');
    this.name = error;
    this.mockCause = cause;
  }
}

export function definitionFile(dir) {
  for (const name of ['definition.asl.json', 'definition.asl.yaml']) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`${dir}: no definition.asl.json or definition.asl.yaml`);
}

// stem follows flowc: the file name without ".asl.json"/".asl.yaml".
export function stem(file) {
  return path.basename(file).replace(/\.asl\.(json|ya?ml)$/, '');
}

function readJSON(p) {
  return JSON.parse(fs.readFileSync(p, 'utf8'));
}

export function loadCase(dir) {
  const defFile = definitionFile(dir);
  const text = fs.readFileSync(defFile, 'utf8');
  const definition = defFile.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
  const inputFile = path.join(dir, 'input.json');
  const input = fs.existsSync(inputFile) ? readJSON(inputFile) : {};
  const mocksFile = path.join(dir, 'mocks.json');
  const mocks = fs.existsSync(mocksFile) ? readJSON(mocksFile) : { StateMachines: {}, MockedResponses: {} };
  return { dir, name: path.basename(dir), defFile, definition, input, mocks, testCase: 'default' };
}

// Every state of a machine, nested Parallel branches and Map processors included.
function* allStates(machine) {
  for (const [name, state] of Object.entries(machine.States ?? {})) {
    yield [name, state];
    for (const branch of state.Branches ?? []) yield* allStates(branch);
    const processor = state.ItemProcessor ?? state.Iterator;
    if (processor) yield* allStates(processor);
  }
}

// "0", "1-2", "3": the entry whose key covers invocation k; past the last, the last repeats.
function pickResponse(response, k) {
  const entries = Object.entries(response).map(([key, value]) => {
    const [lo, hi] = key.split('-').map((s) => parseInt(s.trim(), 10));
    return { lo, hi: Number.isNaN(hi) || hi === undefined ? lo : hi, value };
  });
  entries.sort((a, b) => a.lo - b.lo);
  for (const e of entries) {
    if (k >= e.lo && k <= e.hi) return e.value;
  }
  return entries[entries.length - 1].value;
}

function mockTable(c) {
  const machines = c.mocks.StateMachines ?? {};
  const names = Object.keys(machines);
  let machine = machines[stem(c.defFile)];
  if (!machine && names.length === 1) machine = machines[names[0]];
  const testCase = machine?.TestCases?.[c.testCase] ?? {};
  const table = {};
  for (const [stateName, responseName] of Object.entries(testCase)) {
    const response = c.mocks.MockedResponses?.[responseName];
    if (!response) throw new Error(`${c.name}: mocked response ${responseName} is not defined`);
    table[stateName] = response;
  }
  return table;
}

// runOptions builds the overrides: every Task answered from the mocks, every
// Wait and retry pause taking no time (mirrors flowc's --skip-waits).
// Wait states that read their duration from the input (SecondsPath,
// TimestampPath) are not overridden, so the peer still evaluates the path;
// cases keep those durations at most one second or in the past.
export function runOptions(c, { quiet = false } = {}) {
  const table = mockTable(c);
  const calls = {};
  const taskResourceLocalHandlers = {};
  const waitTimeOverrides = {};
  const retryIntervalOverrides = {};
  for (const [name, state] of allStates(c.definition)) {
    if (state.Type === 'Task') {
      taskResourceLocalHandlers[name] = async (input) => {
        const k = calls[name] ?? 0;
        calls[name] = k + 1;
        const response = table[name];
        if (!response) {
          if (!quiet) process.stderr.write(`${c.name}: no mock for task ${name}; it returns its input\n`);
          return input;
        }
        const entry = pickResponse(response, k);
        if ('Throw' in entry) {
          throw new MockedTaskError(entry.Throw.Error, entry.Throw.Cause);
        }
        return structuredClone(entry.Return);
      };
    }
    if (state.Type === 'Wait' && state.SecondsPath === undefined && state.TimestampPath === undefined) {
      waitTimeOverrides[name] = 0;
    }
    if (Array.isArray(state.Retry)) {
      retryIntervalOverrides[name] = 0;
    }
  }
  return { overrides: { taskResourceLocalHandlers, waitTimeOverrides, retryIntervalOverrides } };
}

export function newMachine(c) {
  return new StateMachine(c.definition);
}

// resultLine runs one execution and returns the result line as an object.
// The cause is kept only where a Fail state or a mocked Throw set it; the
// wording of runtime-error causes is free in flowc.
export async function resultLine(machine, c, options) {
  try {
    const output = await machine.run(structuredClone(c.input), options).result;
    return { status: 'SUCCEEDED', output };
  } catch (err) {
    const e = err instanceof ExecutionError ? err.cause : err;
    if (!e || typeof e.name !== 'string') throw err;
    const line = { status: 'FAILED', error: e.name };
    if (e instanceof MockedTaskError) {
      if (e.mockCause !== undefined) line.cause = e.mockCause;
    } else if (e.constructor?.name === 'FailStateError') {
      if (e.message !== PEER_DEFAULT_FAIL_CAUSE) line.cause = e.message;
    } else if (!(err instanceof ExecutionError)) {
      throw err;
    }
    return line;
  }
}

export function listCases(root) {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(root, d.name))
    .sort();
}
