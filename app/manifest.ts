import type { MetadataRoute } from 'next';

// The installable till (docs/using-counter.md#installing-the-till-as-an-app-and-when-the-network-drops):
// served at /manifest.webmanifest, linked from every page by Next.js. The service worker that keeps the till's shell is public/sw.js.
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: '/pos',
    name: 'Counter — Dogecoin point of sale',
    short_name: 'Counter',
    description: 'The till of a shop that takes Dogecoin.',
    start_url: '/pos',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    background_color: '#f7f5ef',
    theme_color: '#c2a633',
    categories: ['business', 'finance'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
