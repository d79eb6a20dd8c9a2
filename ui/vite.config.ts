/**
 * Two pages from one toolchain: the memory explorer (index.html, served at /ui/) and the
 * offline GraphQL IDE (ide.html, served at /graphql to browsers). Assets live under /ui/,
 * so both pages load everything from graphmem itself.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const here = import.meta.dirname;

export default defineConfig({
  base: '/ui/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 5000,
    rolldownOptions: {
      onLog(level, log, handler) {
        // React libraries mark modules "use client"; a client-only bundle has no use for it.
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
      input: {
        explorer: resolve(here, 'index.html'),
        ide: resolve(here, 'ide.html'),
      },
    },
  },
  worker: { format: 'es' },
});
