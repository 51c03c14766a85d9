// The floor under any HTTP service of one query: a bare `node:http` server (no framework, no
// authentication, no validation) that answers every POST with the rows of one prepared DuckDB
// statement as JSON. Run as its own process by the statistics benchmark; prints its port.
// Usage: tsx bench/http-floor.ts <snapshot file> <sql> <params as JSON>; `-` as <sql> answers `{}`
// without a query (HTTP's own cost).
import http from 'node:http';
import { openDuck, queryPrepared } from '../src/market/duck.js';

const [file, sql, paramsJson] = process.argv.slice(2);
if (!file || !sql || !paramsJson) throw new Error('usage: http-floor.ts <file> <sql> <params>');
const params = JSON.parse(paramsJson) as Record<string, string | number | null>;
const instance = await openDuck(file, { readOnly: true });
const db = await instance.connect();
const json = (rows: unknown) =>
  JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === 'bigint' ? Number(value) : value,
  );

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    // `-` as the query: answer at once, to measure what HTTP alone costs.
    (sql === '-' ? Promise.resolve({}) : queryPrepared(db, sql, params)).then(
      (rows) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(json(rows));
      },
      (error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${String(typeof address === 'object' && address ? address.port : 0)}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  db.closeSync();
  instance.closeSync();
});
