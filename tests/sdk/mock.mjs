// Starts accord-mock on a free port with a scenario of replies, for the SDK checks beside this
// file; resolves to { child, port } once the mock has announced its port.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

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
      else resolve({ child, port: Number(match[1]) });
    });
  });
}
