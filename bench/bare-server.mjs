// The yardstick: a bare node:http server answering a fixed JSON body, as fast as Node can.
import http from 'node:http';

const body = process.env.BODY ?? '{"status":"ok"}';
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
