// The build of a browser app (scripts/build-web.mjs runs it for each): both apps are built alike,
// each under the path the server serves it at (server/http/web-app.ts), its files under assets/.
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

export const appBuild = (base: '/console/' | '/claims/'): UserConfig =>
  defineConfig({
    base,
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
      // Each app's browser test measures its first load's gzipped JavaScript against its budget;
      // Vite's default warning (500 KB before compression) would fire on every build.
      chunkSizeWarningLimit: 900,
    },
  });
