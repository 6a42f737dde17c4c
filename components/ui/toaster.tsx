"use client";

import { Toaster as Sonner } from "sonner";

/** Where every toast of the dashboard appears (sonner's `toast()` from any client component). */
export function Toaster() {
  return <Sonner position="bottom-right" closeButton />;
}
