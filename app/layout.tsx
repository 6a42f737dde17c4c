import type { Metadata } from "next";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/queries/query-provider";
import "./globals.css";

// Every page renders per request: it carries the request's CSP nonce and the caller's data.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Location Sync", template: "%s · Location Sync" },
  description: "Keeps business locations in sync with the Marketing Automation Service.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <QueryProvider>{children}</QueryProvider>
      </body>
    </html>
  );
}
