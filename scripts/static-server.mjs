// A small static file server for the built site, bound to 127.0.0.1 only. Used by
// `scripts/serve` and by the browser tests (which start one per test on a free port).
// Usage: node scripts/static-server.mjs ROOT [PORT]   (PORT 0 picks a free one and prints it)
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.otf': 'font/otf', '.ttf': 'font/ttf',
  '.woff2': 'font/woff2', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8', '.webmanifest': 'application/manifest+json',
};

export function startServer(root, port = 0, { log = null } = {}) {
  const base = resolve(root);
  const server = createServer((req, res) => {
    let path;
    try { path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname); } catch { path = '/'; }
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) { res.writeHead(403).end('forbidden'); return; }
    try { if (statSync(file).isDirectory()) file = join(file, 'index.html'); } catch { /* 404 below */ }
    let size;
    try { size = statSync(file).size; } catch {
      if (log) log(404, path);
      let notFound = join(base, '404.html');
      try { statSync(notFound); } catch { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
      res.writeHead(404, { 'content-type': TYPES['.html'] });
      createReadStream(notFound).pipe(res);
      return;
    }
    if (log) log(200, path);
    res.writeHead(200, { 'content-type': TYPES[extname(file).toLowerCase()] || 'application/octet-stream',
                         'content-length': size, 'cache-control': 'no-cache',
                         // Public static files, readable from any origin as GitHub Pages serves them:
                         // an embed in an iframe sandboxed with allow-scripts alone (an opaque origin)
                         // fetches its wasm and fonts as cross-origin requests.
                         'access-control-allow-origin': '*' });
    if (req.method === 'HEAD') { res.end(); return; }
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] || '.';
  const port = Number(process.argv[3] || 8000);
  startServer(root, port).then((server) => {
    const { port: p } = server.address();
    console.log(`TrainCost is served at http://127.0.0.1:${p}/ (Ctrl-C stops it)`);
  }, (e) => { console.error(`cannot serve on 127.0.0.1:${port}: ${e.message}`); process.exit(1); });
}
