import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  // Favicon, manifest, images and videos live beside the app, in web/public.
  publicDir: 'web/public',
  plugins: [reactRouter()],
});
