import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/queries/query-provider";
import { Toaster } from "@/components/ui/toaster";
import "./globals.css";

// Every page renders per request: it carries the request's CSP nonce and the caller's data.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Location Sync", template: "%s · Location Sync" },
  description: "Keeps business locations in sync with the Marketing Automation Service.",
  applicationName: "Location Sync",
  // public/: the icon as SVG (modern browsers) and ICO (the rest), the home-screen icon and the web manifest.
  icons: {
    icon: [
      { url: "/favicon.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "32x32" },
    ],
    apple: "/apple-touch-icon.png",
  },
  manifest: "/manifest.webmanifest",
};

export const viewport: Viewport = { themeColor: "#1e293b", width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <QueryProvider>{children}</QueryProvider>
        <Toaster />
      </body>
    </html>
  );
}
