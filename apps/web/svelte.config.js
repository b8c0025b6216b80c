import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
export default {
  preprocess: vitePreprocess(),
  compilerOptions: { runes: true },
  kit: {
    adapter: adapter({ out: 'build' }),
    // Registered by the page itself once it has loaded, to follow its updates (src/lib/pwa/updates.svelte.ts).
    serviceWorker: { register: false },
    // The style sheets a page needs to paint come inside it (the layout's and the home page's are each
    // under 10 kB): on a phone over slow 4G each one linked was a further round trip before the first paint.
    inlineStyleThreshold: 10_000,
    // SvelteKit adds a fresh nonce for its inline start-up script to each
    // page it renders (a hash on prerendered ones). Style attributes in the
    // markup need 'unsafe-inline' for styles only; scripts stay strict.
    // Under CSP Level 3, which every current browser implements, 'self' in
    // connect-src also covers ws: and wss: to this host, so Socket.IO's
    // WebSocket is allowed without opening WebSockets to any other host.
    csp: {
      mode: 'auto',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        'style-src': ['self', 'unsafe-inline'],
        'img-src': ['self'],
        'font-src': ['self'],
        'connect-src': ['self'],
        'worker-src': ['self'],
        'manifest-src': ['self'],
        'object-src': ['none'],
        'base-uri': ['self'],
        'form-action': ['self'],
        'frame-ancestors': ['none'],
      },
    },
  },
};
