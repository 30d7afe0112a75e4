// Refreshes the mcp-*.json files here: starts each MCP server over stdio (installed with
// `npm install --ignore-scripts` of the packages below, dummy credentials in the environment),
// asks tools/list, and writes each tool's inputSchema (and outputSchema) with the package named.
// Usage: node collect.mjs [OUT_DIR] from the directory holding node_modules.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
const servers = [
  ['server-github', []], ['server-gitlab', []], ['server-filesystem', [os.tmpdir()]], ['server-memory', []],
  ['server-everything', ['stdio']], ['server-slack', []], ['server-google-maps', []], ['server-brave-search', []],
  ['server-puppeteer', []], ['server-sequential-thinking', []], ['server-everart', []],
  ['server-aws-kb-retrieval', []], ['server-postgres', ['postgresql://127.0.0.1:1/none']],
];
const env = { ...process.env, GITHUB_PERSONAL_ACCESS_TOKEN: 'x', GITLAB_PERSONAL_ACCESS_TOKEN: 'x', SLACK_BOT_TOKEN: 'x', SLACK_TEAM_ID: 'x',
  GOOGLE_MAPS_API_KEY: 'x', BRAVE_API_KEY: 'x', EVERART_API_KEY: 'x', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'x', AWS_REGION: 'us-east-1' };
const outDir = process.argv[2] ?? '.';
for (const [name, args] of servers) {
  const dir = `node_modules/@modelcontextprotocol/${name}`;
  const version = JSON.parse(fs.readFileSync(`${dir}/package.json`)).version;
  const child = spawn('node', [`${dir}/dist/index.js`, ...args], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const result = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 15000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      let msg; try { msg = JSON.parse(line); } catch { return; }
      if (msg.id === 1) {
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }) + '\n');
      } else if (msg.id === 2) { clearTimeout(timer); resolve(msg.result); }
    });
    child.on('exit', () => resolve(null));
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'collect', version: '1' } } }) + '\n');
  });
  child.kill();
  if (!result) { console.log(`FAIL ${name}`); continue; }
  const entries = result.tools.flatMap((t) => [{ tool: t.name, schema: t.inputSchema }, ...(t.outputSchema ? [{ tool: `${t.name} outputSchema`, schema: t.outputSchema }] : [])]);
  fs.writeFileSync(`${outDir}/mcp-${name}.json`, JSON.stringify({ source: `npm @modelcontextprotocol/${name}@${version}, tools/list inputSchema`, schemas: entries }, null, 1) + '\n');
  console.log(`${name}@${version}: ${entries.length}`);
}
process.exit(0);
