// What the provider SDK checks beside this file share: their accord-mock argument, accord-mock
// started on a free port with a scenario, their outcomes counted, and the invoice they extract.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export const value = { vendor: 'ACME Corp', total: 1250, currency: 'EUR' };
export const schema = {
  type: 'object',
  properties: { vendor: { type: 'string' }, total: { type: 'number' }, currency: { type: 'string' } },
  required: ['vendor', 'total', 'currency'],
  additionalProperties: false,
};
export const messages = [{ role: 'user', content: 'ACME Corp billed 1,250.00 EUR.' }];

// The accord-mock path a check takes as its one argument; without it, the usage and exit 2.
export function mockPathArg(script) {
  const mockPath = process.argv[2];
  if (!mockPath) {
    console.error(`usage: node ${script} ACCORD_MOCK_PATH`);
    process.exit(2);
  }
  return mockPath;
}

export function startMock(mockPath, replies) {
  const child = spawn(mockPath, ['--port', '0', '--scenario-json', JSON.stringify({ replies })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('accord-mock did not announce its port')), 10000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`accord-mock exited early (${code})`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening on 127\.0\.0\.1:(\d+)$/.exec(line);
      if (!match) reject(new Error(`unexpected first line: ${line}`));
      else resolve({ child, port: Number(match[1]), root: `http://127.0.0.1:${match[1]}` });
    });
  });
}

// Runs named checks in order; finish() stops the mock and exits 1 when any failed.
export function checks(child) {
  let failures = 0;
  return {
    async check(name, fn) {
      try {
        await fn();
        console.log(`ok   ${name}`);
      } catch (error) {
        failures += 1;
        console.log(`FAIL ${name}: ${error?.stack ?? error}`);
      }
    },
    finish() {
      child.removeAllListeners('exit');
      child.kill('SIGTERM');
      if (failures > 0) {
        console.log(`${failures} check(s) failed`);
        process.exit(1);
      }
    },
  };
}
