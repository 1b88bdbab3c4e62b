import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localSettings } from '../local/settings.ts';
import { handler } from './floor-handler.ts';

// The HTTP floor of part 3: the floor handler (one GetItem) behind the plainest node:http server,
// with no routing, no event, no middleware. What any HTTP endpoint that makes one DynamoDB read
// costs on this machine; the bench starts it in its own process, as the API runs in its own.

const server = createServer((request, response) => {
  request.resume();
  handler().then(
    (result) => {
      response.writeHead(result.statusCode, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(result.body) });
      response.end(result.body);
    },
    () => {
      response.writeHead(502);
      response.end();
    },
  );
});

server.listen(localSettings().port, '127.0.0.1', () => {
  console.log(`floor ready on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
