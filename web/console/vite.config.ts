// The merchant console's build (scripts/build-web.mjs runs it; `npx vite build web/console` too).
// Paths are relative to this folder, Vite's root, so the config needs no Node API.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  // server/http/console-app.ts serves the app at /console and its files at /console/assets/.
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'baseline-widely-available',
    // Every browser in the target supports <link rel="modulepreload">: no polyfill code needed.
    modulePreload: { polyfill: false },
    // A small file would otherwise become a data: URL; the CSP allows data: images only, not fonts.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // The budget is 300 KB of gzipped JavaScript on the first load, which test/console-web.test.ts
    // measures; Vite's default warning (500 KB before compression) would fire on every build.
    chunkSizeWarningLimit: 900,
  },
});
