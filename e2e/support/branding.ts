import type { Page } from '@playwright/test';

/** A tenant's branding as the branded-page specs set it; its logo is on a CDN served by `serveAcmeLogo`. */
export const ACME_BRANDING = {
  productName: 'Acme Classroom',
  logoUrl: 'https://cdn.acme.example/logo.svg',
  accentColor: '#7c2d12',
  backgroundColor: '#0f2a1d',
};

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32"><rect width="120" height="32" rx="6" fill="#f59e0b"/><text x="10" y="22" font-size="16" font-family="sans-serif" fill="#111">ACME</text></svg>';

/** Answers the page's requests for the branding's logo (the CDN is not reachable from here). */
export const serveAcmeLogo = (page: Page) =>
  page.route('https://cdn.acme.example/**', (route) => route.fulfill({ contentType: 'image/svg+xml', body: LOGO }));
