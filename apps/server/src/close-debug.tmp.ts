import { startApp } from './testing/live.js';
const { url, app } = await startApp('pglite');
for (const p of ['/', '/api/me', '/api/nothing', '/favicon.png', '/no/such/page']) { const r = await fetch(url + p); await r.text(); }
const t0 = Date.now();
const timer = setInterval(() => console.log('close pending', Date.now() - t0), 5000);
await app.close(); console.log('closed', Date.now() - t0);
clearInterval(timer);
process.exit(0);
