import { defineConfig } from 'vite';

/**
 * The dashboard is served by brain-api under /ui; every asset is bundled (no CDN) and named by
 * its content hash, so the server can let browsers keep assets for good. JSX is compiled by
 * Vite's own transform (tsconfig: react-jsx), so no plugin is needed.
 */
export default defineConfig({
  base: '/ui/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
});
